/**
 * The sandbox's data: what one customer account of the service holds, seeded
 * deterministically so tests and benchmarks see the same account every run.
 */
import { RESOURCE_FIELDS, type ContactPerson, type ResourceField } from '../shared/endpoints/decoders'
import type { ServerKind } from '../shared/endpoints/table'

export interface ServerRec {
  webid: number
  webname: string
  paid: string
  starttime: string
  expirationdate: string
  autorenew: number
  autorenew_all: number
  autorenew_server: number
  plan: string
  resource: Record<ResourceField, 'default' | number>
}

export interface SvcipRec {
  vipid: number
  vipname: string
  webname: string
  domainname: string
  paid: string
  starttime: string
  expirationdate: string
  region: 'JP' | 'WR'
  ssl_on: number
  certid: string
  webid: number
}

export type ContactRec = Record<'registrant' | 'admin' | 'tech' | 'billing', ContactPerson>

export interface DsRec {
  keytag: number
  alg: number
  digesttype: number
  digest: string
}

export interface ZoneRec {
  records: string
  ttl: number
}

export interface DomainRec {
  domainid: number
  domainname: string
  registrar: string
  expirationdate: string
  autorenew: number
  autorenew_all: number
  autorenew_domain: number
  transfer_lock: number
  authcode: string
  ns: string[]
  whoisproxy: number
  contact: ContactRec
  dns: { svc1: ZoneRec; svc11: ZoneRec }
  dynamicdns: number
  ddnsPassword: string
  ds: DsRec[]
  privateNs: { hostname: string; ipv4: string; ipv6: string }[]
  username: string
  ownerMessage: string
}

export interface TransferRec {
  domainid: number
  domainname: string
  transferorderid: string
  status: 'STAY' | 'FAILED'
  expirationdate: string
  failurereason: string
  starttime: string
}

export interface FreeDnsRec {
  domainid: number
  domainname: string
  records: string
  ttl: number
  auth: string
  username: string
  ownerMessage: string
}

export interface LogRec {
  request_id: string
  datetime: string
  method: string
  path: string
  request: string
  response: string
  addr: string
}

export interface SandboxState {
  version: 1
  nextId: number
  username: string
  servers: Record<ServerKind, ServerRec[]>
  svcips: SvcipRec[]
  domains: DomainRec[]
  transfers: TransferRec[]
  freedns: FreeDnsRec[]
  logs: LogRec[]
}

/** The nameservers the service itself runs, per DNS flavour. */
export const SERVICE_NAMESERVERS = {
  svc1: ['ns1.svc1.example.net', 'ns2.svc1.example.net'],
  svc11: ['ns1.svc11.example.net', 'ns2.svc11.example.net'],
  registrar: ['ns1.registrar-dns.example.org', 'ns2.registrar-dns.example.org'],
} as const

export const DEFAULT_REGISTRAR = 'REG1'

export interface SeedOptions {
  /** PRNG seed: the same seed gives the same account. */
  seed?: number
  /** How many domains the account holds. */
  domains?: number
  /** How many servers of each kind the account holds (default 12, 5 and 3). */
  servers?: Partial<Record<ServerKind, number>>
  /** "Today" for relative dates (expiring soon, expired). */
  now?: Date
}

/** mulberry32: small, fast, good enough for seeding. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10)
}

export function addDays(date: string | Date, days: number): string {
  const d = typeof date === 'string' ? new Date(`${date}T00:00:00Z`) : new Date(date)
  d.setUTCDate(d.getUTCDate() + days)
  return isoDate(d)
}

export function addMonths(date: string, months: number): string {
  const d = new Date(`${date || isoDate(new Date())}T00:00:00Z`)
  d.setUTCMonth(d.getUTCMonth() + months)
  return isoDate(d)
}

export function dateTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ')
}

const WORDS = [
  'aurora', 'basil', 'cedar', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper', 'kestrel', 'lumen',
  'maple', 'nimbus', 'onyx', 'pepper', 'quartz', 'raven', 'sierra', 'tundra', 'umber', 'violet', 'willow', 'xenon',
  'yarrow', 'zephyr', 'atlas', 'beacon', 'coral', 'dune', 'echo', 'falcon', 'glacier', 'hollow', 'iris', 'jade',
]
const TLDS = ['com', 'net', 'jp', 'org', 'info', 'co.jp', 'biz', 'shop']
const PLANS = ['S10', 'S20', 'S30', 'Business', 'Premium']
const FIRST = ['Taro', 'Hanako', 'Ken', 'Yuki', 'Alice', 'Bob', 'Carol', 'Dan']
const LAST = ['Yamada', 'Sato', 'Suzuki', 'Tanaka', 'Smith', 'Jones', 'Brown', 'Miller']

export function blankPerson(): ContactPerson {
  return {
    firstname: '',
    lastname: '',
    organization: '',
    country: '',
    postalcode: '',
    state: '',
    city: '',
    address1: '',
    address2: '',
    phone: '',
    fax: '',
  }
}

function person(rnd: () => number): ContactPerson {
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)] as T
  return {
    ...blankPerson(),
    firstname: pick(FIRST),
    lastname: pick(LAST),
    organization: `${pick(WORDS)} Works`.replace(/^./, (c) => c.toUpperCase()),
    country: 'JP',
    postalcode: `${100 + Math.floor(rnd() * 899)}-${1000 + Math.floor(rnd() * 8999)}`,
    state: 'Tokyo',
    city: 'Chiyoda',
    address1: `${1 + Math.floor(rnd() * 9)}-${1 + Math.floor(rnd() * 20)} Marunouchi`,
    phone: `+81.3${String(10000000 + Math.floor(rnd() * 89999999))}`,
  }
}

function sampleRecords(name: string, rnd: () => number, count: number): string {
  const octet = () => 1 + Math.floor(rnd() * 254)
  const lines = [
    `a @ 192.0.2.${octet()}`,
    `a www 192.0.2.${octet()}`,
    `aaaa @ 2001:db8::${octet().toString(16)}`,
    `mx mail.${name}. 10`,
    `a mail 198.51.100.${octet()}`,
    `txt @ v=spf1 include:_spf.${name} -all`,
    `cname docs www.${name}.`,
  ]
  for (let i = lines.length; i < count; i++) lines.push(`a host${i} 203.0.113.${octet()}`)
  return lines.slice(0, Math.max(count, 3)).join('\n')
}

/** Seeds a whole account. Deterministic for a given seed, domain count and date. */
export function seedState(opts: SeedOptions = {}): SandboxState {
  const rnd = prng(opts.seed ?? 42)
  const now = opts.now ?? new Date()
  const today = isoDate(now)
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)] as T
  let nextId = 1000

  // Expiration spread: some expired, some within 30 days, most later.
  const expiry = (i: number) => {
    const bucket = i % 10
    if (bucket === 0) return addDays(today, -Math.floor(rnd() * 20) - 1)
    if (bucket === 1 || bucket === 2) return addDays(today, Math.floor(rnd() * 29) + 1)
    return addDays(today, 31 + Math.floor(rnd() * 700))
  }

  const resource = (): Record<ResourceField, 'default' | number> =>
    Object.fromEntries(RESOURCE_FIELDS.map((f) => [f, rnd() < 0.8 ? 'default' : 1 + Math.floor(rnd() * 50)])) as Record<
      ResourceField,
      'default' | number
    >

  const serverCounts: Record<ServerKind, number> = { a: 12, b: 5, c: 3, ...opts.servers }
  const servers = { a: [], b: [], c: [] } as Record<ServerKind, ServerRec[]>
  for (const kind of ['a', 'b', 'c'] as const) {
    for (let i = 0; i < serverCounts[kind]; i++) {
      servers[kind].push({
        webid: nextId++,
        webname: `${kind}${pick(WORDS)}${i + 1}`,
        paid: rnd() < 0.9 ? '1' : '0',
        starttime: addDays(today, -400 - Math.floor(rnd() * 800)),
        expirationdate: expiry(i),
        autorenew: rnd() < 0.5 ? 1 : 0,
        autorenew_all: 0,
        autorenew_server: rnd() < 0.5 ? 1 : 0,
        plan: pick(PLANS),
        resource: resource(),
      })
    }
  }

  const domainCount = opts.domains ?? 60
  const domains: DomainRec[] = []
  const used = new Set<string>()
  for (let i = 0; i < domainCount; i++) {
    let name = ''
    for (let tries = 0; !name || used.has(name); tries++) {
      const sld = tries < 3 ? `${pick(WORDS)}${pick(WORDS)}` : `${pick(WORDS)}${i}-${tries}`
      name = `${sld}.${pick(TLDS)}`
    }
    used.add(name)
    const registrant = person(rnd)
    const nsFlavour = i % 7 === 3 ? 'other' : i % 5 === 0 ? 'svc11' : 'svc1'
    const ns =
      nsFlavour === 'other' ? [`ns1.${pick(WORDS)}-dns.example.com`, `ns2.${pick(WORDS)}-dns.example.com`] : [...SERVICE_NAMESERVERS[nsFlavour]]
    domains.push({
      domainid: nextId++,
      domainname: name,
      registrar: DEFAULT_REGISTRAR,
      expirationdate: expiry(i),
      autorenew: rnd() < 0.5 ? 1 : 0,
      autorenew_all: 0,
      autorenew_domain: rnd() < 0.5 ? 1 : 0,
      transfer_lock: rnd() < 0.7 ? 1 : 0,
      authcode: Array.from({ length: 12 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[Math.floor(rnd() * 32)]).join(''),
      ns,
      whoisproxy: rnd() < 0.6 ? 1 : 0,
      contact: { registrant, admin: { ...registrant }, tech: { ...registrant }, billing: { ...registrant } },
      dns: {
        svc1: { records: sampleRecords(name, rnd, 4 + Math.floor(rnd() * 8)), ttl: 3600 },
        svc11: { records: sampleRecords(name, rnd, 3), ttl: 3600 },
      },
      dynamicdns: 0,
      ddnsPassword: '',
      ds: i % 9 === 0 ? [{ keytag: 1000 + i, alg: 13, digesttype: 2, digest: 'A'.repeat(64) }] : [],
      privateNs: i % 11 === 0 ? [{ hostname: `ns1.${name}`, ipv4: `192.0.2.${(i % 250) + 1}`, ipv6: '' }] : [],
      username: 'demo-user',
      ownerMessage: '',
    })
  }

  const svcips: SvcipRec[] = []
  for (let i = 0; i < 6; i++) {
    const server = servers.a[i % servers.a.length] as ServerRec
    svcips.push({
      vipid: nextId++,
      vipname: `vip${String(i + 1).padStart(3, '0')}`,
      webname: server.webname,
      domainname: domains[i]?.domainname ?? '',
      paid: '1',
      starttime: addDays(today, -300),
      expirationdate: expiry(i + 3),
      region: i % 3 === 2 ? 'WR' : 'JP',
      ssl_on: i % 2,
      certid: i % 2 ? `cert-${100 + i}` : '',
      webid: server.webid,
    })
  }

  const transfers: TransferRec[] = []
  for (let i = 0; i < Math.min(5, domains.length); i++) {
    const d = domains[domains.length - 1 - i] as DomainRec
    transfers.push({
      domainid: d.domainid,
      domainname: d.domainname,
      transferorderid: `REG1-${(100000 + i * 7919).toString(36).toUpperCase()}`,
      status: i % 2 ? 'FAILED' : 'STAY',
      expirationdate: i % 2 ? '' : d.expirationdate,
      failurereason: i % 2 ? 'The transfer code did not match.' : '',
      starttime: `${addDays(today, -i - 1)} 10:${String(10 + i).padStart(2, '0')}:00`,
    })
  }

  const freedns: FreeDnsRec[] = []
  for (let i = 0; i < 8; i++) {
    const name = `${pick(WORDS)}-free${i}.${pick(TLDS)}`
    freedns.push({
      domainid: nextId++,
      domainname: name,
      records: sampleRecords(name, rnd, 3 + (i % 4)),
      ttl: 3600,
      auth: 'txt',
      username: 'demo-user',
      ownerMessage: '',
    })
  }

  return { version: 1, nextId, username: 'demo-user', servers, svcips, domains, transfers, freedns, logs: [] }
}
