import { defineStore } from 'pinia'
import { api, newJobId } from '../bridge'
import { useAccountsStore } from './accounts'

export const useFreeDnsStore = defineStore('freedns', () => {
  const accounts = useAccountsStore()
  const a = () => accounts.activeId
  return {
    list: () => api.all.freedns.list({ accountId: a(), jobId: newJobId() }),
    get: (domain: string) => api.freedns.get({ accountId: a(), domain }),
    register: (sld: string, tld: string, auth: string) => api.freedns.register({ accountId: a(), sld, tld, auth }),
    remove: (domain: string) => api.freedns.remove({ accountId: a(), domain }),
    setRecords: (domain: string, records: string, ttl: number | undefined) =>
      api.freedns.set({ accountId: a(), domain, records, ...(ttl !== undefined ? { ttl } : {}) }),
    owners: () => api.all.freedns.localtransfer.list({ accountId: a(), jobId: newJobId() }),
    owner: (domain: string) => api.freedns.localtransfer.get({ accountId: a(), domain }),
    changeOwner: (domain: string, username: string, message: string) =>
      api.freedns.localtransfer.set({ accountId: a(), domain, username, ...(message ? { message } : {}) }),
  }
})
