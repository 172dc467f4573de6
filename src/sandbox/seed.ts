/**
 * The account the sandbox starts with, seeded deterministically so tests and benchmarks
 * see the same account every run.
 */
import { AUTORENEW_ON, effectiveAutorenew } from './autorenew'
import { SERVER_KINDS, type ServerKind } from '@shared/service/constants'
import { RESOURCE_FIELDS } from '@shared/service/spec-words'
import { addDays, isoDate } from './dates'
import { fromKeys } from './from-keys'
import { SERVICE_NAMESERVERS } from './nameservers'
import {
  DEFAULT_REGISTRAR,
  blankPerson,
  type ContactPerson,
  type DomainRec,
  type FreeDnsRec,
  type SandboxState,
  type ServerRec,
  type SvcipRec,
  type TransferRec,
} from './state'

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

/** A value that once came from a draw: the draw is still made, so every later seeded value stays as it was. */
function skipDraw<T>(rnd: () => number, value: T): T {
  rnd()
  return value
}

/** mulberry32: small, fast, good enough for seeding. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = [
  'aurora',
  'basil',
  'cedar',
  'delta',
  'ember',
  'fjord',
  'garnet',
  'harbor',
  'indigo',
  'juniper',
  'kestrel',
  'lumen',
  'maple',
  'nimbus',
  'onyx',
  'pepper',
  'quartz',
  'raven',
  'sierra',
  'tundra',
  'umber',
  'violet',
  'willow',
  'xenon',
  'yarrow',
  'zephyr',
  'atlas',
  'beacon',
  'coral',
  'dune',
  'echo',
  'falcon',
  'glacier',
  'hollow',
  'iris',
  'jade',
]
const TLDS = ['com', 'net', 'jp', 'org', 'info', 'co.jp', 'biz', 'shop']
const PLANS = ['S10', 'S20', 'S30', 'Business', 'Premium']
const FIRST = ['Taro', 'Hanako', 'Ken', 'Yuki', 'Alice', 'Bob', 'Carol', 'Dan']
const LAST = ['Yamada', 'Sato', 'Suzuki', 'Tanaka', 'Smith', 'Jones', 'Brown', 'Miller']

/** The item at `at` (counted round) of a list the seed knows is not empty. */
function itemAt<T>(a: readonly T[], at: number): T {
  const item = a[at % a.length]
  if (item === undefined) throw new Error('the seed picked from an empty list')
  return item
}

function person(rnd: () => number): ContactPerson {
  const pick = <T>(a: readonly T[]) => itemAt(a, Math.floor(rnd() * a.length))
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

/** A zone as the service stores it, with its short MX form (`mx <mail server> <priority>`). */
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

/**
 * Lines the live service is recorded to hold and serve (tests/fixtures/live: a line stored twice,
 * a TXT for an ACME challenge; its record syntax page: `mx @ 10` for the domain itself, `mx @
 * <server> <priority>`), and what zones commonly hold (a 2048-bit DKIM key over 255 bytes, SPF in
 * quotes, a CNAME target without its final dot, SRV, CAA, a wildcard, an IDN host). Given to a few
 * zones so that exports, imports and plans meet them: no draw is made for them.
 */
function trickyLines(): string[] {
  const dkim = `v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${'q8Zx3kLmN0pR7sT2uV5wY9aB'.repeat(14)}IDAQAB`
  return [
    `txt default._domainkey ${dkim}`,
    'txt list "v=spf1 include:_spf.example.net ~all"',
    'cname shop shops.example-cdn.net',
    'mx @ 20',
    'mx @ backup.example.net. 30',
    'srv _sip._tcp 10 5 5060 sip.example.net.',
    'caa @ 0 issue "letsencrypt.org"',
    'a * 192.0.2.80',
    'a 日本語 192.0.2.81',
    'cname docs2 docs.example.com.',
    'cname docs2 docs.example.com.',
    'txt _acme-challenge.fqdn challengetoken',
    'txt quote say "hello" to café',
  ]
}

/** Every tenth zone from the eighth on holds the tricky lines too (not the first zones, which tests and screenshots open). */
const withTricky = (i: number, records: string) => (i % 10 === 7 ? [records, ...trickyLines()].join('\n') : records)

/** Seeds a whole account. Deterministic for a given seed, domain count and date. */
export function seedState(opts: SeedOptions = {}): SandboxState {
  const rnd = prng(opts.seed ?? 42)
  const now = opts.now ?? new Date()
  const today = isoDate(now)
  const pick = <T>(a: readonly T[]) => itemAt(a, Math.floor(rnd() * a.length))
  let nextId = 1000

  // Expiration spread: some expired, some within 30 days, most later.
  const expiry = (i: number) => {
    const bucket = i % 10
    if (bucket === 0) return addDays(today, -Math.floor(rnd() * 20) - 1)
    if (bucket === 1 || bucket === 2) return addDays(today, Math.floor(rnd() * 29) + 1)
    return addDays(today, 31 + Math.floor(rnd() * 700))
  }

  const resource = () =>
    fromKeys(RESOURCE_FIELDS, (): 'default' | number => (rnd() < 0.8 ? 'default' : 1 + Math.floor(rnd() * 50)))

  const serverCounts: Record<ServerKind, number> = { a: 12, b: 5, c: 3, ...opts.servers }
  const servers = fromKeys(SERVER_KINDS, (): ServerRec[] => [])
  for (const kind of SERVER_KINDS) {
    for (let i = 0; i < serverCounts[kind]; i++) {
      servers[kind].push({
        webid: nextId++,
        webname: `${kind}${pick(WORDS)}${i + 1}`,
        paid: rnd() < 0.9 ? '1' : '0',
        starttime: addDays(today, -400 - Math.floor(rnd() * 800)),
        expirationdate: expiry(i),
        autorenew: skipDraw(rnd, 0),
        autorenew_all: 0,
        autorenew_server: rnd() < 0.5 ? AUTORENEW_ON : 0,
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
    const flavour = i % 7 === 3 ? 'other' : i % 5 === 0 ? 'svc11' : 'svc1'
    const ns =
      flavour === 'other'
        ? [`ns1.${pick(WORDS)}-dns.example.com`, `ns2.${pick(WORDS)}-dns.example.com`]
        : [...SERVICE_NAMESERVERS[flavour]]
    domains.push({
      domainid: nextId++,
      domainname: name,
      registrar: DEFAULT_REGISTRAR,
      expirationdate: expiry(i),
      autorenew: skipDraw(rnd, 0),
      autorenew_all: 0,
      autorenew_domain: rnd() < 0.5 ? AUTORENEW_ON : 0,
      transfer_lock: rnd() < 0.7 ? 1 : 0,
      authcode: Array.from({ length: 12 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[Math.floor(rnd() * 32)]).join(''),
      ns,
      whoisproxy: rnd() < 0.6 ? 1 : 0,
      contact: { registrant, admin: { ...registrant }, tech: { ...registrant }, billing: { ...registrant } },
      dns: {
        svc1: { records: withTricky(i, sampleRecords(name, rnd, 4 + Math.floor(rnd() * 8))), ttl: 3600 },
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
    const server = itemAt(servers.a, i)
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
    const d = itemAt(domains, domains.length - 1 - i)
    transfers.push({
      domainid: d.domainid,
      domainname: d.domainname,
      transferorderid: `${DEFAULT_REGISTRAR}-${(100000 + i * 7919).toString(36).toUpperCase()}`,
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

  // What is in force follows the two settings, as on the live service.
  for (const x of domains) x.autorenew = effectiveAutorenew(x.autorenew_all, x.autorenew_domain)
  for (const kind of SERVER_KINDS)
    for (const x of servers[kind]) x.autorenew = effectiveAutorenew(x.autorenew_all, x.autorenew_server)
  return { version: 1, nextId, username: 'demo-user', servers, svcips, domains, transfers, freedns, logs: [] }
}
