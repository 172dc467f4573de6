/**
 * The `records` text as the live service takes and keeps it. Written from what the service
 * documents and what was recorded of it, never from the app's own records model
 * (src/shared/dns): a stand-in that used the app's rules could never disagree with the app.
 *
 * Sources (tests/fixtures/live/README.md lists each with its place):
 * - The service's record syntax page (value-domain.com/moddnsfree.php), as quoted in
 *   dns-lexicon's valuedomain provider: a line is `type host value`; `a`, `aaaa`, `ns`, `txt`,
 *   `srv`; an MX is `mx <mail server> <priority>` and `mx @ 10` makes the domain its own mail
 *   server.
 * - dns-lexicon's valuedomain cassettes (2020-10-18 and 2021-11-15): `cname` lines; the same
 *   TXT and CNAME line stored and served twice; lines kept in the order sent; a PUT answered
 *   with the request repeated (the TTL as the number sent), every GET with the TTL as text.
 * - Reported by the service's users and not recorded here: comment lines are not kept, a TTL
 *   under 120 is stored as 3600, and lines may come back in another order (modelled as grouped
 *   by type in the order of the syntax page). Each is a behaviour a test turns on.
 * - Not documented and assumed accepted, as the app's users keep them: `caa` and `ptr`.
 */
import type { ServiceBehaviour } from './behaviour'

/** The record types the service takes, in the order its syntax page lists them. */
const SERVICE_TYPES = ['a', 'aaaa', 'cname', 'mx', 'ns', 'txt', 'srv', 'caa', 'ptr'] as const

const isBlank = (line: string) => line.trim() === ''
const isComment = (line: string) => /^\s*(#|;|\/\/)/.test(line)
const typeOf = (line: string) => line.trim().split(/\s+/)[0]?.toLowerCase() ?? ''

/** Why the service refuses a records text (its message), or undefined when it takes it. */
export function refusedRecords(records: string): string | undefined {
  const lines = records.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (isBlank(line) || isComment(line)) continue
    const words = line.trim().split(/\s+/)
    if (words.length < 3) return `Malformed record on line ${i + 1}: expected "type host value".`
    if (!SERVICE_TYPES.some((t) => t === typeOf(line))) return `Unknown record type "${words[0]}" on line ${i + 1}.`
  }
  return undefined
}

/** The records as the service keeps them, with the rewriting the behaviour turns on. */
export function keptRecords(records: string, b: ServiceBehaviour): string {
  let lines = records.split('\n')
  if (b.dropComments) lines = lines.filter((l) => !isComment(l))
  if (b.reorderLines) {
    const rank = (l: string) => {
      const at = SERVICE_TYPES.findIndex((t) => t === typeOf(l))
      return at < 0 ? SERVICE_TYPES.length : at
    }
    // Stable: lines of one type keep their order among themselves.
    lines = lines
      .map((l, i) => ({ l, i }))
      .sort((x, y) => rank(x.l) - rank(y.l) || x.i - y.i)
      .map((x) => x.l)
  }
  return lines.join('\n')
}

/** The TTL as the service keeps it: under its minimum, 3600. */
export function keptTtl(ttl: number, b: ServiceBehaviour): number {
  return b.minTtl !== undefined && ttl < b.minTtl ? 3600 : ttl
}
