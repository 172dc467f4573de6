/** A domain's DNS records (domains.dns.*), kept per flavour of the service's DNS. */
import type { EndpointsUnder, HandlersFor } from '../handler-types'
import { badRequest, rejectIf } from '../http-error'
import { paginate, ordered } from '../lists'
import { findDomain } from '../lookup'
import { nsFlavour } from '../nameservers'
import { checkRecords } from '../validate'
import { dnsOut, ref } from '../wire'

export const dnsHandlers: HandlersFor<EndpointsUnder<'domains.dns'>> = {
  'domains.dns.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, dnsOut),
  'domains.dns.get': ({ p, state }) => ({ results: dnsOut(findDomain(state, p.domain)) }),
  'domains.dns.set': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    if (nsFlavour(d) === 'registrar') throw badRequest('DNS records cannot be changed while the domain uses the registrar-affiliated nameservers.')
    rejectIf(checkRecords(p.records))
    d.dns[p.ns_type] = { records: p.records, ttl: p.ttl ?? d.dns[p.ns_type].ttl }
    return { results: { ...ref(d), ns_type: p.ns_type, records: p.records, ttl: d.dns[p.ns_type].ttl } }
  },
}
