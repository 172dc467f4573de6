/**
 * A DNS server on loopback for the health tests, its messages read and written by dns-packet
 * (no DNS wire code of ours). It answers A, AAAA, TXT, CNAME and MX from zones in the service's
 * records form (`a www 192.0.2.1`, `mx mail.example.net. 10`, `cname w other.example.`), read
 * again at every question, so a test can make one nameserver lag or rewrite:
 * - as a zone's nameserver (authoritative, no recursion): names outside its zones are REFUSED;
 * - as a resolver (`resolver: true`): A and AAAA follow CNAMEs across its zones, as a recursive
 *   resolver answers, and recursion is marked available.
 */
import { createSocket } from 'node:dgram'
import { domainToASCII } from 'node:url'
import * as packet from 'dns-packet'

const NXDOMAIN = 3
const REFUSED = 5

export interface Zone {
  domain: string
  records: string
}

export interface RecordsDns {
  address: string
  /** Questions received, `TYPE name`, oldest first. */
  asked: string[]
  close(): Promise<void>
}

/** A name as DNS carries it: full, lower-case, without the final dot, each non-ASCII label in punycode. */
const full = (name: string, domain: string) => {
  const h = name.toLowerCase()
  const named = h === '@' ? domain : h.endsWith('.') ? h.slice(0, -1) : `${h}.${domain}`
  return domainToASCII(named) || named
}

interface Line {
  type: string
  name: string
  value: string
}

function linesOf(z: Zone): Line[] {
  const out: Line[] = []
  for (const raw of z.records.split('\n')) {
    const w = raw.trim().split(/\s+/)
    if (w.length < 3) continue
    const type = (w[0] as string).toUpperCase()
    // The service's MX: `mx <mail server> <priority>`, the zone's own; `mx @ <server> <priority>` is the zone's own too.
    if (type === 'MX' && w.length === 4 && w[1] === '@') out.push({ type, name: z.domain, value: `${w[3]} ${full(w[2] as string, z.domain)}` })
    else if (type === 'MX') out.push({ type, name: z.domain, value: `${w[2]} ${full(w[1] as string, z.domain)}` })
    else out.push({ type, name: full(w[1] as string, z.domain), value: w.slice(2).join(' ') })
  }
  return out
}

export async function startRecordsDns(zones: () => Zone[], opts: { resolver?: boolean } = {}): Promise<RecordsDns> {
  const socket = createSocket('udp4')
  const asked: string[] = []
  const answer = (q: packet.Question, name: string, depth: number): { rcode: number; answers: packet.Answer[] } => {
    const zone = zones()
      .map((z) => ({ ...z, domain: z.domain.toLowerCase().replace(/\.$/, '') }))
      .filter((z) => name === z.domain || name.endsWith(`.${z.domain}`))
      .sort((a, b) => b.domain.length - a.domain.length)[0]
    if (!zone) return { rcode: opts.resolver ? NXDOMAIN : REFUSED, answers: [] }
    const lines = linesOf(zone)
    const here = lines.filter((l) => l.name === name)
    const answers: packet.Answer[] = []
    const base = { class: 'IN' as const, name, ttl: 60 }
    const cname = here.find((l) => l.type === 'CNAME')
    if (cname && q.type !== 'CNAME') {
      const target = full(cname.value, zone.domain)
      answers.push({ ...base, type: 'CNAME', data: target })
      if (opts.resolver && depth < 8) answers.push(...answer(q, target, depth + 1).answers)
      return { rcode: 0, answers }
    }
    for (const l of here) {
      if (l.type !== q.type) continue
      if (l.type === 'A' || l.type === 'AAAA') answers.push({ ...base, type: l.type, data: l.value })
      if (l.type === 'CNAME') answers.push({ ...base, type: 'CNAME', data: full(l.value, zone.domain) })
      if (l.type === 'TXT') answers.push({ ...base, type: 'TXT', data: [l.value.replace(/^"(.*)"$/, '$1')] })
      if (l.type === 'MX') {
        const [priority, exchange] = l.value.split(' ')
        answers.push({ ...base, type: 'MX', data: { preference: Number(priority), exchange: exchange as string } })
      }
    }
    const exists = name === zone.domain || lines.some((l) => l.name === name || l.name.endsWith(`.${name}`))
    return { rcode: answers.length > 0 || exists ? 0 : NXDOMAIN, answers }
  }
  socket.on('message', (message, peer) => {
    let query: packet.DecodedPacket
    try {
      query = packet.decode(message)
    } catch {
      return
    }
    const q = query.questions?.[0]
    if (!q) return
    const name = q.name.toLowerCase().replace(/\.$/, '')
    asked.push(`${q.type} ${name}`)
    const reply = answer(q, name, 0)
    const flags = (reply.rcode === REFUSED ? 0 : opts.resolver ? packet.RECURSION_AVAILABLE : packet.AUTHORITATIVE_ANSWER) | reply.rcode
    socket.send(packet.encode({ type: 'response', id: query.id, flags, questions: [q], answers: reply.answers }), peer.port, peer.address)
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject)
    socket.bind(0, '127.0.0.1', () => resolve())
  })
  return {
    address: `127.0.0.1:${socket.address().port}`,
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  }
}
