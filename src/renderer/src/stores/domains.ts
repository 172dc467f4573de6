import { defineStore } from 'pinia'
import { api } from '../bridge'
import { FIRST_PAGE_SIZE, pagedList } from '../composables/pagedList'
import { bulkRunner } from '../composables/bulk'
import { useAccountsStore } from './accounts'
import type { ContactInput } from '../../../shared/endpoints/table'

export interface RegisterInput {
  registrar?: string
  sld: string
  tld: string
  years: number
  ns: string[]
  whois_proxy: 0 | 1
  contact: ContactInput
}
export interface TransferInput {
  domain: string
  authcode: string
  registrar?: string
  ns?: string[]
  whois_proxy: 0 | 1
  contact?: ContactInput
}

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
    search: (names: string[]) => api.domainsearch.check({ accountId: account(), domainnames: names.join(',') }),
    register: (input: RegisterInput) => api.domains.register({ accountId: account(), ...input }),
    requestTransfer: (input: TransferInput) => api.domains.transfer.request({ accountId: account(), ...input }),
    transfers: () => api.all.domains.transfer.list({ accountId: account(), jobId: `transfers-${crypto.randomUUID()}` }),
    whois: (domain: string) => api.domains.whois.get({ accountId: account(), domain }),
  }
})
