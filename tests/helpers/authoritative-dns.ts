/**
 * An authoritative nameserver on loopback for the tests, over UDP, its messages read and written
 * by dns-packet (no DNS wire code of ours). It answers TXT questions from what `txtOf` says a name
 * holds: an authoritative answer with the values, or NXDOMAIN when it holds none. It never
 * recurses (RA clear), as the zone's own nameservers do not.
 */
import { createSocket } from 'node:dgram'
import * as packet from 'dns-packet'

const NXDOMAIN = 3

export interface AuthoritativeDns {
  /** `127.0.0.1:<port>`, as a resolver's setServers takes it. */
  address: string
  /** TXT questions received, oldest first (name, lower case). */
  asked: string[]
  close(): Promise<void>
}

export async function startAuthoritativeDns(txtOf: (name: string) => string[]): Promise<AuthoritativeDns> {
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
    const values = question.type === 'TXT' ? txtOf(name) : []
    if (question.type === 'TXT') asked.push(name)
    const answer = packet.encode({
      type: 'response',
      id: query.id,
      flags: packet.AUTHORITATIVE_ANSWER | (values.length === 0 ? NXDOMAIN : 0),
      questions: [question],
      answers: values.map((v) => ({ type: 'TXT' as const, class: 'IN' as const, name: question.name, ttl: 60, data: [v] })),
    })
    socket.send(answer, peer.port, peer.address)
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject)
    socket.bind(0, '127.0.0.1', () => resolve())
  })
  const { port } = socket.address()
  return {
    address: `127.0.0.1:${port}`,
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  }
}

/**
 * The TXT values a zone's records text (the service's records form) holds at a name: hosts `@`,
 * relative (`_acme-challenge.www`) or full with the final dot; values with or without quotes.
 */
export function txtInRecords(records: string, domain: string, name: string): string[] {
  const values: string[] = []
  for (const line of records.split('\n')) {
    const m = /^txt\s+(\S+)\s+(.*)$/i.exec(line.trim())
    if (!m) continue
    const host = m[1]!.toLowerCase()
    const full = host === '@' ? domain : host.endsWith('.') ? host.slice(0, -1) : `${host}.${domain}`
    if (full === name) values.push(m[2]!.replace(/^"(.*)"$/, '$1'))
  }
  return values
}
