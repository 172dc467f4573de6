/**
 * The DNS `records` string as data. The wire format is lines of `type host value`
 * (for example `a www 192.0.2.1`, `mx mail.example.com. 10`, `txt @ v=spf1 -all`).
 *
 * parse() turns every line into a row, and serialise() gives back exactly the text it was
 * given: a line the model does not understand (an unknown type, a comment, a blank line,
 * anything malformed) is kept as a raw row, verbatim, and an unchanged record keeps its
 * original text. Only rows the user edited or added are written in the canonical form.
 */

export const KNOWN_TYPES = ['a', 'aaaa', 'cname', 'mx', 'txt', 'srv', 'ns', 'caa', 'ptr'] as const
export type KnownType = (typeof KNOWN_TYPES)[number]

export interface RecordRow {
  kind: 'record'
  type: KnownType
  host: string
  value: string
  /** The line as it was read; kept while the row is unchanged, so the text round-trips exactly. */
  source?: string | undefined
}

export interface RawRow {
  kind: 'raw'
  /** The line exactly as it was. */
  text: string
  /** Why it is kept raw: blank, comment, or not understood. */
  reason: 'blank' | 'comment' | 'unknown'
}

export type Row = RecordRow | RawRow

const isKnown = (t: string): t is KnownType => (KNOWN_TYPES as readonly string[]).includes(t)

/** One line as a row. MX lines of the form `mx <mail server> <priority>` are for the apex. */
export function parseLine(line: string): Row {
  const body = line.replace(/\r$/, '').trim()
  if (body === '') return { kind: 'raw', text: line, reason: 'blank' }
  if (body.startsWith('#') || body.startsWith(';') || body.startsWith('//')) return { kind: 'raw', text: line, reason: 'comment' }
  const m = /^(\S+)\s+(\S+)\s+(\S.*)$/.exec(body)
  if (!m) return { kind: 'raw', text: line, reason: 'unknown' }
  const type = (m[1] as string).toLowerCase()
  if (!isKnown(type)) return { kind: 'raw', text: line, reason: 'unknown' }
  let host = m[2] as string
  let value = (m[3] as string).trim()
  if (type === 'mx' && /^\d+$/.test(value)) {
    value = `${host} ${value}`
    host = '@'
  }
  return { kind: 'record', type, host, value, source: line }
}

export function parse(text: string): Row[] {
  return text.split('\n').map(parseLine)
}

/** The canonical text of a record row (for rows without a source). */
export function formatRecord(r: Pick<RecordRow, 'type' | 'host' | 'value'>): string {
  return `${r.type} ${r.host} ${r.value}`
}

export function serialiseRow(r: Row): string {
  if (r.kind === 'raw') return r.text
  return r.source ?? formatRecord(r)
}

export function serialise(rows: Row[]): string {
  return rows.map(serialiseRow).join('\n')
}

/** An edited copy of a record: it loses its source text, so it is written canonically. */
export function editRecord(r: RecordRow, change: Partial<Pick<RecordRow, 'type' | 'host' | 'value'>>): RecordRow {
  const next = { kind: 'record' as const, type: change.type ?? r.type, host: change.host ?? r.host, value: change.value ?? r.value }
  return next.type === r.type && next.host === r.host && next.value === r.value ? r : next
}

/** What identifies a record for comparing two versions (case-insensitive type and host). */
export function recordKey(r: Pick<RecordRow, 'type' | 'host' | 'value'>): string {
  return `${r.type}\u0000${r.host.toLowerCase()}\u0000${r.value}`
}

export const records = (rows: Row[]): RecordRow[] => rows.filter((r): r is RecordRow => r.kind === 'record')
