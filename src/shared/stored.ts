/**
 * What the service really stored, against what was sent. Several writes answer with the object
 * as stored (DNS, free DNS, nameservers, WHOIS, DNSSEC, auto-renewal, transfer lock, dynamic DNS),
 * and the live service is known to change some of it on the way: comment lines in `records` are
 * not kept, a TTL under 120 seconds is stored as 3600. Each difference becomes a finding (a code
 * and its parameters) that the item carries and the screens put in the user's words.
 *
 * Pure functions of the validated parameters and the decoded answer; nothing here talks to
 * anything.
 */
import { CONTACT_FIELDS, CONTACT_ROLES } from './constants'

export const STORED_CODES = [
  'stored.commentsDropped',
  'stored.linesDropped',
  'stored.linesAdded',
  'stored.ttlChanged',
  'stored.valueChanged',
  'stored.listChanged',
  'stored.passwordChanged',
  'stored.linesReordered',
  'stored.notReadBack',
  'stored.answerNotKept',
] as const
export type StoredCode = (typeof STORED_CODES)[number]

/** The fields a finding can name; the renderer has a label for each. */
export type StoredField =
  | 'ns_type'
  | 'ns'
  | 'ds_records'
  | 'whoisproxy'
  | 'autorenew_all'
  | 'autorenew_domain'
  | 'autorenew_server'
  | 'transfer_lock'
  | 'dynamicdns'
  | `contact.${(typeof CONTACT_ROLES)[number]}.${(typeof CONTACT_FIELDS)[number]}`

/** What each finding holds, as built here; see StoredFinding for the shape that is journaled and shown. */
type Finding =
  | { code: 'stored.commentsDropped'; params: { count: number } }
  | { code: 'stored.linesDropped' | 'stored.linesAdded'; params: { count: number; lines: string } }
  | { code: 'stored.ttlChanged'; params: { sent: number; stored: number } }
  | { code: 'stored.valueChanged' | 'stored.listChanged'; params: { field: StoredField; sent: string; stored: string } }
  | { code: 'stored.passwordChanged' | 'stored.linesReordered' | 'stored.notReadBack' | 'stored.answerNotKept'; params: Record<string, never> }

/** A finding as an item carries it (and the journal keeps it): a code and its text and number parameters. */
export type StoredFinding = { code: StoredCode; params: Record<string, string | number> }

/** At most this many findings per item: a whole zone rewritten is told in a few lines, not hundreds. */
const MAX_FINDINGS = 12
/** Lines quoted in one finding. */
const QUOTED_LINES = 3

type Bag = Readonly<Record<string, unknown>>
const isBag = (v: unknown): v is Bag => typeof v === 'object' && v !== null && !Array.isArray(v)
const field = (o: Bag, key: string): unknown => (Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined)
/** A flag or a number as the service writes it ("1", 1); undefined when absent. */
const numberOf = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : undefined
const textOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined)

/** The save went through, but what the service kept could not be read back to compare. */
export const notReadBack = (): StoredFinding => ({ code: 'stored.notReadBack', params: {} })
/** The service answered success with an answer too large to keep: done, what it said is not known. */
export const answerNotKept = (): StoredFinding => ({ code: 'stored.answerNotKept', params: {} })

/** How a write's sent value and what the service kept are compared (each write names one: jobs/operations.ts). */
export type StoredComparison =
  | 'dnsZone'
  | 'freeDnsZone'
  | 'nameservers'
  | 'whois'
  | 'dnssec'
  | 'domainAutorenew'
  | 'serverAutorenew'
  | 'transferLock'
  | 'dynamicDns'
  | 'none'

/** Compares what was sent with what the service answered it stored; [] when they agree or the answer says nothing. */
export function storedFindings(comparison: StoredComparison, sent: unknown, stored: unknown): StoredFinding[] {
  if (!isBag(sent) || !isBag(stored)) return []
  return compare(comparison, sent, stored)
    .slice(0, MAX_FINDINGS)
    .map((f): StoredFinding => ({ code: f.code, params: { ...f.params } }))
}

function compare(comparison: StoredComparison, sent: Bag, stored: Bag): Finding[] {
  switch (comparison) {
    case 'dnsZone':
      return [...compareRecords(sent, stored), ...compareValue('ns_type', textOf(field(sent, 'ns_type')), textOf(field(stored, 'ns_type')))]
    case 'freeDnsZone':
      return compareRecords(sent, stored)
    case 'nameservers':
      return compareNameservers(field(sent, 'ns'), field(stored, 'ns'))
    case 'whois':
      return compareWhois(sent, stored)
    case 'dnssec':
      return compareDs(field(sent, 'ds_records'), field(stored, 'ds_records'))
    case 'domainAutorenew':
      return compareFlags(sent, stored, ['autorenew_all', 'autorenew_domain'])
    case 'serverAutorenew':
      return compareFlags(sent, stored, ['autorenew_all', 'autorenew_server'])
    case 'transferLock':
      return compareFlags(sent, stored, ['transfer_lock'])
    case 'dynamicDns': {
      const out = compareFlags(sent, stored, ['dynamicdns'])
      const password = textOf(field(sent, 'password'))
      const kept = textOf(field(stored, 'password'))
      // Only that it differs: a password is never quoted.
      if (password !== undefined && password !== '' && kept !== undefined && kept !== '' && kept !== password) {
        out.push({ code: 'stored.passwordChanged', params: {} })
      }
      return out
    }
    case 'none':
      return []
  }
}

// ---------------------------------------------------------------- DNS records

const isComment = (line: string) => /^\s*(#|;|\/\/)/.test(line)
/** A record line as the service may rewrite it: surrounding and repeated blanks do not count. */
const normalLine = (line: string) => line.trim().replace(/\s+/g, ' ')
const linesOf = (records: string) => records.split(/\r?\n/).map(normalLine).filter((l) => l !== '')

/** Lines of `a` not matched one for one in `b` (a multiset difference, in the order of `a`). */
function missingFrom(a: string[], b: string[]): string[] {
  const left = new Map<string, number>()
  for (const l of b) left.set(l, (left.get(l) ?? 0) + 1)
  const out: string[] = []
  for (const l of a) {
    const n = left.get(l) ?? 0
    if (n > 0) left.set(l, n - 1)
    else out.push(l)
  }
  return out
}

function compareRecords(sent: Bag, stored: Bag): Finding[] {
  const out: Finding[] = []
  const sentRecords = textOf(field(sent, 'records'))
  const storedRecords = textOf(field(stored, 'records'))
  if (sentRecords !== undefined && storedRecords !== undefined) {
    const sentLines = linesOf(sentRecords)
    const storedLines = linesOf(storedRecords)
    const commentsDropped = missingFrom(sentLines.filter(isComment), storedLines.filter(isComment))
    if (commentsDropped.length > 0) out.push({ code: 'stored.commentsDropped', params: { count: commentsDropped.length } })
    const dropped = missingFrom(sentLines.filter((l) => !isComment(l)), storedLines.filter((l) => !isComment(l)))
    const added = missingFrom(storedLines.filter((l) => !isComment(l)), sentLines.filter((l) => !isComment(l)))
    if (dropped.length > 0) out.push({ code: 'stored.linesDropped', params: { count: dropped.length, lines: quote(dropped) } })
    if (added.length > 0) out.push({ code: 'stored.linesAdded', params: { count: added.length, lines: quote(added) } })
    // The same lines in another order: the service sorts some zones its own way.
    const records = (lines: string[]) => lines.filter((l) => !isComment(l)).join('\n')
    if (dropped.length === 0 && added.length === 0 && records(sentLines) !== records(storedLines)) out.push({ code: 'stored.linesReordered', params: {} })
  }
  const sentTtl = numberOf(field(sent, 'ttl'))
  const storedTtl = numberOf(field(stored, 'ttl'))
  if (sentTtl !== undefined && storedTtl !== undefined && sentTtl !== storedTtl) {
    out.push({ code: 'stored.ttlChanged', params: { sent: sentTtl, stored: storedTtl } })
  }
  return out
}

const quote = (lines: string[]) => lines.slice(0, QUOTED_LINES).join(' · ')

// ---------------------------------------------------------------- other settings

function compareValue(name: StoredField, sent: string | undefined, stored: string | undefined): Finding[] {
  if (sent === undefined || stored === undefined || sent === stored) return []
  return [{ code: 'stored.valueChanged', params: { field: name, sent, stored } }]
}

/**
 * Flags, compared as on or off (the service writes 10 for an auto-renewal setting that is on, and
 * 1 elsewhere): only those that were sent are compared (a PUT may change one of two).
 */
function compareFlags(sent: Bag, stored: Bag, names: ('autorenew_all' | 'autorenew_domain' | 'autorenew_server' | 'transfer_lock' | 'dynamicdns')[]): Finding[] {
  const out: Finding[] = []
  for (const name of names) {
    const s = numberOf(field(sent, name))
    const k = numberOf(field(stored, name))
    if (s !== undefined && k !== undefined && (s !== 0) !== (k !== 0)) out.push({ code: 'stored.valueChanged', params: { field: name, sent: String(s), stored: String(k) } })
  }
  return out
}

/** Nameservers are a set: case, a trailing dot and the order do not count. */
function compareNameservers(sent: unknown, stored: unknown): Finding[] {
  if (!Array.isArray(sent) || !Array.isArray(stored)) return []
  const norm = (v: unknown[]) =>
    v
      .map((x) => textOf(x)?.trim().toLowerCase().replace(/\.$/, '') ?? '')
      .filter((x) => x !== '')
      .sort()
  const a = norm(sent)
  const b = norm(stored)
  if (a.join(' ') === b.join(' ')) return []
  return [{ code: 'stored.listChanged', params: { field: 'ns', sent: a.join(', '), stored: b.join(', ') || '—' } }]
}

function compareWhois(sent: Bag, stored: Bag): Finding[] {
  const out: Finding[] = []
  const proxy = numberOf(field(sent, 'whois_proxy'))
  const keptProxy = numberOf(field(stored, 'whoisproxy'))
  if (proxy !== undefined && keptProxy !== undefined && proxy !== keptProxy) {
    out.push({ code: 'stored.valueChanged', params: { field: 'whoisproxy', sent: String(proxy), stored: String(keptProxy) } })
  }
  const contact = field(sent, 'contact')
  const keptContact = field(stored, 'contact')
  if (!isBag(contact) || !isBag(keptContact)) return out
  for (const role of CONTACT_ROLES) {
    const person = field(contact, role)
    const kept = field(keptContact, role)
    if (!isBag(person) || !isBag(kept)) continue
    for (const name of CONTACT_FIELDS) {
      const s = textOf(field(person, name))?.trim()
      // A field that was not sent, or sent empty, is not something the service changed.
      if (s === undefined || s === '') continue
      const k = textOf(field(kept, name))?.trim() ?? ''
      if (k !== s) out.push({ code: 'stored.valueChanged', params: { field: `contact.${role}.${name}`, sent: s, stored: k || '—' } })
    }
  }
  return out
}

/**
 * DS records. The spec shows an answer holding one DS record object even though a request sends
 * an array, so an answer with fewer records than were sent is not read as a loss; a record in
 * the answer that was not sent, or an empty answer to a non-empty request, is.
 */
function compareDs(sent: unknown, stored: unknown): Finding[] {
  if (!Array.isArray(sent) || !Array.isArray(stored)) return []
  const key = (v: unknown) =>
    isBag(v) ? [numberOf(field(v, 'keytag')), numberOf(field(v, 'alg')), numberOf(field(v, 'digesttype')), (textOf(field(v, 'digest')) ?? '').toUpperCase()].join(' ') : ''
  const a = sent.map(key)
  const b = stored.map(key)
  const foreign = b.filter((k) => !a.includes(k))
  if (foreign.length === 0 && (a.length === 0 || b.length > 0)) return []
  return [{ code: 'stored.listChanged', params: { field: 'ds_records', sent: a.join(', ') || '—', stored: b.join(', ') || '—' } }]
}
