/**
 * DNS servers on loopback for the tests, over UDP, their messages read and written by dns-packet
 * (no DNS wire code of ours). Zones are in the service's records form (`a www 192.0.2.1`,
 * `mx mail.example.net. 10`, `cname w other.example.`), read again at every question, so a test
 * can make one nameserver lag or rewrite.
 *
 * - `startAuthoritativeDns(txtOf)` answers TXT questions only, from what `txtOf` says a name holds.
 * - `startZoneDns(zones)` serves whole zones as their own nameservers do (never recursing): what an
 *   ACME CA (pebble) and client (lego) ask.
 * - `startRecordsDns(zones)` answers A, AAAA, TXT, CNAME and MX for the health checks: as a zone's
 *   nameserver (authoritative, names outside its zones REFUSED) or, with `resolver: true`, as a
 *   recursive resolver answers (A and AAAA follow CNAMEs across its zones, recursion available).
 */
import { domainToASCII } from 'node:url'
import { createSocket } from 'node:dgram'
import * as packet from 'dns-packet'

const NXDOMAIN = 3
const REFUSED = 5

export interface LoopbackDns {
  /** `127.0.0.1:<port>`, as a resolver's setServers takes it. */
  address: string
  port: number
  /** The questions received, oldest first, as the server that made it records them. */
  asked: string[]
  close(): Promise<void>
}

interface Reply {
  rcode: number
  answers: packet.Answer[]
  authorities?: packet.Answer[]
}

interface ServeOptions {
  /** What `asked` keeps of a question (name in lower case), or undefined to keep nothing. */
  record(question: packet.Question, name: string): string | undefined
  /** Answer as a recursive resolver (RA set) rather than as the zone's own server (AA set). */
  resolver?: boolean
  /** Questions received and never answered (a server that drops them): `asked` still keeps them. */
  unanswered?: (question: packet.Question, name: string) => boolean
  /** Answer each question this long after it came (a slow server), rather than at once. */
  holdMs?: number
}

/** Listens on loopback and answers each question with what `answer` says. */
async function serve(
  answer: (question: packet.Question, name: string) => Reply,
  opts: ServeOptions,
): Promise<LoopbackDns> {
  const socket = createSocket('udp4')
  const asked: string[] = []
  const held = new Set<NodeJS.Timeout>()
  socket.on('message', (message, peer) => {
    let query: packet.DecodedPacket
    try {
      query = packet.decode(message)
    } catch {
      return
    }
    const question = query.questions?.[0]
    if (!question) return
    const name = question.name.toLowerCase().replace(/\.$/, '')
    const kept = opts.record(question, name)
    if (kept !== undefined) asked.push(kept)
    if (opts.unanswered?.(question, name)) return
    const reply = answer(question, name)
    const encoded = packet.encode({
      type: 'response',
      id: query.id,
      flags:
        (reply.rcode === REFUSED ? 0 : opts.resolver ? packet.RECURSION_AVAILABLE : packet.AUTHORITATIVE_ANSWER) |
        reply.rcode,
      questions: [question],
      answers: reply.answers,
      authorities: reply.authorities ?? [],
    })
    if (opts.holdMs === undefined) {
      socket.send(encoded, peer.port, peer.address)
      return
    }
    const timer = setTimeout(() => {
      held.delete(timer)
      socket.send(encoded, peer.port, peer.address)
    }, opts.holdMs)
    held.add(timer)
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject)
    socket.bind(0, '127.0.0.1', () => resolve())
  })
  const { port } = socket.address()
  return {
    address: `127.0.0.1:${port}`,
    port,
    asked,
    close: () => {
      // Answers still held are never sent: the socket is gone.
      for (const timer of held) clearTimeout(timer)
      held.clear()
      return new Promise<void>((resolve) => socket.close(() => resolve()))
    },
  }
}

/**
 * A TXT value as the character-strings of its record: at most 255 bytes each, as nameservers
 * split a longer value (a DKIM key); one longer string would make the message malformed.
 */
function txtStrings(value: string): Buffer[] {
  const bytes = Buffer.from(value, 'utf8')
  const strings: Buffer[] = []
  for (let at = 0; at < bytes.length; at += 255) strings.push(bytes.subarray(at, at + 255))
  return strings.length > 0 ? strings : [Buffer.alloc(0)]
}

/** `asked` of the ACME servers: the names of TXT questions. */
const txtNames = (question: packet.Question, name: string) => (question.type === 'TXT' ? name : undefined)

/**
 * The zone of `zones` a name is in (the longest match), its domain in lower case without the final
 * dot. One pass that copies only the match: it runs at every question, over every zone a bench
 * serves (a real nameserver finds a zone by an index; this one must not cost a copy of each).
 */
function zoneOf<Z extends { domain: string }>(zones: Z[], name: string): Z | undefined {
  let best: Z | undefined
  let bestDomain = ''
  for (const z of zones) {
    const lower = z.domain.toLowerCase()
    const domain = lower.endsWith('.') ? lower.slice(0, -1) : lower
    if (domain.length <= bestDomain.length && best !== undefined) continue
    const inside =
      name === domain ||
      (name.length > domain.length && name.endsWith(domain) && name[name.length - domain.length - 1] === '.')
    if (inside) {
      best = z
      bestDomain = domain
    }
  }
  return best === undefined ? undefined : { ...best, domain: bestDomain }
}

/** TXT answers from `txtOf`: an authoritative answer with the values, or NXDOMAIN when it holds none. */
export function startAuthoritativeDns(txtOf: (name: string) => string[]): Promise<LoopbackDns> {
  return serve(
    (question, name) => {
      const values = question.type === 'TXT' ? txtOf(name) : []
      return {
        rcode: values.length === 0 ? NXDOMAIN : 0,
        answers: values.map((v) => ({
          type: 'TXT' as const,
          class: 'IN' as const,
          name: question.name,
          ttl: 60,
          data: txtStrings(v),
        })),
      }
    },
    { record: txtNames },
  )
}

/**
 * The full name a host of the records form stands for: `@`, relative (`_acme-challenge.www`) or
 * full with the final dot.
 */
/** A name as DNS carries it: full, lower-case, without the final dot, each non-ASCII label in punycode. */
function fullName(host: string, domain: string): string {
  const h = host.toLowerCase()
  const named = h === '@' ? domain : h.endsWith('.') ? h.slice(0, -1) : `${h}.${domain}`
  return domainToASCII(named) || named
}

/**
 * The TXT values a zone's records text (the service's records form) holds at a name: hosts `@`,
 * relative (`_acme-challenge.www`) or full with the final dot; values with or without quotes.
 */
export function txtInRecords(records: string, domain: string, name: string): string[] {
  return valuesInRecords(records, domain, name, 'TXT').map((v) => v.replace(/^"(.*)"$/, '$1'))
}

/** The values of one type a records text holds at a name (each line a type, a host, then a value). */
function valuesInRecords(records: string, domain: string, name: string, type: string): string[] {
  const values: string[] = []
  for (const line of records.split('\n')) {
    const m = /^(\S+)\s+(\S+)\s+(.*)$/.exec(line.trim())
    if (!m || m[1]!.toUpperCase() !== type) continue
    if (fullName(m[2]!, domain) === name) values.push(m[3]!.trim())
  }
  return values
}

/** Every name a records text has a line at (the apex always exists). */
function namesInRecords(records: string, domain: string): Set<string> {
  const names = new Set([domain])
  for (const line of records.split('\n')) {
    const m = /^\S+\s+(\S+)\s/.exec(line.trim())
    if (m) names.add(fullName(m[1]!, domain))
  }
  return names
}

/** A zone as the service holds it: its name, its nameservers (the domain's delegation) and its records text. */
export interface ServedZone {
  domain: string
  ns: string[]
  records: string
}

/**
 * An authoritative server for the zones `zones()` gives, asked again for every question, so it
 * answers from the zone as the service holds it at that moment. It answers SOA and NS at the
 * apex (from the delegation), TXT, A and AAAA from the records text, and an empty answer (with
 * the SOA, as a negative answer carries) for a type a name does not hold, CAA included: no CAA
 * record, so any CA may issue. A name under the zone with no line at all is NXDOMAIN, unless a
 * deeper name exists (an empty non-terminal). A name in no zone it serves is REFUSED.
 */
export function startZoneDns(zones: () => ServedZone[]): Promise<LoopbackDns> {
  return serve(
    (question, name) => {
      const zone = zoneOf(zones(), name)
      if (!zone) return { rcode: REFUSED, answers: [] }
      const soa: packet.Answer = {
        type: 'SOA',
        class: 'IN',
        name: zone.domain,
        ttl: 60,
        data: {
          mname: zone.ns[0] ?? zone.domain,
          rname: `hostmaster.${zone.domain}`,
          serial: 1,
          refresh: 3600,
          retry: 600,
          expire: 86400,
          minimum: 60,
        },
      }
      const answers: packet.Answer[] = []
      if (name === zone.domain && question.type === 'SOA') answers.push(soa)
      if (name === zone.domain && question.type === 'NS')
        for (const ns of zone.ns)
          answers.push({ type: 'NS', class: 'IN', name: zone.domain, ttl: 60, data: ns.replace(/\.$/, '') })
      if (question.type === 'TXT')
        for (const v of txtInRecords(zone.records, zone.domain, name))
          answers.push({ type: 'TXT', class: 'IN', name: question.name, ttl: 60, data: txtStrings(v) })
      if (question.type === 'A' || question.type === 'AAAA')
        for (const v of valuesInRecords(zone.records, zone.domain, name, question.type))
          answers.push({ type: question.type, class: 'IN', name: question.name, ttl: 60, data: v })
      if (answers.length > 0) return { rcode: 0, answers }
      const exists = [...namesInRecords(zone.records, zone.domain)].some((n) => n === name || n.endsWith(`.${name}`))
      return { rcode: exists ? 0 : NXDOMAIN, answers: [], authorities: [soa] }
    },
    { record: txtNames },
  )
}

/** A zone for `startRecordsDns`: its name and its records text. */
export interface Zone {
  domain: string
  records: string
}

interface Line {
  type: string
  name: string
  value: string
}

/** Lines already read, by domain and records text: the same text reads the same, and a bench asks each zone many times. */
const linesRead = new Map<string, Line[]>()
const LINES_KEPT = 10_000

/** A records text as lines of a type, a full name and a value (an MX is the zone's own: `mx <mail server> <priority>`). */
function linesOf(z: Zone): Line[] {
  const key = `${z.domain}\n${z.records}`
  const read = linesRead.get(key)
  if (read) return read
  if (linesRead.size >= LINES_KEPT) linesRead.clear()
  const lines = readLines(z)
  linesRead.set(key, lines)
  return lines
}

function readLines(z: Zone): Line[] {
  const out: Line[] = []
  for (const raw of z.records.split('\n')) {
    const [typeWord, host, ...value] = raw.trim().split(/\s+/)
    if (typeWord === undefined || host === undefined || value.length === 0) continue
    const type = typeWord.toUpperCase()
    // `mx @ <server> <priority>` is the zone's own MX too.
    if (type === 'MX' && host === '@' && value.length === 2)
      out.push({ type, name: z.domain, value: `${value[1]} ${fullName(value[0] ?? '', z.domain)}` })
    else if (type === 'MX') out.push({ type, name: z.domain, value: `${value[0]} ${fullName(host, z.domain)}` })
    else out.push({ type, name: fullName(host, z.domain), value: value.join(' ') })
  }
  return out
}

/** Finds a name's zone (the longest match) by its domain and its parents': a nameserver's index, for zones that never change. */
function zoneIndex(zones: Zone[]): (name: string) => Zone | undefined {
  const byDomain = new Map<string, Zone>()
  for (const z of zones) {
    const domain = z.domain.toLowerCase().replace(/\.$/, '')
    byDomain.set(domain, { ...z, domain })
  }
  return (name) => {
    for (let at = 0, n = name; at >= 0; at = n.indexOf('.'), n = n.slice(at + 1)) {
      const zone = byDomain.get(n)
      if (zone) return zone
    }
    return undefined
  }
}

export interface RecordsDnsOptions {
  /** Answer as a recursive resolver does (follow CNAMEs across the zones, recursion available). */
  resolver?: boolean
  /**
   * The zones never change: read once and indexed by domain, as a real nameserver finds a zone
   * (the bench serves a thousand). Otherwise they are read again at every question.
   */
  unchanging?: boolean
  /** Questions it receives and never answers (as a resolver that drops them): the asker's timeout must end them. */
  unanswered?: (type: string, name: string) => boolean
  /** Answer every question this long after it came (a slow resolver): an asker with a shorter timeout gives up first. */
  holdMs?: number
}

/** A server for the health checks; `asked` keeps every question as `TYPE name`. */
export function startRecordsDns(zones: () => Zone[], opts: RecordsDnsOptions = {}): Promise<LoopbackDns> {
  const indexed = opts.unchanging ? zoneIndex(zones()) : undefined
  const answer = (q: packet.Question, name: string, depth: number): Reply => {
    const zone = indexed ? indexed(name) : zoneOf(zones(), name)
    if (!zone) return { rcode: opts.resolver ? NXDOMAIN : REFUSED, answers: [] }
    const lines = linesOf(zone)
    const here = lines.filter((l) => l.name === name)
    const answers: packet.Answer[] = []
    const base = { class: 'IN' as const, name, ttl: 60 }
    const cname = here.find((l) => l.type === 'CNAME')
    if (cname && q.type !== 'CNAME') {
      const target = fullName(cname.value, zone.domain)
      answers.push({ ...base, type: 'CNAME', data: target })
      if (opts.resolver && depth < 8) answers.push(...answer(q, target, depth + 1).answers)
      return { rcode: 0, answers }
    }
    for (const l of here) {
      if (l.type !== q.type) continue
      if (l.type === 'A' || l.type === 'AAAA') answers.push({ ...base, type: l.type, data: l.value })
      if (l.type === 'CNAME') answers.push({ ...base, type: 'CNAME', data: fullName(l.value, zone.domain) })
      if (l.type === 'TXT') answers.push({ ...base, type: 'TXT', data: txtStrings(l.value.replace(/^"(.*)"$/, '$1')) })
      if (l.type === 'MX') {
        const [priority = '', exchange = ''] = l.value.split(' ')
        answers.push({ ...base, type: 'MX', data: { preference: Number(priority), exchange } })
      }
    }
    const exists = name === zone.domain || lines.some((l) => l.name === name || l.name.endsWith(`.${name}`))
    return { rcode: answers.length > 0 || exists ? 0 : NXDOMAIN, answers }
  }
  const unanswered = opts.unanswered
  return serve((q, name) => answer(q, name, 0), {
    record: (q, name) => `${q.type} ${name}`,
    resolver: opts.resolver,
    unanswered: unanswered ? (q, name) => unanswered(q.type, name) : undefined,
    holdMs: opts.holdMs,
  })
}
