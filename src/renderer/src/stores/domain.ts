/** One domain's settings: every per-domain operation of the API, for the domain detail tabs. */
import { defineStore } from 'pinia'
import { api } from '../bridge'
import { useAccountsStore } from './accounts'
import type { ContactInput } from '../../../shared/endpoints/table'

export interface DsInput {
  keytag: number
  alg: number
  digesttype: number
  digest: string
}

export const useDomainStore = defineStore('domain', () => {
  const accounts = useAccountsStore()
  const a = () => accounts.activeId
  return {
    get: (domain: string) => api.domains.get({ accountId: a(), domain }),
    expiration: (domain: string) => api.domains.expiration.get({ accountId: a(), domain }),
    renew: (domain: string, years: number) => api.domains.expiration.renew({ accountId: a(), domain, years }),
    autorenew: (domain: string) => api.domains.autorenew.get({ accountId: a(), domain }),
    setAutorenew: (domain: string, autorenew_all: 0 | 1, autorenew_domain: 0 | 1) =>
      api.domains.autorenew.set({ accountId: a(), domain, autorenew_all, autorenew_domain }),
    transferLock: (domain: string) => api.domains.transferlock.get({ accountId: a(), domain }),
    setTransferLock: (domain: string, transfer_lock: 0 | 1) => api.domains.transferlock.set({ accountId: a(), domain, transfer_lock }),
    whois: (domain: string) => api.domains.whois.get({ accountId: a(), domain }),
    setWhois: (domain: string, whois_proxy: 0 | 1, contact: ContactInput) => api.domains.whois.set({ accountId: a(), domain, whois_proxy, contact }),
    nameservers: (domain: string) => api.domains.nameserver.get({ accountId: a(), domain }),
    setNameservers: (domain: string, ns: string[]) => api.domains.nameserver.set({ accountId: a(), domain, ns }),
    privateNameservers: (domain: string) => api.all.domains.privatenameserver.list({ accountId: a(), domain, jobId: `pns-${crypto.randomUUID()}` }),
    createPrivateNameserver: (domain: string, hostname: string, ipv4: string, ipv6: string) =>
      api.domains.privatenameserver.create({ accountId: a(), domain, hostname, ...(ipv4 ? { ipv4 } : {}), ...(ipv6 ? { ipv6 } : {}) }),
    deletePrivateNameserver: (domain: string, hostname: string) => api.domains.privatenameserver.delete({ accountId: a(), domain, hostname }),
    dynamicDns: (domain: string) => api.domains.dynamicdns.get({ accountId: a(), domain }),
    setDynamicDns: (domain: string, dynamicdns: 0 | 1, password?: string) =>
      api.domains.dynamicdns.set({ accountId: a(), domain, dynamicdns, ...(password ? { password } : {}) }),
    dnssec: (domain: string) => api.domains.dnssec.get({ accountId: a(), domain }),
    setDnssec: (domain: string, ds_records: DsInput[]) => api.domains.dnssec.set({ accountId: a(), domain, ds_records }),
    transfers: (domain: string) => api.all.domains.transfer.listForDomain({ accountId: a(), domain, jobId: `tr-${crypto.randomUUID()}` }),
    transfer: (domain: string, transferorderid: string) => api.domains.transfer.get({ accountId: a(), domain, transferorderid }),
    privateNameserver: (domain: string, hostname: string) => api.domains.privatenameserver.get({ accountId: a(), domain, hostname }),
    cancelTransfer: (domain: string, transferorderid: string) => api.domains.transfer.cancel({ accountId: a(), domain, transferorderid }),
    owner: (domain: string) => api.domains.localtransfer.get({ accountId: a(), domain }),
    changeOwner: (domain: string, username: string, message: string) =>
      api.domains.localtransfer.set({ accountId: a(), domain, username, ...(message ? { message } : {}) }),
    remove: (domain: string) => api.domains.remove({ accountId: a(), domain }),
    dns: (domain: string) => api.domains.dns.get({ accountId: a(), domain }),
    setDns: (domain: string, z: { records: string; ttl: number | undefined; ns_type: string | undefined }) =>
      api.domains.dns.set({
        accountId: a(),
        domain,
        records: z.records,
        ns_type: z.ns_type === 'svc11' ? 'svc11' : 'svc1',
        ...(z.ttl !== undefined ? { ttl: z.ttl } : {}),
      }),
    dnsList: () => api.all.domains.dns.list({ accountId: a(), jobId: `dns-${crypto.randomUUID()}` }),
  }
})
