import { defineStore } from 'pinia'
import { api } from '../bridge'
import { FIRST_PAGE_SIZE, pagedList } from '../composables/pagedList'
import { useAccountsStore } from './accounts'
import type { SvcipRegion } from '../../../shared/endpoints/decoders'

export const useSvcipsStore = defineStore('svcips', () => {
  const accounts = useAccountsStore()
  const account = () => accounts.activeId
  const list = pagedList(
    () => api.svcips.list({ accountId: account(), limit: FIRST_PAGE_SIZE }),
    (jobId, onProgress) => api.all.svcips.list({ accountId: account(), jobId }, onProgress),
  )
  return {
    list,
    resetAll: () => list.reset(),
    detail(vipid: number) {
      return Promise.all([api.svcips.get({ accountId: account(), vipid }), api.svcips.expiration.get({ accountId: account(), vipid })])
    },
    register(servers: string[], region: SvcipRegion) {
      return api.svcips.register({ accountId: account(), servers: servers.length === 1 ? (servers[0] as string) : servers, region })
    },
    extend(vipid: number, months: number) {
      return api.svcips.expiration.extend({ accountId: account(), vipid, months })
    },
    saveSettings(vipid: number, s: { webid: number; domainname: string; ssl_on: 0 | 1; certid?: string }) {
      return api.svcips.setting.set({ accountId: account(), vipid, ...s })
    },
    deleteCache(vipid: number) {
      return api.svcips.cache.delete({ accountId: account(), vipid })
    },
  }
})
