/**
 * The DNS `records` string as data. The wire format is lines of `type host value`
 * (for example `a www 192.0.2.1`, `mx mail.example.com. 10`, `txt @ v=spf1 -all`).
 *
 * parse() turns every line into a row, and serialise() gives back exactly the text it was
 * given: a line the model does not understand (an unknown type, a comment, a blank line,
 * anything malformed) is kept as a raw row, verbatim, and an unchanged record keeps its
 * original text. Only rows the user edited or added are written in the canonical form.
 *
 * A value with several parts (MX, SRV, CAA) is still one string, in the service's order;
 * splitValue() and joinValue() give its parts for a form with a field each.
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
  /**
   * The value's parts as they were typed into a form, when the text alone cannot give them
   * back: an SRV with its weight still empty is `10 5060`, which reads as weight 5060.
   */
  parts?: ValueFields | undefined
}

export interface RawRow {
  kind: 'raw'
  /** The line exactly as it was. */
  text: string
  /** Why it is kept raw: blank, comment, or not understood. */
  reason: 'blank' | 'comment' | 'unknown'
}

export type Row = RecordRow | RawRow

export const isKnownType = (t: string): t is KnownType => (KNOWN_TYPES as readonly string[]).includes(t)

/** One line as a row. MX lines of the form `mx <mail server> <priority>` are for the apex. */
export function parseLine(line: string): Row {
  const body = line.replace(/\r$/, '').trim()
  if (body === '') return { kind: 'raw', text: line, reason: 'blank' }
  if (body.startsWith('#') || body.startsWith(';') || body.startsWith('//')) return { kind: 'raw', text: line, reason: 'comment' }
  const m = /^(\S+)\s+(\S+)\s+(\S.*)$/.exec(body)
  if (!m) return { kind: 'raw', text: line, reason: 'unknown' }
  const type = (m[1] as string).toLowerCase()
  if (!isKnownType(type)) return { kind: 'raw', text: line, reason: 'unknown' }
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

const sameParts = (a: ValueFields | undefined, b: ValueFields | undefined) =>
  a === b || (!!a && !!b && Object.keys({ ...a, ...b }).every((k) => a[k as ValueField] === b[k as ValueField]))

/**
 * An edited copy of a record: it loses its source text, so it is written canonically. Its
 * value's parts are kept only while the type and value are those they were typed for.
 */
export function editRecord(r: RecordRow, change: Partial<Pick<RecordRow, 'type' | 'host' | 'value' | 'parts'>>): RecordRow {
  const type = change.type ?? r.type
  const value = change.value ?? r.value
  const parts = change.parts ?? (type === r.type && value === r.value ? r.parts : undefined)
  if (type === r.type && (change.host ?? r.host) === r.host && value === r.value && sameParts(parts, r.parts)) return r
  return { kind: 'record', type, host: change.host ?? r.host, value, ...(parts ? { parts } : {}) }
}

/** The parts of a record's value: as typed, or else read from its text. */
export const partsOf = (r: RecordRow): ValueFields => r.parts ?? splitValue(r.type, r.value)

/** What identifies a record for comparing two versions (case-insensitive type and host). */
export function recordKey(r: Pick<RecordRow, 'type' | 'host' | 'value'>): string {
  return `${r.type}\u0000${r.host.toLowerCase()}\u0000${r.value}`
}

export const records = (rows: Row[]): RecordRow[] => rows.filter((r): r is RecordRow => r.kind === 'record')

// ------------------------------------------------------------------ parts of a value

/** The parts a value is made of, per type; a type with one part has just `value`. */
export type ValueField = 'value' | 'priority' | 'weight' | 'port' | 'target' | 'flags' | 'tag'
export type ValueFields = Partial<Record<ValueField, string>>

export const VALUE_FIELDS: Record<KnownType, readonly ValueField[]> = {
  a: ['value'],
  aaaa: ['value'],
  cname: ['value'],
  ns: ['value'],
  ptr: ['value'],
  txt: ['value'],
  // The service writes an MX value mail server first: `mx @ mail.example.com. 10`.
  mx: ['priority', 'target'],
  srv: ['priority', 'weight', 'port', 'target'],
  caa: ['flags', 'tag', 'value'],
}

const UINT = /^\d+$/
const words = (v: string) => v.trim().split(/\s+/).filter(Boolean)

/** A CAA value without its quotation marks (and their escapes), as a person types it. */
function unquoteCaa(v: string): string {
  const m = /^"((?:[^"\\]|\\.)*)"$/.exec(v)
  return m ? (m[1] as string).replace(/\\(.)/g, '$1') : v
}
const quoteCaa = (v: string) => (v === '' ? '' : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)

/**
 * The parts of a value. MX is read in either order (`mail.example.com. 10` as the service
 * writes it, or `10 mail.example.com.` as zone files do); SRV and CAA by position.
 */
export function splitValue(type: KnownType, value: string): ValueFields {
  switch (type) {
    case 'mx': {
      const w = words(value)
      if (w.length === 1) return UINT.test(w[0] as string) ? { priority: w[0], target: '' } : { priority: '', target: w[0] }
      if (w.length === 2 && UINT.test(w[0] as string) && !UINT.test(w[1] as string)) return { priority: w[0], target: w[1] }
      return { target: w[0] ?? '', priority: w.slice(1).join(' ') }
    }
    case 'srv': {
      const w = words(value)
      return { priority: w[0] ?? '', weight: w[1] ?? '', port: w[2] ?? '', target: w.slice(3).join(' ') }
    }
    case 'caa': {
      const m = /^(\S*)\s*(\S*)\s*([\s\S]*)$/.exec(value.trim())
      return { flags: m?.[1] ?? '', tag: m?.[2] ?? '', value: unquoteCaa(m?.[3] ?? '') }
    }
    default:
      return { value }
  }
}

/** A value from its parts, in the service's order (parts left empty are left out). */
export function joinValue(type: KnownType, f: ValueFields): string {
  const join = (...parts: (string | undefined)[]) =>
    parts
      .map((p) => (p ?? '').trim())
      .filter(Boolean)
      .join(' ')
  switch (type) {
    case 'mx':
      return join(f.target, f.priority)
    case 'srv':
      return join(f.priority, f.weight, f.port, f.target)
    case 'caa':
      return join(f.flags, f.tag, quoteCaa((f.value ?? '').trim()))
    default:
      return (f.value ?? '').trim()
  }
}

/**
 * A record as the service writes it: an MX given priority first (`mx @ 10 mail.example.com.`,
 * or `mx 10 mail.example.com.` for the apex) becomes `mx @ mail.example.com. 10`. Anything
 * else is returned as it is (the same object), so its text is kept.
 */
export function normaliseRecord(r: RecordRow): RecordRow {
  if (r.type !== 'mx') return r
  if (UINT.test(r.host) && words(r.value).length === 1 && !UINT.test(r.value.trim())) {
    return editRecord(r, { host: '@', value: `${r.value.trim()} ${r.host}` })
  }
  const w = words(r.value)
  if (w.length === 2 && UINT.test(w[0] as string) && !UINT.test(w[1] as string)) return editRecord(r, { value: `${w[1]} ${w[0]}` })
  return r
}

export const normaliseRows = (rows: Row[]): Row[] => rows.map((r) => (r.kind === 'record' ? normaliseRecord(r) : r))

// ------------------------------------------------------------------ merging

/** A TXT value without the quotation marks around it (one quoted string, or several joined). */
export function txtText(value: string): string {
  const strings = value.match(/"(?:[^"\\]|\\.)*"/g)
  if (!strings || strings.join('') !== value.replace(/"\s+"/g, '""')) return value
  return strings.map((s) => s.slice(1, -1).replace(/\\(.)/g, '$1')).join('')
}

const NAME_VALUED: ReadonlySet<KnownType> = new Set(['cname', 'ns', 'ptr', 'mx', 'srv'])

/**
 * What makes two records the same record for an import: type, host and value, with host
 * names compared without case, a TXT value with or without its quotation marks, a CAA value
 * with or without them, and any spacing.
 */
export function sameRecordKey(r: Pick<RecordRow, 'type' | 'host' | 'value'>): string {
  const v = normaliseRecord({ kind: 'record', type: r.type, host: r.host, value: r.value })
  let value = words(v.value).join(' ')
  if (r.type === 'txt') value = txtText(r.value.trim())
  else if (r.type === 'caa') value = joinValue('caa', splitValue('caa', value)).toLowerCase()
  else if (NAME_VALUED.has(r.type)) value = value.toLowerCase()
  return `${r.type}\u0000${v.host.toLowerCase()}\u0000${value}`
}

export interface Merge {
  rows: Row[]
  /** Records added, and records left out because the rows already had them. */
  added: RecordRow[]
  skipped: RecordRow[]
}

/** Adds the records not already in the rows (each once), after the last record; the rows stay as they were. */
export function mergeRecords(rows: Row[], incoming: RecordRow[]): Merge {
  const have = new Set(records(rows).map(sameRecordKey))
  const added: RecordRow[] = []
  const skipped: RecordRow[] = []
  for (const r of incoming) {
    const k = sameRecordKey(r)
    if (have.has(k)) skipped.push(r)
    else {
      have.add(k)
      added.push(r)
    }
  }
  const next = [...rows]
  // A trailing blank line (the text's final newline) stays last.
  let at = next.length
  while (at > 0 && next[at - 1]?.kind === 'raw' && (next[at - 1] as RawRow).reason === 'blank') at--
  next.splice(at, 0, ...added)
  return { rows: next, added, skipped }
}
