import { defineStore } from 'pinia'
import { api } from '../api'
import { FIRST_PAGE_SIZE, pagedList } from '../composables/pagedList'
import { bulkRunner } from '../composables/bulk'
import { useAccountsStore } from './accounts'

export const useDomainsStore = defineStore('domains', () => {
  const accounts = useAccountsStore()
  const account = () => accounts.activeId
  const list = pagedList(
    () => api.domains.list({ accountId: account(), limit: FIRST_PAGE_SIZE }),
    (jobId, onProgress) => api.all.domains.list({ accountId: account(), jobId }, onProgress),
  )
  const bulk = bulkRunner()
  return {
    list,
    bulk,
    resetAll: () => list.reset(),
    renew: (domain: string, years: number) => api.domains.expiration.renew({ accountId: account(), domain, years }),
    setAutorenew: (domain: string, autorenew_domain: 0 | 1) => api.domains.autorenew.set({ accountId: account(), domain, autorenew_domain }),
  }
})
