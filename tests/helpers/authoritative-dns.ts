/**
 * Authoritative nameservers on loopback for the tests, over UDP, their messages read and written
 * by dns-packet (no DNS wire code of ours). They never recurse (RA clear), as the zone's own
 * nameservers do not.
 *
 * - `startAuthoritativeDns(txtOf)` answers TXT questions only, from what `txtOf` says a name holds.
 * - `startZoneDns(zones)` serves whole zones in the service's records form, read again at every
 *   question (the sandbox's zone as it is now): what an ACME CA (pebble) and client (lego) ask.
 */
import { createSocket } from 'node:dgram'
import * as packet from 'dns-packet'

const NXDOMAIN = 3
const REFUSED = 5

export interface AuthoritativeDns {
  /** `127.0.0.1:<port>`, as a resolver's setServers takes it. */
  address: string
  port: number
  /** TXT questions received, oldest first (name, lower case). */
  asked: string[]
  close(): Promise<void>
}

interface Reply {
  rcode: number
  answers: packet.Answer[]
  authorities?: packet.Answer[]
}

/** Listens on loopback and answers each question with what `answer` says. */
async function serve(answer: (question: packet.Question, name: string) => Reply): Promise<AuthoritativeDns> {
  const socket = createSocket('udp4')
  const asked: string[] = []
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
    if (question.type === 'TXT') asked.push(name)
    const reply = answer(question, name)
    const encoded = packet.encode({
      type: 'response',
      id: query.id,
      flags: (reply.rcode === REFUSED ? 0 : packet.AUTHORITATIVE_ANSWER) | reply.rcode,
      questions: [question],
      answers: reply.answers,
      authorities: reply.authorities ?? [],
    })
    socket.send(encoded, peer.port, peer.address)
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
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  }
}

/** TXT answers from `txtOf`: an authoritative answer with the values, or NXDOMAIN when it holds none. */
export function startAuthoritativeDns(txtOf: (name: string) => string[]): Promise<AuthoritativeDns> {
  return serve((question, name) => {
    const values = question.type === 'TXT' ? txtOf(name) : []
    return {
      rcode: values.length === 0 ? NXDOMAIN : 0,
      answers: values.map((v) => ({ type: 'TXT' as const, class: 'IN' as const, name: question.name, ttl: 60, data: [v] })),
    }
  })
}

/**
 * The full name a host of the records form stands for: `@`, relative (`_acme-challenge.www`) or
 * full with the final dot.
 */
function fullName(host: string, domain: string): string {
  const h = host.toLowerCase()
  return h === '@' ? domain : h.endsWith('.') ? h.slice(0, -1) : `${h}.${domain}`
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
export function startZoneDns(zones: () => ServedZone[]): Promise<AuthoritativeDns> {
  return serve((question, name) => {
    const zone = zones()
      .map((z) => ({ ...z, domain: z.domain.toLowerCase().replace(/\.$/, '') }))
      .filter((z) => name === z.domain || name.endsWith(`.${z.domain}`))
      .sort((a, b) => b.domain.length - a.domain.length)[0]
    if (!zone) return { rcode: REFUSED, answers: [] }
    const soa: packet.Answer = {
      type: 'SOA',
      class: 'IN',
      name: zone.domain,
      ttl: 60,
      data: { mname: zone.ns[0] ?? zone.domain, rname: `hostmaster.${zone.domain}`, serial: 1, refresh: 3600, retry: 600, expire: 86400, minimum: 60 },
    }
    const answers: packet.Answer[] = []
    if (name === zone.domain && question.type === 'SOA') answers.push(soa)
    if (name === zone.domain && question.type === 'NS') for (const ns of zone.ns) answers.push({ type: 'NS', class: 'IN', name: zone.domain, ttl: 60, data: ns.replace(/\.$/, '') })
    if (question.type === 'TXT') for (const v of txtInRecords(zone.records, zone.domain, name)) answers.push({ type: 'TXT', class: 'IN', name: question.name, ttl: 60, data: [v] })
    if (question.type === 'A' || question.type === 'AAAA') for (const v of valuesInRecords(zone.records, zone.domain, name, question.type)) answers.push({ type: question.type, class: 'IN', name: question.name, ttl: 60, data: v })
    if (answers.length > 0) return { rcode: 0, answers }
    const exists = [...namesInRecords(zone.records, zone.domain)].some((n) => n === name || n.endsWith(`.${name}`))
    return { rcode: exists ? 0 : NXDOMAIN, answers: [], authorities: [soa] }
  })
}
