/**
 * What the service really kept ("serviceKept"), against what was sent: "stored" in this code is
 * the local store's word only. Several writes answer with the object as kept (DNS, free DNS,
 * nameservers, WHOIS, DNSSEC, auto-renewal, transfer lock, dynamic DNS), and the live service is
 * known to change some of it on the way: comment lines in `records` are not kept, a TTL under 120
 * seconds is kept as 3600. Each difference becomes a finding (a code
 * and its parameters) that the item carries and the screens put in the user's words.
 *
 * Pure functions of the validated parameters and the decoded answer; nothing here talks to
 * anything.
 */
import { CONTACT_FIELDS, CONTACT_ROLES } from './constants'

export const SERVICE_KEPT_CODES = [
  'serviceKept.commentsDropped',
  'serviceKept.linesDropped',
  'serviceKept.linesAdded',
  'serviceKept.ttlChanged',
  'serviceKept.valueChanged',
  'serviceKept.listChanged',
  'serviceKept.passwordChanged',
  'serviceKept.linesReordered',
  'serviceKept.notReadBack',
  'serviceKept.answerNotKept',
] as const
export type ServiceKeptCode = (typeof SERVICE_KEPT_CODES)[number]

/** The fields a finding can name; the renderer has a label for each. */
export type ServiceKeptField =
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

/** What each finding holds, as built here; see ServiceKeptFinding for the shape that is journaled and shown. */
type Finding =
  | { code: 'serviceKept.commentsDropped'; params: { count: number } }
  | { code: 'serviceKept.linesDropped' | 'serviceKept.linesAdded'; params: { count: number; lines: string } }
  | { code: 'serviceKept.ttlChanged'; params: { sent: number; kept: number } }
  | {
      code: 'serviceKept.valueChanged' | 'serviceKept.listChanged'
      params: { field: ServiceKeptField; sent: string; kept: string }
    }
  | {
      code:
        | 'serviceKept.passwordChanged'
        | 'serviceKept.linesReordered'
        | 'serviceKept.notReadBack'
        | 'serviceKept.answerNotKept'
      params: Record<string, never>
    }

/** A finding as an item carries it (and the journal keeps it): a code and its text and number parameters. */
export type ServiceKeptFinding = { code: ServiceKeptCode; params: Record<string, string | number> }

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
const textOf = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined

/** The save went through, but what the service kept could not be read back to compare. */
export const notReadBack = (): ServiceKeptFinding => ({ code: 'serviceKept.notReadBack', params: {} })
/** The service answered success with an answer too large to keep: done, what it said is not known. */
export const answerNotKept = (): ServiceKeptFinding => ({ code: 'serviceKept.answerNotKept', params: {} })

/** How a write's sent value and what the service kept are compared (each write names one: jobs/operations.ts). */
export type ServiceKeptComparison =
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

/** Compares what was sent with what the service answered it kept; [] when they agree or the answer says nothing. */
export function serviceKeptFindings(
  comparison: ServiceKeptComparison,
  sent: unknown,
  answer: unknown,
): ServiceKeptFinding[] {
  if (!isBag(sent) || !isBag(answer)) return []
  return compare(comparison, sent, answer)
    .slice(0, MAX_FINDINGS)
    .map((f): ServiceKeptFinding => ({ code: f.code, params: { ...f.params } }))
}

function compare(comparison: ServiceKeptComparison, sent: Bag, answer: Bag): Finding[] {
  switch (comparison) {
    case 'dnsZone':
      return [
        ...compareRecords(sent, answer),
        ...compareValue('ns_type', textOf(field(sent, 'ns_type')), textOf(field(answer, 'ns_type'))),
      ]
    case 'freeDnsZone':
      return compareRecords(sent, answer)
    case 'nameservers':
      return compareNameservers(field(sent, 'ns'), field(answer, 'ns'))
    case 'whois':
      return compareWhois(sent, answer)
    case 'dnssec':
      return compareDs(field(sent, 'ds_records'), field(answer, 'ds_records'))
    case 'domainAutorenew':
      return compareFlags(sent, answer, ['autorenew_all', 'autorenew_domain'])
    case 'serverAutorenew':
      return compareFlags(sent, answer, ['autorenew_all', 'autorenew_server'])
    case 'transferLock':
      return compareFlags(sent, answer, ['transfer_lock'])
    case 'dynamicDns': {
      const out = compareFlags(sent, answer, ['dynamicdns'])
      const password = textOf(field(sent, 'password'))
      const kept = textOf(field(answer, 'password'))
      // Only that it differs: a password is never quoted.
      if (password !== undefined && password !== '' && kept !== undefined && kept !== '' && kept !== password) {
        out.push({ code: 'serviceKept.passwordChanged', params: {} })
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
const linesOf = (records: string) =>
  records
    .split(/\r?\n/)
    .map(normalLine)
    .filter((l) => l !== '')

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

function compareRecords(sent: Bag, answer: Bag): Finding[] {
  const out: Finding[] = []
  const sentRecords = textOf(field(sent, 'records'))
  const keptRecords = textOf(field(answer, 'records'))
  if (sentRecords !== undefined && keptRecords !== undefined) {
    const sentLines = linesOf(sentRecords)
    const keptLines = linesOf(keptRecords)
    const commentsDropped = missingFrom(sentLines.filter(isComment), keptLines.filter(isComment))
    if (commentsDropped.length > 0)
      out.push({ code: 'serviceKept.commentsDropped', params: { count: commentsDropped.length } })
    const dropped = missingFrom(
      sentLines.filter((l) => !isComment(l)),
      keptLines.filter((l) => !isComment(l)),
    )
    const added = missingFrom(
      keptLines.filter((l) => !isComment(l)),
      sentLines.filter((l) => !isComment(l)),
    )
    if (dropped.length > 0)
      out.push({ code: 'serviceKept.linesDropped', params: { count: dropped.length, lines: quote(dropped) } })
    if (added.length > 0)
      out.push({ code: 'serviceKept.linesAdded', params: { count: added.length, lines: quote(added) } })
    // The same lines in another order: the service sorts some zones its own way.
    const records = (lines: string[]) => lines.filter((l) => !isComment(l)).join('\n')
    if (dropped.length === 0 && added.length === 0 && records(sentLines) !== records(keptLines))
      out.push({ code: 'serviceKept.linesReordered', params: {} })
  }
  const sentTtl = numberOf(field(sent, 'ttl'))
  const keptTtl = numberOf(field(answer, 'ttl'))
  if (sentTtl !== undefined && keptTtl !== undefined && sentTtl !== keptTtl) {
    out.push({ code: 'serviceKept.ttlChanged', params: { sent: sentTtl, kept: keptTtl } })
  }
  return out
}

const quote = (lines: string[]) => lines.slice(0, QUOTED_LINES).join(' · ')

// ---------------------------------------------------------------- other settings

function compareValue(name: ServiceKeptField, sent: string | undefined, kept: string | undefined): Finding[] {
  if (sent === undefined || kept === undefined || sent === kept) return []
  return [{ code: 'serviceKept.valueChanged', params: { field: name, sent, kept } }]
}

/**
 * Flags, compared as on or off (the service writes 10 for an auto-renewal setting that is on, and
 * 1 elsewhere): only those that were sent are compared (a PUT may change one of two).
 */
function compareFlags(
  sent: Bag,
  answer: Bag,
  names: ('autorenew_all' | 'autorenew_domain' | 'autorenew_server' | 'transfer_lock' | 'dynamicdns')[],
): Finding[] {
  const out: Finding[] = []
  for (const name of names) {
    const s = numberOf(field(sent, name))
    const k = numberOf(field(answer, name))
    if (s !== undefined && k !== undefined && (s !== 0) !== (k !== 0))
      out.push({ code: 'serviceKept.valueChanged', params: { field: name, sent: String(s), kept: String(k) } })
  }
  return out
}

/** Nameservers are a set: case, a trailing dot and the order do not count. */
function compareNameservers(sent: unknown, answer: unknown): Finding[] {
  if (!Array.isArray(sent) || !Array.isArray(answer)) return []
  const norm = (v: unknown[]) =>
    v
      .map((x) => textOf(x)?.trim().toLowerCase().replace(/\.$/, '') ?? '')
      .filter((x) => x !== '')
      .sort()
  const a = norm(sent)
  const b = norm(answer)
  if (a.join(' ') === b.join(' ')) return []
  return [{ code: 'serviceKept.listChanged', params: { field: 'ns', sent: a.join(', '), kept: b.join(', ') || '—' } }]
}

function compareWhois(sent: Bag, answer: Bag): Finding[] {
  const out: Finding[] = []
  const proxy = numberOf(field(sent, 'whois_proxy'))
  const keptProxy = numberOf(field(answer, 'whoisproxy'))
  if (proxy !== undefined && keptProxy !== undefined && proxy !== keptProxy) {
    out.push({
      code: 'serviceKept.valueChanged',
      params: { field: 'whoisproxy', sent: String(proxy), kept: String(keptProxy) },
    })
  }
  const contact = field(sent, 'contact')
  const keptContact = field(answer, 'contact')
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
      if (k !== s)
        out.push({
          code: 'serviceKept.valueChanged',
          params: { field: `contact.${role}.${name}`, sent: s, kept: k || '—' },
        })
    }
  }
  return out
}

/**
 * DS records. The spec shows an answer holding one DS record object even though a request sends
 * an array, so an answer with fewer records than were sent is not read as a loss; a record in
 * the answer that was not sent, or an empty answer to a non-empty request, is.
 */
function compareDs(sent: unknown, answer: unknown): Finding[] {
  if (!Array.isArray(sent) || !Array.isArray(answer)) return []
  const key = (v: unknown) =>
    isBag(v)
      ? [
          numberOf(field(v, 'keytag')),
          numberOf(field(v, 'alg')),
          numberOf(field(v, 'digesttype')),
          (textOf(field(v, 'digest')) ?? '').toUpperCase(),
        ].join(' ')
      : ''
  const a = sent.map(key)
  const b = answer.map(key)
  const foreign = b.filter((k) => !a.includes(k))
  if (foreign.length === 0 && (a.length === 0 || b.length > 0)) return []
  return [
    {
      code: 'serviceKept.listChanged',
      params: { field: 'ds_records', sent: a.join(', ') || '—', kept: b.join(', ') || '—' },
    },
  ]
}
