/** Nameservers: the service's own, which decide how a domain's DNS is served, and the checks of a list. */
import { badRequest } from './http-error'
import type { DomainRec } from './state'
import { isHostName } from './validate'

/** The nameservers the service itself runs, per DNS flavour. */
export const SERVICE_NAMESERVERS = {
  svc1: ['ns1.svc1.example.net', 'ns2.svc1.example.net'],
  svc11: ['ns1.svc11.example.net', 'ns2.svc11.example.net'],
  registrar: ['ns1.registrar-dns.example.org', 'ns2.registrar-dns.example.org'],
} as const

/** Host names compare case-insensitively, with or without the root's trailing dot. */
export function canonicalHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '')
}

/** Which flavour of the service's DNS a domain's nameservers point at. */
export function nsFlavour(d: DomainRec): 'svc1' | 'svc11' | 'registrar' | 'other' {
  const first = canonicalHost(d.ns[0] ?? '')
  for (const f of ['svc1', 'svc11', 'registrar'] as const) {
    const hosts: readonly string[] = SERVICE_NAMESERVERS[f]
    if (hosts.includes(first)) return f
  }
  return 'other'
}

export function checkNameservers(ns: string[]): void {
  for (const h of ns) if (!isHostName(h)) throw badRequest(`"${h}" is not a valid nameserver host name.`)
  if (new Set(ns.map((h) => h.toLowerCase())).size !== ns.length)
    throw badRequest('The nameserver list has duplicates.')
}

/** A domain's delegation: a valid list of at least two, as registries require. */
export function checkDelegation(ns: string[]): void {
  if (ns.length < 2) throw badRequest('At least two nameservers are required.')
  checkNameservers(ns)
}
