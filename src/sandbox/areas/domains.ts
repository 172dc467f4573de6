/** Domains and their settings (all of domains.* except the DNS records, which dns.ts answers). */
import { addMonths, dateTime, isoDate } from '../dates'
import { effectiveAutorenew } from '../autorenew'
import type { EndpointsUnder, HandlersFor } from '../handler-types'
import { badRequest, notFound, rejectIf } from '../http-error'
import { paginate, ordered } from '../lists'
import { findDomain, isRegistered } from '../lookup'
import { canonicalHost, checkDelegation, checkNameservers } from '../nameservers'
import { changeOwner, checkUsername } from '../ownership'
import {
  DEFAULT_REGISTRAR,
  blankPerson,
  type ContactRec,
  type DomainRec,
  type SandboxState,
  type TransferRec,
} from '../state'
import {
  checkContact,
  checkDs,
  isHostName,
  isIPv4Address,
  isIPv6Address,
  splitRegistrable,
  type ContactInput,
} from '../validate'
import {
  autoOut,
  ddnsOut,
  dnssecOut,
  domainItemOut,
  domainOut,
  expOut,
  lockOut,
  nsOut,
  ownerOut,
  ref,
  transferRefOut,
  whoisOut,
} from '../wire'

type DomainEndpoint = Exclude<EndpointsUnder<'domains'>, EndpointsUnder<'domains.dns'>>

/** A contact as stored: every field present, those the request left out empty. */
function contactRec(input: ContactInput): ContactRec {
  rejectIf(checkContact(input))
  const fill = (p: Record<string, string | undefined>) => ({
    ...blankPerson(),
    ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)),
  })
  return {
    registrant: fill(input.registrant),
    admin: fill(input.admin),
    tech: fill(input.tech),
    billing: fill(input.billing),
  }
}

/** A transfer names its domain by name (any case) or by id. */
function findTransfer(state: SandboxState, domain: string, transferorderid: string): TransferRec {
  const t = state.transfers.find(
    (x) =>
      x.transferorderid === transferorderid && (x.domainname === domain.toLowerCase() || String(x.domainid) === domain),
  )
  if (!t) throw notFound(`Transfer ${transferorderid}`)
  return t
}

export const domainHandlers: HandlersFor<DomainEndpoint> = {
  'domains.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, domainItemOut),
  'domains.register': ({ p, state, now }) => {
    const name = `${p.sld}.${p.tld}`.toLowerCase()
    if (!splitRegistrable(name)) throw badRequest(`${name} is not a valid domain name.`)
    if (isRegistered(state, name)) throw badRequest(`${name} is not available for registration.`)
    checkDelegation(p.ns)
    const contact = contactRec(p.contact)
    const years = p.years ?? 1
    const d: DomainRec = {
      domainid: state.nextId++,
      domainname: name,
      registrar: p.registrar ?? DEFAULT_REGISTRAR,
      expirationdate: addMonths(isoDate(now), 12 * years),
      // A new domain comes under the account's setting for all domains.
      autorenew: state.domains[0]?.autorenew_all ?? 0,
      autorenew_all: state.domains[0]?.autorenew_all ?? 0,
      autorenew_domain: 0,
      transfer_lock: 1,
      authcode: `AC${state.nextId.toString(36).toUpperCase()}X7Q`,
      ns: p.ns,
      whoisproxy: p.whois_proxy ?? 0,
      contact,
      dns: { svc1: { records: '', ttl: 3600 }, svc11: { records: '', ttl: 3600 } },
      dynamicdns: 0,
      ddnsPassword: '',
      ds: [],
      privateNs: [],
      username: state.username,
      ownerMessage: '',
    }
    state.domains.push(d)
    return { results: { domainid: d.domainid, domainname: name, sld: p.sld, tld: p.tld } }
  },
  'domains.get': ({ p, state }) => ({ results: domainOut(findDomain(state, p.domain)) }),
  'domains.remove': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    state.domains.splice(state.domains.indexOf(d), 1)
    return { results: ref(d) }
  },

  'domains.transfer.list': ({ p, state, paging }) => paginate(ordered(state.transfers, p.order), p, paging),
  'domains.transfer.listForDomain': ({ p, state, paging }) => {
    const key = p.domain.toLowerCase()
    const items = state.transfers.filter((t) => t.domainname === key || String(t.domainid) === key)
    if (items.length === 0 && !state.domains.some((d) => d.domainname === key || String(d.domainid) === key)) {
      throw notFound(`Domain ${p.domain}`)
    }
    return paginate(ordered(items, p.order), p, paging)
  },
  'domains.transfer.request': ({ p, state, now }) => {
    const name = p.domain.toLowerCase()
    if (!splitRegistrable(name)) throw badRequest(`${p.domain} is not a valid domain name.`)
    if (state.domains.some((d) => d.domainname === name)) throw badRequest(`${name} is already in this account.`)
    if (state.transfers.some((t) => t.domainname === name && t.status === 'STAY'))
      throw badRequest(`A transfer of ${name} is already in progress.`)
    if (p.ns) checkNameservers(p.ns)
    if (p.contact) contactRec(p.contact)
    const t: TransferRec = {
      domainid: state.nextId++,
      domainname: name,
      transferorderid: `${p.registrar ?? DEFAULT_REGISTRAR}-${state.nextId.toString(36).toUpperCase()}T`,
      status: 'STAY',
      expirationdate: '',
      failurereason: '',
      starttime: dateTime(now),
    }
    state.transfers.push(t)
    return { results: transferRefOut(t) }
  },
  'domains.transfer.get': ({ p, state }) => ({
    results: transferRefOut(findTransfer(state, p.domain, p.transferorderid)),
  }),
  'domains.transfer.cancel': ({ p, state }) => {
    const t = findTransfer(state, p.domain, p.transferorderid)
    state.transfers.splice(state.transfers.indexOf(t), 1)
    return { results: transferRefOut(t) }
  },

  'domains.expiration.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, expOut),
  'domains.expiration.get': ({ p, state }) => ({ results: expOut(findDomain(state, p.domain)) }),
  'domains.expiration.renew': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    d.expirationdate = addMonths(d.expirationdate, 12 * p.years)
    return { results: expOut(d) }
  },

  'domains.autorenew.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, autoOut),
  'domains.autorenew.get': ({ p, state }) => ({ results: autoOut(findDomain(state, p.domain)) }),
  'domains.autorenew.set': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    // autorenew_all is the account's setting for every domain; autorenew is what is in force.
    if (p.autorenew_all !== undefined) for (const x of state.domains) x.autorenew_all = p.autorenew_all
    if (p.autorenew_domain !== undefined) d.autorenew_domain = p.autorenew_domain
    for (const x of p.autorenew_all !== undefined ? state.domains : [d])
      x.autorenew = effectiveAutorenew(x.autorenew_all, x.autorenew_domain)
    return { results: autoOut(d) }
  },

  'domains.transferlock.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, lockOut),
  'domains.transferlock.get': ({ p, state }) => ({ results: lockOut(findDomain(state, p.domain)) }),
  'domains.transferlock.set': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    d.transfer_lock = p.transfer_lock
    return { results: lockOut(d) }
  },

  'domains.whois.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, whoisOut),
  'domains.whois.get': ({ p, state }) => ({ results: whoisOut(findDomain(state, p.domain)) }),
  'domains.whois.set': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    if (p.contact) d.contact = contactRec(p.contact)
    if (p.whois_proxy !== undefined) d.whoisproxy = p.whois_proxy
    return { results: whoisOut(d) }
  },

  'domains.nameserver.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, nsOut),
  'domains.nameserver.get': ({ p, state }) => ({ results: nsOut(findDomain(state, p.domain)) }),
  'domains.nameserver.set': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    checkDelegation(p.ns)
    d.ns = p.ns.map(canonicalHost)
    return { results: nsOut(d) }
  },

  'domains.dynamicdns.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, ddnsOut),
  'domains.dynamicdns.get': ({ p, state }) => ({ results: ddnsOut(findDomain(state, p.domain)) }),
  'domains.dynamicdns.set': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    if (p.password !== undefined) {
      if (p.password.length < 8 || !/^[\x21-\x7e]+$/.test(p.password))
        throw badRequest('password must be at least 8 printable characters.')
      d.ddnsPassword = p.password
    }
    if (p.dynamicdns === 1 && !d.ddnsPassword) throw badRequest('A password is required to turn on dynamic DNS.')
    d.dynamicdns = p.dynamicdns
    return { results: { ...ref(d), dynamicdns: d.dynamicdns, password: d.ddnsPassword } }
  },

  'domains.dnssec.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, dnssecOut),
  'domains.dnssec.get': ({ p, state }) => ({ results: dnssecOut(findDomain(state, p.domain)) }),
  'domains.dnssec.set': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    for (const r of p.ds_records) rejectIf(checkDs(r))
    d.ds = p.ds_records.map((r) => ({ ...r, digest: r.digest.toUpperCase() }))
    return { results: dnssecOut(d) }
  },

  'domains.privatenameserver.list': ({ p, state, paging }) => {
    const d = findDomain(state, p.domain)
    return paginate(
      d.privateNs.map((n) => ({ ...ref(d), ...n })),
      p,
      paging,
    )
  },
  'domains.privatenameserver.create': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    const host = canonicalHost(p.hostname)
    if (!isHostName(host) || !host.endsWith(`.${d.domainname}`)) {
      throw badRequest(`hostname must be a host name under ${d.domainname}, such as ns1.${d.domainname}.`)
    }
    if (!p.ipv4 && !p.ipv6) throw badRequest('An IPv4 or IPv6 address is required.')
    if (p.ipv4 && !isIPv4Address(p.ipv4)) throw badRequest(`${p.ipv4} is not an IPv4 address.`)
    if (p.ipv6 && !isIPv6Address(p.ipv6)) throw badRequest(`${p.ipv6} is not an IPv6 address.`)
    if (d.privateNs.some((n) => n.hostname === host)) throw badRequest(`${host} already exists.`)
    const n = { hostname: host, ipv4: p.ipv4 ?? '', ipv6: p.ipv6 ?? '' }
    d.privateNs.push(n)
    return { results: { ...ref(d), ...n } }
  },
  'domains.privatenameserver.get': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    const n = d.privateNs.find((x) => x.hostname === p.hostname.toLowerCase())
    if (!n) throw notFound(`Private nameserver ${p.hostname}`)
    return { results: { ...ref(d), ...n } }
  },
  'domains.privatenameserver.delete': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    const i = d.privateNs.findIndex((x) => x.hostname === p.hostname.toLowerCase())
    if (i < 0) throw notFound(`Private nameserver ${p.hostname}`)
    const [n] = d.privateNs.splice(i, 1)
    return { results: { ...ref(d), hostname: n?.hostname ?? p.hostname } }
  },

  'domains.localtransfer.list': ({ p, state, paging }) =>
    paginate(
      ordered(
        state.domains.map((d) => ownerOut(d)),
        p.order,
      ),
      p,
      paging,
    ),
  'domains.localtransfer.get': ({ p, state }) => ({ results: ownerOut(findDomain(state, p.domain)) }),
  'domains.localtransfer.set': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    checkUsername(p.username)
    if (p.username === d.username) throw badRequest('The domain already belongs to that user.')
    return { results: changeOwner(d, p) }
  },
}
