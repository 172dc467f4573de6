/** A domain's DNS records (domains.dns.*), kept per flavour of the service's DNS. */
import type { EndpointsUnder, HandlersFor } from '../handler-types'
import { badRequest, rejectIf } from '../http-error'
import { paginate, ordered } from '../lists'
import { findDomain } from '../lookup'
import { nsFlavour } from '../nameservers'
import { keptRecords, keptTtl, refusedRecords } from '../records'
import { dnsFlavourOf, dnsOut, ref } from '../wire'
import { NS_TYPES, type NsType } from '@shared/service/spec-words'

export const dnsHandlers: HandlersFor<EndpointsUnder<'domains.dns'>> = {
  'domains.dns.list': ({ p, state, paging, service }) =>
    paginate(ordered(state.domains, p.order), p, paging, (d) => dnsOut(d, service)),
  'domains.dns.get': ({ p, state, service }) => ({ results: dnsOut(findDomain(state, p.domain), service) }),
  'domains.dns.set': ({ p, state, service }) => {
    const d = findDomain(state, p.domain)
    if (nsFlavour(d) === 'registrar')
      throw badRequest('DNS records cannot be changed while the domain uses the registrar-affiliated nameservers.')
    // The service's own words: each product word names a flavour; a domain's own word, its current
    // one. A save of `records` alone (as a published certbot hook sends it, published-requests.json)
    // changes the zone the domain is served from now.
    const flavour: NsType | undefined =
      p.ns_type === undefined || p.ns_type === d.nsTypeWord
        ? dnsFlavourOf(d)
        : NS_TYPES.find((f) => service.nsTypeWords[f] === p.ns_type)
    if (!flavour) throw badRequest(`ns_type must be ${Object.values(service.nsTypeWords).join(' or ')}.`)
    rejectIf(refusedRecords(p.records))
    d.dns[flavour] = { records: keptRecords(p.records, service), ttl: keptTtl(p.ttl ?? d.dns[flavour].ttl, service) }
    // Recorded: the answer repeats the request (the TTL as the number sent), not what was kept.
    return {
      results: {
        ...ref(d),
        ...(p.ns_type !== undefined ? { ns_type: p.ns_type } : {}),
        records: p.records,
        ...(p.ttl !== undefined ? { ttl: p.ttl } : {}),
      },
    }
  },
}
