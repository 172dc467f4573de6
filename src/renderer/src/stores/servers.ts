import { defineStore } from 'pinia'
import { api } from '../bridge'
import { FIRST_PAGE_SIZE, pagedList } from '../composables/pagedList'
import { useAccountsStore } from './accounts'
import type { ServerKind } from '../../../shared/endpoints/table'
import type { ResourceField } from '../../../shared/endpoints/decoders'

export const useServersStore = defineStore('servers', () => {
  const accounts = useAccountsStore()
  const account = () => accounts.activeId
  const make = (kind: ServerKind) =>
    pagedList(
      () => api.servers.list({ accountId: account(), kind, limit: FIRST_PAGE_SIZE }),
      (jobId, onProgress) => api.all.servers.list({ accountId: account(), kind, jobId }, onProgress),
    )
  const lists = { a: make('a'), b: make('b'), c: make('c') }

  return {
    lists,
    resetAll() {
      for (const l of Object.values(lists)) l.reset()
    },
    detail(kind: ServerKind, webid: number) {
      const p = { accountId: account(), kind, webid }
      return Promise.all([api.servers.get(p), api.servers.expiration.get(p), api.servers.autorenew.get(p), api.servers.resource.get(p)])
    },
    extend(kind: ServerKind, webid: number, months: number) {
      return api.servers.expiration.extend({ accountId: account(), kind, webid, months })
    },
    setAutorenew(kind: ServerKind, webid: number, autorenew_all: 0 | 1, autorenew_server: 0 | 1) {
      return api.servers.autorenew.set({ accountId: account(), kind, webid, autorenew_all, autorenew_server })
    },
    setResource(kind: ServerKind, webid: number, type: ResourceField, num: number) {
      return api.servers.resource.set({ accountId: account(), kind, webid, type, num })
    },
    create(kind: ServerKind, input: { webname: string; domainname?: string; www_flg?: 0 | 1; wp_flg?: 0 | 1 }) {
      return api.servers.create({ accountId: account(), kind, ...input })
    },
  }
})
