/**
 * Checks of DNS rows, per type. Each problem is a code with parameters, which the renderer
 * words in the user's language and the sandbox in the service's. Raw rows (lines the model
 * does not understand) are never errors: they are kept exactly as they were.
 *
 * validateRows() gives the errors (a save waits until they are fixed); warnRows() gives what
 * is allowed but probably a mistake (the user is told before the plan, and may go on).
 * Each issue names the part of the record it is about, so a form can mark that field.
 */
import { HOSTNAME, isIPv4, isIPv6, type Finding } from '../service/validation'
import { asciiName } from './ascii-name'
import { hiddenCharacterIssue } from './hidden-characters'
import { isKnownType, placeLine, serialiseRow, splitValue, txtText } from './records'
import type { KnownType, RecordRow, Row, ValueField, ValueFields } from './records'

export const DNS_CODES = [
  'dns.host.invalid',
  'dns.a.value',
  'dns.aaaa.value',
  'dns.cname.apex',
  'dns.cname.value',
  'dns.cname.exclusive',
  'dns.hostValue',
  'dns.mx.value',
  'dns.mx.order',
  'dns.mx.priority',
  'dns.mx.target',
  'dns.mx.apexOnly',
  'dns.mx.relative',
  'dns.cname.relative',
  'dns.valueMissing',
  'dns.mx.withHost',
  'dns.mx.shape',
  'dns.srv.host',
  'dns.srv.value',
  'dns.srv.priority',
  'dns.srv.weight',
  'dns.srv.port',
  'dns.srv.target',
  'dns.caa.flags',
  'dns.caa.tag',
  'dns.caa.content',
  'dns.txt.tooLong',
  'dns.txt.quote',
  'dns.txt.empty',
  'dns.duplicate',
  // The same rule as the zone health's (shared/dns/health/rules.ts), said in its words: one voice
  // for it in the editor's checks and in the plan's and the dashboard's health (issue 53 point 12.5).
  'health.rule.spf.multiple.title',
  'dns.unplacedKept',
  'dns.hiddenCharacter',
  'dns.target.apex',
  'dns.target.label',
] as const
export type DnsCode = (typeof DNS_CODES)[number]

/** The service is known to store a zone TTL under this as 3600 (what the window and `dns plan` warn of). */
export const LOWEST_KEPT_TTL = 120

/** The part of a record an issue is about: its host or one part of its value. */
export type IssueField = 'host' | ValueField

export interface ValueIssue extends Finding<DnsCode> {
  /** Absent when the issue is about the record as a whole (a duplicate, a CNAME beside others). */
  field?: IssueField | undefined
}

/** A one-click mend the editor can offer for a row: remove it (a duplicate), or write it in the service's form. */
export type RowFix = 'remove' | 'place'

export interface RowIssue extends ValueIssue {
  /** Index of the row in the list. */
  index: number
  fix?: RowFix | undefined
}

export interface RowCheckOptions {
  /**
   * The lines of the zone as the service holds it. A line there is the service's own and is
   * kept as it is, never refused (a warning where the app would not write it so): a zone is
   * never refused by a check against itself. The same line typed anew where the zone does not
   * hold it is refused, so the app never writes a form the service does not document.
   */
  kept?: ReadonlySet<string> | undefined
}

/** A line without its CR line end, if it has one (as `.replace(/\r$/, '')`, without a regex per row). */
const withoutCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line)

/** Whether the zone holds this line: compared as lines, a CRLF line end the same as a LF one. */
function isHeld(kept: ReadonlySet<string> | undefined, line: string): boolean {
  if (!kept) return false
  const bare = withoutCr(line)
  return kept.has(line) || kept.has(bare) || kept.has(`${bare}\r`)
}

const HOST_FIELD = /^(@|\*|(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*)$/i
/**
 * A name in a record's data (a CNAME, NS or PTR value, an MX mail server, an SRV target) as a
 * zone reads it: `@` (the domain itself), a full name with its final dot, or a name relative to
 * the zone (`mail` is mail.<domain>). The service's syntax page documents `mx @ 10`, and an MX
 * name without its final dot is known to be completed with the zone; for the other types nothing
 * says how the service reads `@` or a single label, so a new one there is warned of
 * (zoneNameWarning), never refused, and never rewritten.
 */
const isDataName = (s: string) => s === '@' || (HOSTNAME.test(s) && s.length <= 254)
/** A mail server with dots but no final dot: the service appends the zone (`smtp.google.com` is served as smtp.google.com.<domain>). */
const isZoneRelativeName = (s: string) => s !== '@' && s.includes('.') && !s.endsWith('.')
const uint = (s: string | undefined, max: number) => s !== undefined && /^\d+$/.test(s) && Number(s) <= max
const CAA_TAGS = /^(issue|issuewild|iodef)$/i

const valueWords = (value: string) => value.trim().split(/\s+/).filter(Boolean)

/** What is wrong with each part of a value, given part by part (as a form holds it). */
export function fieldIssues(type: KnownType, host: string, f: ValueFields): ValueIssue[] {
  const out: ValueIssue[] = []
  const v = (f.value ?? '').trim()
  switch (type) {
    case 'a':
      if (!isIPv4(v)) out.push({ code: 'dns.a.value', params: { value: v }, field: 'value' })
      break
    case 'aaaa':
      if (!isIPv6(v)) out.push({ code: 'dns.aaaa.value', params: { value: v }, field: 'value' })
      break
    case 'cname':
      if (host === '@') out.push({ code: 'dns.cname.apex', field: 'host' })
      else if (!isDataName(v)) out.push({ code: 'dns.cname.value', params: { value: v }, field: 'value' })
      break
    case 'ns':
    case 'ptr':
      if (!isDataName(v))
        out.push({ code: 'dns.hostValue', params: { type: type.toUpperCase(), value: v }, field: 'value' })
      break
    case 'mx':
      // The service's form has no host: an MX is always the zone's own.
      if (host !== '@') out.push({ code: 'dns.mx.apexOnly', params: { host }, field: 'host' })
      if (!uint(f.priority, 65535)) out.push({ code: 'dns.mx.priority', field: 'priority' })
      if (!f.target || !isDataName(f.target)) out.push({ code: 'dns.mx.target', field: 'target' })
      break
    case 'srv':
      if (!/^_[a-z0-9-]+\._(tcp|udp|tls)(\.|$)/i.test(host)) out.push({ code: 'dns.srv.host', field: 'host' })
      if (!uint(f.priority, 65535)) out.push({ code: 'dns.srv.priority', field: 'priority' })
      if (!uint(f.weight, 65535)) out.push({ code: 'dns.srv.weight', field: 'weight' })
      if (!uint(f.port, 65535)) out.push({ code: 'dns.srv.port', field: 'port' })
      if (!f.target || !(f.target === '.' || isDataName(f.target)))
        out.push({ code: 'dns.srv.target', field: 'target' })
      break
    case 'caa':
      if (!uint(f.flags, 255)) out.push({ code: 'dns.caa.flags', field: 'flags' })
      if (!f.tag || !CAA_TAGS.test(f.tag)) out.push({ code: 'dns.caa.tag', field: 'tag' })
      if (v === '') out.push({ code: 'dns.caa.content', field: 'value' })
      break
    case 'txt': {
      // A TXT with no text at all is refused by the service, as any record without data.
      if (txtText(v.trim()).trim() === '') out.push({ code: 'dns.txt.empty', field: 'value' })
      else if (v.length > 4000) out.push({ code: 'dns.txt.tooLong', params: { length: v.length }, field: 'value' })
      else if ((v.match(/(?<!\\)"/g) ?? []).length % 2 === 1) out.push({ code: 'dns.txt.quote', field: 'value' })
      break
    }
  }
  return out
}

/**
 * What is wrong with one record's value for its type and host: every problem, part by part.
 * The parts as typed, when given, are checked instead of the text's.
 */
export function valueIssues(type: string, host: string, value: string, parts?: ValueFields): ValueIssue[] {
  if (!isKnownType(type)) return []
  if (parts) return fieldIssues(type, host, parts)
  // The shape first: a part too many, or an MX written priority first (the service's order is server, priority).
  if (type === 'mx') {
    const words = valueWords(value)
    if (words.length > 2) return [{ code: 'dns.mx.value' }]
    if (words.length === 2 && uint(words[0], 65535) && !uint(words[1], 65535)) return [{ code: 'dns.mx.order' }]
  }
  if (type === 'srv' && valueWords(value).length > 4) return [{ code: 'dns.srv.value' }]
  return fieldIssues(type, host, splitValue(type, value))
}

/** What is wrong with one record alone: its host (nothing else counts then), else its value, part by part. */
export function recordIssues(r: Pick<RecordRow, 'type' | 'host' | 'value' | 'parts'>): ValueIssue[] {
  // An IDN host is served as its punycode (xn--...), which is what must be a valid name.
  const host = asciiName(r.host)
  if (!HOST_FIELD.test(host) || host.length > 253)
    return [{ code: 'dns.host.invalid', params: { host: r.host }, field: 'host' }]
  return valueIssues(r.type, r.host, r.value, r.parts)
}

/** Where a line the service's form cannot place is refused: the code and, where there is one, its mend. */
const UNPLACED_ISSUE = {
  'mx.priorityFirst': 'dns.mx.order',
  'mx.withHost': 'dns.mx.withHost',
  'mx.shape': 'dns.mx.shape',
} as const satisfies Record<string, DnsCode>

/**
 * The errors in the rows: each record's host and value, a CNAME that is not alone at its host,
 * and lines the service's form cannot place, of the lines the zone does not already hold (a line
 * it holds is never an error but for a hidden character: warnRows says what the app would not
 * write so). Duplicates are not errors: the service itself stores and serves them (warnRows names them).
 */
export function validateRows(rows: Row[], opts: RowCheckOptions = {}): RowIssue[] {
  const issues: RowIssue[] = []
  const atHost = new Map<string, Set<string>>()
  /** Hosts with a record the zone does not hold yet: only there can a CNAME's company be new. */
  const touched = new Set<string>()
  /** The CNAMEs and their indexes: whether each is alone is known once every row is seen. */
  const cnames: [number, RecordRow][] = []
  rows.forEach((r, index) => {
    // Every CNAME, whatever else is wrong with it (the check is the same as a second pass over the rows).
    if (r.kind === 'record' && r.type === 'cname') cnames.push([index, r])
    const line = serialiseRow(r)
    // A character that hides the line or splits it unseen: whatever the line, nothing else of it counts.
    const hidden = hiddenCharacterIssue(withoutCr(line), index + 1)
    if (hidden) {
      issues.push({ index, ...hidden })
      return
    }
    if (r.kind === 'raw') {
      if (r.reason === 'unplaced' && r.unplaced && !isHeld(opts.kept, line)) {
        issues.push({
          index,
          code: UNPLACED_ISSUE[r.unplaced],
          params: { line: line.trim() },
          ...(placeLine(r) ? { fix: 'place' as const } : {}),
        })
      }
      // A known type with a host but no value (`txt @`): a record without data, which the service refuses.
      if (r.reason === 'unknown') {
        const words = line.trim().split(/\s+/)
        if (isKnownType((words[0] ?? '').toLowerCase()) && words.length < 3 && !isHeld(opts.kept, line))
          issues.push({ index, code: 'dns.valueMissing', params: { line: line.trim() } })
      }
      return
    }
    const host = r.host.toLowerCase()
    if (!isHeld(opts.kept, line)) {
      const problems = recordIssues(r)
      for (const problem of problems) issues.push({ index, ...problem })
      if (problems.some((p) => p.code === 'dns.host.invalid')) return
      touched.add(host)
    }
    // Records, not lines: the same record twice at a host (which the service stores) is one record there.
    let here = atHost.get(host)
    if (!here) atHost.set(host, (here = new Set<string>()))
    here.add(`${r.type}\u0000${r.value}`)
  })
  // A CNAME must be the only record at its host: not beside other types, nor a second CNAME.
  for (const [index, r] of cnames) {
    const host = r.host.toLowerCase()
    if (touched.has(host) && (atHost.get(host)?.size ?? 0) > 1)
      issues.push({ index, code: 'dns.cname.exclusive', params: { host: r.host } })
  }
  return issues
}

const isSpf = (value: string) => /^v=spf1(\s|$)/i.test(txtText(value.trim()))

/** The part of a record's value that names a host, where a type has one that is not MX's. */
const TARGET_FIELD: Partial<Record<KnownType, ValueField>> = {
  cname: 'value',
  ns: 'value',
  ptr: 'value',
  srv: 'target',
}

/**
 * A new CNAME, NS, PTR or SRV target written `@` or as a single label: a zone file reads it
 * within the zone (the domain itself, www.<domain>), but the service documents that reading
 * for MX only, so the user is told, and the line is sent as typed.
 */
function zoneNameWarning(r: RecordRow): ValueIssue | undefined {
  const field = TARGET_FIELD[r.type]
  if (!field) return undefined
  const target = (field === 'value' ? r.value : (splitValue(r.type, r.value)[field] ?? '')).trim()
  const type = r.type.toUpperCase()
  if (target === '@') return { code: 'dns.target.apex', params: { type }, field }
  if (target !== '' && target !== '.' && !target.includes('.') && isDataName(target))
    return { code: 'dns.target.label', params: { type, target }, field }
  return undefined
}

/**
 * What the service accepts but is probably a mistake, or should be looked at:
 * - the same record twice (the service stores and serves both; one click removes the copy);
 * - a second SPF record (`v=spf1`) at a host, which makes receivers reject the SPF check of
 *   every message (RFC 7208 4.5);
 * - an MX mail server with dots but no final dot, which the service completes with the zone;
 * - a new CNAME, NS, PTR or SRV target written `@` or as a single label, which the service does
 *   not document;
 * - a line the zone already held that the app would not write so (a form the service does not
 *   document, or a value the app would refuse): kept exactly as it is.
 */
export function warnRows(rows: Row[], opts: RowCheckOptions = {}): RowIssue[] {
  const warnings: RowIssue[] = []
  const firstSpf = new Map<string, number>()
  const spfCount = new Map<string, number>()
  for (const r of rows)
    if (r.kind === 'record' && r.type === 'txt' && isSpf(r.value))
      spfCount.set(r.host.toLowerCase(), (spfCount.get(r.host.toLowerCase()) ?? 0) + 1)
  const seen = new Map<string, number>()
  rows.forEach((r, index) => {
    if (r.kind === 'raw') {
      if (r.reason === 'unplaced' && r.unplaced && isHeld(opts.kept, r.text)) {
        warnings.push({
          index,
          code: 'dns.unplacedKept',
          params: { line: r.text.trim() },
          ...(placeLine(r) ? { fix: 'place' as const } : {}),
        })
      }
      return
    }
    if (isHeld(opts.kept, serialiseRow(r))) {
      if (recordIssues(r).length > 0)
        warnings.push({ index, code: 'dns.unplacedKept', params: { line: serialiseRow(r).trim() } })
    } else {
      const zoneName = zoneNameWarning(r)
      if (zoneName) warnings.push({ index, ...zoneName })
    }
    const key = `${r.type}\u0000${r.host.toLowerCase()}\u0000${r.value}`
    const first = seen.get(key)
    if (first !== undefined) warnings.push({ index, code: 'dns.duplicate', params: { row: first + 1 }, fix: 'remove' })
    else seen.set(key, index)
    if (r.type === 'mx') {
      const target = splitValue('mx', r.value).target ?? ''
      if (isZoneRelativeName(target))
        warnings.push({ index, code: 'dns.mx.relative', params: { target }, field: 'target' })
    }
    if (r.type === 'cname' && isZoneRelativeName(r.value.trim()))
      warnings.push({ index, code: 'dns.cname.relative', params: { target: r.value.trim() }, field: 'value' })
    if (r.type !== 'txt' || !isSpf(r.value)) return
    const host = r.host.toLowerCase()
    const firstAt = firstSpf.get(host)
    if (firstAt === undefined) firstSpf.set(host, index)
    else warnings.push({ index, code: 'health.rule.spf.multiple.title', params: { count: spfCount.get(host) ?? 2 } })
  })
  return warnings
}
