/**
 * One handler per endpoint of the table. The mapped type makes a missing
 * endpoint a compile error, so the sandbox always covers the whole spec.
 * Answers use the wire shapes of the spec (webid and vipid as strings, ttl and
 * dynamicdns as strings on reads, ds_records as a single object).
 */
import type { z } from 'zod'
import type { EndpointName, Endpoints, ServerKind } from '../shared/endpoints/table'
import { RESOURCE_FIELDS } from '../shared/endpoints/decoders'
import {
  DEFAULT_REGISTRAR,
  SERVICE_NAMESERVERS,
  addMonths,
  blankPerson,
  dateTime,
  isoDate,
  type ContactRec,
  type DomainRec,
  type FreeDnsRec,
  type SandboxState,
  type ServerRec,
  type SvcipRec,
} from './state'
import { HOSTNAME, checkContact, checkDs, checkRecords, isIPv4, isIPv6, splitDomain } from './validate'

export class SandboxHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export interface PagingOptions {
  /** How `paging.max` is filled: the total item count, or the number of pages. */
  pagingMax: 'total' | 'pages'
  defaultPageSize: number
  /** The largest `limit` honoured; larger requests are capped to it. */
  maxPageSize: number
}

export interface HandlerCtx<N extends EndpointName> {
  p: z.output<Endpoints[N]['params']>
  state: SandboxState
  now: Date
  paging: PagingOptions
}

export interface HandlerResult {
  results: unknown
  paging?: { max: number; page: number; limit: number }
}

type Handlers = { [N in EndpointName]: (ctx: HandlerCtx<N>) => HandlerResult }

const bad = (message: string) => new SandboxHttpError(400, message)
const notFound = (what: string) => new SandboxHttpError(404, `${what} was not found.`)

// ------------------------------------------------------------ wire shapes

const serverOut = (s: ServerRec) => ({
  webid: String(s.webid),
  webname: s.webname,
  paid: s.paid,
  starttime: s.starttime,
  expirationdate: s.expirationdate,
  autorenew: s.autorenew,
  autorenew_all: s.autorenew_all,
  autorenew_server: s.autorenew_server,
  plan: s.plan,
})
const serverExpOut = (s: ServerRec) => ({ webid: String(s.webid), webname: s.webname, expirationdate: s.expirationdate })
const serverAutoOut = (s: ServerRec) => ({
  webid: String(s.webid),
  webname: s.webname,
  autorenew: s.autorenew,
  autorenew_all: s.autorenew_all,
  autorenew_server: s.autorenew_server,
})
const svcipOut = (v: SvcipRec) => ({
  vipid: String(v.vipid),
  vipname: v.vipname,
  webname: v.webname,
  domainname: v.domainname,
  paid: v.paid,
  starttime: v.starttime,
  expirationdate: v.expirationdate,
  region: v.region,
})
const svcipExpOut = (v: SvcipRec) => ({ vipid: String(v.vipid), vipname: v.vipname, expirationdate: v.expirationdate })
const ref = (d: { domainid: number; domainname: string }) => ({ domainid: d.domainid, domainname: d.domainname })
const domainItemOut = (d: DomainRec) => ({
  domainid: d.domainid,
  domainname: d.domainname,
  registrar: d.registrar,
  expirationdate: d.expirationdate,
  autorenew: d.autorenew,
  autorenew_all: d.autorenew_all,
  autorenew_domain: d.autorenew_domain,
})
const domainOut = (d: DomainRec) => ({
  ...domainItemOut(d),
  status: d.transfer_lock ? 'TRANSFER_LOCK' : '',
  transfer_lock: d.transfer_lock,
  ns: d.ns,
  whoisproxy: String(d.whoisproxy),
  contact: d.contact,
})
const expOut = (d: DomainRec) => ({ ...ref(d), expirationdate: d.expirationdate })
const autoOut = (d: DomainRec) => ({
  ...ref(d),
  autorenew: d.autorenew,
  autorenew_all: d.autorenew_all,
  autorenew_domain: d.autorenew_domain,
})
const lockOut = (d: DomainRec) => ({ ...ref(d), transfer_lock: d.transfer_lock, authcode: d.authcode })
const whoisOut = (d: DomainRec) => ({ ...ref(d), whoisproxy: String(d.whoisproxy), contact: d.contact })
const nsOut = (d: DomainRec) => ({ ...ref(d), ns: d.ns })

/** Which flavour of the service's DNS a domain's nameservers point at. */
function nsFlavour(d: DomainRec): 'svc1' | 'svc11' | 'registrar' | 'other' {
  const first = (d.ns[0] ?? '').toLowerCase().replace(/\.$/, '')
  for (const f of ['svc1', 'svc11', 'registrar'] as const) {
    if ((SERVICE_NAMESERVERS[f] as readonly string[]).includes(first)) return f
  }
  return 'other'
}
const dnsOut = (d: DomainRec) => {
  // Spec: with another company's or the registrar's nameservers, the svc11 content is returned.
  const t = nsFlavour(d) === 'svc1' ? 'svc1' : 'svc11'
  return { ...ref(d), ns_type: t, records: d.dns[t].records, ttl: String(d.dns[t].ttl) }
}
const ddnsOut = (d: DomainRec) => ({ ...ref(d), dynamicdns: String(d.dynamicdns), password: d.ddnsPassword })
/** Responses show ds_records as one DS record object (several as an array, which clients must also read). */
const dnssecOut = (d: DomainRec) => ({ ...ref(d), ds_records: d.ds.length === 1 ? d.ds[0] : d.ds.length === 0 ? {} : d.ds })
const ownerOut = (d: { domainid: number; domainname: string; username: string; ownerMessage: string }, withMessage = false) => ({
  ...ref(d),
  username: d.username,
  ...(withMessage ? { message: d.ownerMessage } : {}),
})
const freeOut = (f: FreeDnsRec) => ({ ...ref(f), records: f.records, ttl: String(f.ttl) })

// ------------------------------------------------------------ helpers

/** One page of a list; `out` maps only the page's items to their wire shape. */
function paginate<T>(
  items: T[],
  p: { limit?: number | undefined; page?: number | undefined },
  opts: PagingOptions,
  out: (item: T) => unknown = (x) => x,
): HandlerResult {
  const limit = Math.min(p.limit ?? opts.defaultPageSize, opts.maxPageSize)
  const page = p.page ?? 1
  const results = items.slice((page - 1) * limit, page * limit).map(out)
  const max = opts.pagingMax === 'total' ? items.length : Math.ceil(items.length / limit)
  return { results, paging: { max, page, limit } }
}

const ORDER_FIELDS = ['domainid', 'domainname', 'expirationdate', 'registrar', 'datetime', 'starttime', 'request_id', 'method', 'path']

/** order: a field name, optionally prefixed with '-' or followed by ' desc' for descending. */
function ordered<T>(items: T[], order: string | undefined): T[] {
  if (!order) return items
  const m = /^(-)?([a-z_]+)(?:\s+(asc|desc))?$/i.exec(order.trim())
  const field = m?.[2]?.toLowerCase()
  if (!m || !field || !ORDER_FIELDS.includes(field)) {
    throw bad(`order must be one of ${ORDER_FIELDS.join(', ')}, optionally prefixed with - for descending.`)
  }
  const desc = m[1] === '-' || m[3]?.toLowerCase() === 'desc'
  const key = (x: T) => (x as Record<string, unknown>)[field]
  return [...items].sort((a, b) => {
    const ka = key(a)
    const kb = key(b)
    const c = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : String(ka ?? '').localeCompare(String(kb ?? ''))
    return desc ? -c : c
  })
}

function findServer(state: SandboxState, kind: ServerKind, webid: number): ServerRec {
  const s = state.servers[kind].find((x) => x.webid === webid)
  if (!s) throw notFound(`Server ${webid}`)
  return s
}
function findSvcip(state: SandboxState, vipid: number): SvcipRec {
  const v = state.svcips.find((x) => x.vipid === vipid)
  if (!v) throw notFound(`Svcip ${vipid}`)
  return v
}
/** {domain} is the numeric id or the name. */
function findByIdOrName<T extends { domainid: number; domainname: string }>(items: T[], domain: string, what: string): T {
  const key = domain.toLowerCase()
  const found = /^\d+$/.test(key) ? items.find((x) => x.domainid === Number(key)) : items.find((x) => x.domainname === key)
  if (!found) throw notFound(`${what} ${domain}`)
  return found
}
const findDomain = (state: SandboxState, domain: string): DomainRec => findByIdOrName(state.domains, domain, 'Domain')
const findFree = (state: SandboxState, domain: string): FreeDnsRec => findByIdOrName(state.freedns, domain, 'Free DNS entry')

function checkNs(ns: string[]): void {
  for (const h of ns) if (!HOSTNAME.test(h)) throw bad(`"${h}" is not a valid nameserver host name.`)
  if (new Set(ns.map((h) => h.toLowerCase())).size !== ns.length) throw bad('The nameserver list has duplicates.')
}

function contactRec(input: Parameters<typeof checkContact>[0]): ContactRec {
  const err = checkContact(input)
  if (err) throw bad(err)
  const fill = (p: Record<string, string | undefined>) => ({ ...blankPerson(), ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) })
  return { registrant: fill(input.registrant), admin: fill(input.admin), tech: fill(input.tech), billing: fill(input.billing) }
}

/** Names that the sandbox treats as registered elsewhere, so search shows both outcomes. */
function takenElsewhere(name: string): boolean {
  return /^(example|google|taken|test)\./.test(name) || name.startsWith('taken')
}

function checkRecordsOrThrow(records: string): void {
  const err = checkRecords(records)
  if (err) throw bad(err)
}

// ------------------------------------------------------------ the handlers

export const handlers: Handlers = {
  'servers.list': ({ p, state, paging }) => paginate(state.servers[p.kind], p, paging, serverOut),
  'servers.create': ({ p, state, now }) => {
    if (!/^[a-z][a-z0-9-]{2,31}$/.test(p.webname)) {
      throw bad('webname must be 3 to 32 characters: lowercase letters, digits and hyphens, starting with a letter.')
    }
    const all = Object.values(state.servers).flat()
    if (all.some((s) => s.webname === p.webname)) throw bad(`The server name ${p.webname} is already taken.`)
    if (p.domainname !== undefined && p.domainname !== '' && !HOSTNAME.test(p.domainname)) throw bad('domainname is not a valid domain name.')
    const s: ServerRec = {
      webid: state.nextId++,
      webname: p.webname,
      paid: '0',
      starttime: isoDate(now),
      expirationdate: addMonths(isoDate(now), 1),
      autorenew: 0,
      autorenew_all: 0,
      autorenew_server: 0,
      plan: 'S10',
      resource: Object.fromEntries(RESOURCE_FIELDS.map((f) => [f, 'default'])) as ServerRec['resource'],
    }
    state.servers[p.kind].push(s)
    return { results: serverOut(s) }
  },
  'servers.get': ({ p, state }) => ({ results: serverOut(findServer(state, p.kind, p.webid)) }),
  'servers.expiration.list': ({ p, state, paging }) => paginate(state.servers[p.kind], p, paging, serverExpOut),
  'servers.expiration.get': ({ p, state }) => ({ results: serverExpOut(findServer(state, p.kind, p.webid)) }),
  'servers.expiration.extend': ({ p, state }) => {
    const s = findServer(state, p.kind, p.webid)
    s.expirationdate = addMonths(s.expirationdate, p.months)
    return { results: serverExpOut(s) }
  },
  'servers.autorenew.list': ({ p, state, paging }) => paginate(state.servers[p.kind], p, paging, serverAutoOut),
  'servers.autorenew.get': ({ p, state }) => ({ results: serverAutoOut(findServer(state, p.kind, p.webid)) }),
  'servers.autorenew.set': ({ p, state }) => {
    const s = findServer(state, p.kind, p.webid)
    if (p.autorenew_all !== undefined) s.autorenew_all = p.autorenew_all
    if (p.autorenew_server !== undefined) s.autorenew_server = p.autorenew_server
    s.autorenew = s.autorenew_all || s.autorenew_server ? 1 : 0
    return { results: serverAutoOut(s) }
  },
  'servers.resource.get': ({ p, state }) => {
    const s = findServer(state, p.kind, p.webid)
    return { results: { webid: String(s.webid), webname: s.webname, ...s.resource } }
  },
  'servers.resource.set': ({ p, state }) => {
    const s = findServer(state, p.kind, p.webid)
    if (p.num > 100_000) throw bad('num is larger than the plan allows.')
    s.resource[p.type] = p.num
    return { results: { webid: String(s.webid), webname: s.webname, [p.type]: p.num } }
  },

  'svcips.list': ({ p, state, paging }) => paginate(state.svcips, p, paging, svcipOut),
  'svcips.register': ({ p, state, now }) => {
    const names = Array.isArray(p.servers) ? p.servers : [p.servers]
    const all = Object.values(state.servers).flat()
    const servers = names.map((n) => {
      const s = all.find((x) => x.webname === n || String(x.webid) === n)
      if (!s) throw bad(`There is no server named ${n} in this account.`)
      return s
    })
    const created = servers.map((s) => {
      const v: SvcipRec = {
        vipid: state.nextId++,
        vipname: `vip${String(state.svcips.length + 1).padStart(3, '0')}`,
        webname: s.webname,
        domainname: '',
        paid: '0',
        starttime: isoDate(now),
        expirationdate: addMonths(isoDate(now), 1),
        region: p.region,
        ssl_on: 0,
        certid: '',
        webid: s.webid,
      }
      state.svcips.push(v)
      return svcipOut(v)
    })
    return { results: Array.isArray(p.servers) ? created : created[0] }
  },
  'svcips.get': ({ p, state }) => ({ results: svcipOut(findSvcip(state, p.vipid)) }),
  'svcips.expiration.list': ({ state }) => ({ results: state.svcips.map(svcipExpOut) }),
  'svcips.expiration.get': ({ p, state }) => ({ results: svcipExpOut(findSvcip(state, p.vipid)) }),
  'svcips.expiration.extend': ({ p, state }) => {
    const v = findSvcip(state, p.vipid)
    v.expirationdate = addMonths(v.expirationdate, p.months)
    return { results: svcipExpOut(v) }
  },
  'svcips.setting.set': ({ p, state }) => {
    const v = findSvcip(state, p.vipid)
    const server = Object.values(state.servers)
      .flat()
      .find((s) => s.webid === p.webid)
    if (!server) throw bad(`There is no server with webid ${p.webid} in this account.`)
    if (!HOSTNAME.test(p.domainname)) throw bad('domainname is not a valid domain name.')
    v.webid = server.webid
    v.webname = server.webname
    v.domainname = p.domainname
    if (p.ssl_on !== undefined) v.ssl_on = p.ssl_on
    if (p.certid !== undefined) v.certid = p.certid
    if (v.ssl_on && !v.certid) throw bad('certid is required when ssl_on is 1.')
    return { results: svcipOut(v) }
  },
  'svcips.cache.delete': ({ p, state }) => {
    const v = findSvcip(state, p.vipid)
    return { results: { vipid: String(v.vipid), vipname: v.vipname } }
  },

  'domains.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, domainItemOut),
  'domains.register': ({ p, state, now }) => {
    const name = `${p.sld}.${p.tld}`.toLowerCase()
    if (!splitDomain(name)) throw bad(`${name} is not a valid domain name.`)
    if (state.domains.some((d) => d.domainname === name) || takenElsewhere(name)) throw bad(`${name} is not available for registration.`)
    if (p.ns.length < 2) throw bad('At least two nameservers are required.')
    checkNs(p.ns)
    const contact = contactRec(p.contact)
    const years = p.years ?? 1
    const d: DomainRec = {
      domainid: state.nextId++,
      domainname: name,
      registrar: p.registrar ?? DEFAULT_REGISTRAR,
      expirationdate: addMonths(isoDate(now), 12 * years),
      autorenew: 0,
      autorenew_all: 0,
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
    if (!splitDomain(name)) throw bad(`${p.domain} is not a valid domain name.`)
    if (state.domains.some((d) => d.domainname === name)) throw bad(`${name} is already in this account.`)
    if (state.transfers.some((t) => t.domainname === name && t.status === 'STAY')) throw bad(`A transfer of ${name} is already in progress.`)
    if (p.ns) checkNs(p.ns)
    if (p.contact) contactRec(p.contact)
    const t = {
      domainid: state.nextId++,
      domainname: name,
      transferorderid: `${p.registrar ?? DEFAULT_REGISTRAR}-${state.nextId.toString(36).toUpperCase()}T`,
      status: 'STAY' as const,
      expirationdate: '',
      failurereason: '',
      starttime: dateTime(now),
    }
    state.transfers.push(t)
    return { results: { domainid: t.domainid, domainname: t.domainname, transferorderid: t.transferorderid } }
  },
  'domains.transfer.get': ({ p, state }) => {
    const t = state.transfers.find(
      (x) => x.transferorderid === p.transferorderid && (x.domainname === p.domain.toLowerCase() || String(x.domainid) === p.domain),
    )
    if (!t) throw notFound(`Transfer ${p.transferorderid}`)
    return { results: { domainid: t.domainid, domainname: t.domainname, transferorderid: t.transferorderid } }
  },
  'domains.transfer.cancel': ({ p, state }) => {
    const t = state.transfers.find(
      (x) => x.transferorderid === p.transferorderid && (x.domainname === p.domain.toLowerCase() || String(x.domainid) === p.domain),
    )
    if (!t) throw notFound(`Transfer ${p.transferorderid}`)
    state.transfers.splice(state.transfers.indexOf(t), 1)
    return { results: { domainid: t.domainid, domainname: t.domainname, transferorderid: t.transferorderid } }
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
    if (p.autorenew_all !== undefined) d.autorenew_all = p.autorenew_all
    if (p.autorenew_domain !== undefined) d.autorenew_domain = p.autorenew_domain
    d.autorenew = d.autorenew_all || d.autorenew_domain ? 1 : 0
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
    if (p.ns.length < 2) throw bad('At least two nameservers are required.')
    checkNs(p.ns)
    d.ns = p.ns.map((h) => h.toLowerCase().replace(/\.$/, ''))
    return { results: nsOut(d) }
  },
  'domains.dns.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, dnsOut),
  'domains.dns.get': ({ p, state }) => ({ results: dnsOut(findDomain(state, p.domain)) }),
  'domains.dns.set': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    if (nsFlavour(d) === 'registrar') throw bad('DNS records cannot be changed while the domain uses the registrar-affiliated nameservers.')
    checkRecordsOrThrow(p.records)
    d.dns[p.ns_type] = { records: p.records, ttl: p.ttl ?? d.dns[p.ns_type].ttl }
    return { results: { ...ref(d), ns_type: p.ns_type, records: p.records, ttl: d.dns[p.ns_type].ttl } }
  },
  'domains.dynamicdns.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, ddnsOut),
  'domains.dynamicdns.get': ({ p, state }) => ({ results: ddnsOut(findDomain(state, p.domain)) }),
  'domains.dynamicdns.set': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    if (p.password !== undefined) {
      if (p.password.length < 8 || !/^[\x21-\x7e]+$/.test(p.password)) throw bad('password must be at least 8 printable characters.')
      d.ddnsPassword = p.password
    }
    if (p.dynamicdns === 1 && !d.ddnsPassword) throw bad('A password is required to turn on dynamic DNS.')
    d.dynamicdns = p.dynamicdns
    return { results: { ...ref(d), dynamicdns: d.dynamicdns, password: d.ddnsPassword } }
  },
  'domains.dnssec.list': ({ p, state, paging }) => paginate(ordered(state.domains, p.order), p, paging, dnssecOut),
  'domains.dnssec.get': ({ p, state }) => ({ results: dnssecOut(findDomain(state, p.domain)) }),
  'domains.dnssec.set': ({ p, state }) => {
    const d = findDomain(state, p.domain)
    for (const r of p.ds_records) {
      const err = checkDs(r)
      if (err) throw bad(err)
    }
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
    const host = p.hostname.toLowerCase().replace(/\.$/, '')
    if (!HOSTNAME.test(host) || !host.endsWith(`.${d.domainname}`)) {
      throw bad(`hostname must be a host name under ${d.domainname}, such as ns1.${d.domainname}.`)
    }
    if (!p.ipv4 && !p.ipv6) throw bad('An IPv4 or IPv6 address is required.')
    if (p.ipv4 && !isIPv4(p.ipv4)) throw bad(`${p.ipv4} is not an IPv4 address.`)
    if (p.ipv6 && !isIPv6(p.ipv6)) throw bad(`${p.ipv6} is not an IPv6 address.`)
    if (d.privateNs.some((n) => n.hostname === host)) throw bad(`${host} already exists.`)
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
    if (!/^[a-z0-9][a-z0-9_-]{1,63}$/i.test(p.username)) throw bad('username is not a valid user name.')
    if (p.username === d.username) throw bad('The domain already belongs to that user.')
    d.username = p.username
    d.ownerMessage = p.message ?? ''
    return { results: ownerOut(d, true) }
  },

  'domainsearch.check': ({ p, state }) => {
    const names = p.domainnames
      .split(',')
      .map((n) => n.trim().toLowerCase())
      .filter(Boolean)
    if (names.length > 50) throw bad('At most 50 domain names can be checked at once.')
    return {
      results: names.map((name) => {
        const parts = splitDomain(name)
        if (!parts) return { domainname: name, sld: '', tld: '', status: '400 Invalid domain name' }
        const taken = state.domains.some((d) => d.domainname === name) || takenElsewhere(name)
        return { domainname: name, ...parts, status: taken ? '211 Domain name not available' : '210 Domain name available' }
      }),
    }
  },

  'freedns.list': ({ p, state, paging }) => paginate(ordered(state.freedns, p.order), p, paging, freeOut),
  'freedns.get': ({ p, state }) => ({ results: freeOut(findFree(state, p.domain)) }),
  'freedns.register': ({ p, state }) => {
    const name = `${p.sld}.${p.tld}`.toLowerCase()
    if (!splitDomain(name)) throw bad(`${name} is not a valid domain name.`)
    if (!['txt', 'email', 'file'].includes(p.auth)) throw bad('auth must be one of txt, email or file.')
    if (state.freedns.some((f) => f.domainname === name)) throw bad(`${name} is already registered for free DNS.`)
    const f: FreeDnsRec = { domainid: state.nextId++, domainname: name, records: '', ttl: 3600, auth: p.auth, username: state.username, ownerMessage: '' }
    state.freedns.push(f)
    return { results: freeOut(f) }
  },
  'freedns.set': ({ p, state }) => {
    const f = findFree(state, p.domain)
    checkRecordsOrThrow(p.records)
    f.records = p.records
    if (p.ttl !== undefined) f.ttl = p.ttl
    return { results: { ...ref(f), records: f.records, ttl: f.ttl } }
  },
  'freedns.remove': ({ p, state }) => {
    const f = findFree(state, p.domain)
    state.freedns.splice(state.freedns.indexOf(f), 1)
    return { results: ref(f) }
  },
  'freedns.localtransfer.list': ({ p, state, paging }) => paginate(ordered(state.freedns.map((f) => ownerOut(f)), p.order), p, paging),
  'freedns.localtransfer.get': ({ p, state }) => ({ results: ownerOut(findFree(state, p.domain)) }),
  'freedns.localtransfer.set': ({ p, state }) => {
    const f = findFree(state, p.domain)
    if (!/^[a-z0-9][a-z0-9_-]{1,63}$/i.test(p.username)) throw bad('username is not a valid user name.')
    f.username = p.username
    f.ownerMessage = p.message ?? ''
    return { results: ownerOut(f, true) }
  },

  'logs.list': ({ p, state, paging }) => {
    // The log is kept in arrival order; datetime has one-second resolution, so date order uses
    // arrival order itself (ties would otherwise come out in any order). Newest first by default.
    const o = p.order?.trim() ?? ''
    const byDate = o === '' || /^-?datetime(\s+(asc|desc))?$/i.test(o)
    const ascending = byDate && o !== '' && !o.startsWith('-') && !/desc$/i.test(o)
    const items = byDate ? (ascending ? state.logs : [...state.logs].reverse()) : ordered(state.logs, o)
    return paginate(items, p, paging)
  },
  'logs.get': ({ p, state }) => {
    const entry = state.logs.find((l) => l.request_id === p.request_id)
    if (!entry) throw notFound(`Log entry ${p.request_id}`)
    return { results: entry }
  },
}
