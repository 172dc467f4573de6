/**
 * The DNS `records` string as data. The wire format is lines of `type host value`
 * (for example `a www 192.0.2.1`, `txt @ v=spf1 -all`), except MX: the service's form is
 * `mx <mail server> <priority>` (three words, the MX belongs to the zone itself), and
 * `mx @ 10` makes the domain its own mail server (the service's record syntax page,
 * value-domain.com/moddnsfree.php, as quoted in dns-lexicon's valuedomain provider).
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

/**
 * A line of a known type in a shape the service does not document, so the app cannot place
 * it: an MX written priority first (`mx 10 mail.example.com.`), or with a host
 * (`mx @ mail.example.com. 10`, `mx www mail.example.com. 10`), or otherwise not
 * `mx <mail server> <priority>`.
 */
export type Unplaced = 'mx.priorityFirst' | 'mx.withHost' | 'mx.shape'

export interface RawRow {
  kind: 'raw'
  /** The line exactly as it was. */
  text: string
  /** Why it is kept raw: blank, comment, an unknown type or shape, or a known type the service's form cannot place. */
  reason: 'blank' | 'comment' | 'unknown' | 'unplaced'
  /** For an unplaced line: what is wrong with its shape. */
  unplaced?: Unplaced | undefined
}

export type Row = RecordRow | RawRow

export const isKnownType = (t: string): t is KnownType => KNOWN_TYPES.some((k) => k === t)

const UINT = /^\d+$/

/**
 * An MX line's words after `mx`, as the service's form reads them: `<mail server> <priority>`
 * is the zone's MX (`@` as the server: the domain itself); anything else cannot be placed.
 */
function mxRow(line: string, words: string[]): Row {
  const [server, priority] = words
  if (words.length === 2 && !UINT.test(server ?? '') && UINT.test(priority ?? '')) {
    return { kind: 'record', type: 'mx', host: '@', value: `${server} ${priority}`, source: line }
  }
  const unplaced: Unplaced =
    words.length === 2 && UINT.test(server ?? '') && !UINT.test(priority ?? '')
      ? 'mx.priorityFirst'
      : words.length === 3 && !UINT.test(words[1] ?? '') && UINT.test(words[2] ?? '')
        ? 'mx.withHost'
        : 'mx.shape'
  return { kind: 'raw', text: line, reason: 'unplaced', unplaced }
}

/** One line as a row. */
function parseLine(line: string): Row {
  const body = line.replace(/\r$/, '').trim()
  if (body === '') return { kind: 'raw', text: line, reason: 'blank' }
  if (body.startsWith('#') || body.startsWith(';') || body.startsWith('//'))
    return { kind: 'raw', text: line, reason: 'comment' }
  const [, typeWord, host, value] = /^(\S+)\s+(\S+)\s+(\S.*)$/.exec(body) ?? []
  if (typeWord === undefined || host === undefined || value === undefined)
    return { kind: 'raw', text: line, reason: 'unknown' }
  const type = typeWord.toLowerCase()
  if (!isKnownType(type)) return { kind: 'raw', text: line, reason: 'unknown' }
  if (type === 'mx') return mxRow(line, body.split(/\s+/).slice(1))
  return { kind: 'record', type, host, value: value.trim(), source: line }
}

export function parse(text: string): Row[] {
  return text.split('\n').map(parseLine)
}

/**
 * The canonical text of a record row (for rows without a source). An MX is written in the
 * service's form, `mx <mail server> <priority>`; one with a host other than the apex cannot
 * be (validation refuses it), and is written with its host so that nothing typed is lost.
 */
function formatRecord(r: Pick<RecordRow, 'type' | 'host' | 'value'>): string {
  if (r.type === 'mx' && r.host === '@') return `mx ${r.value}`
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
  a === b || (!!a && !!b && ALL_VALUE_FIELDS.every((k) => a[k] === b[k]))

/**
 * An edited copy of a record: it loses its source text, so it is written canonically. Its
 * value's parts are kept only while the type and value are those they were typed for.
 */
export function editRecord(
  r: RecordRow,
  change: Partial<Pick<RecordRow, 'type' | 'host' | 'value' | 'parts'>>,
): RecordRow {
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
const ALL_VALUE_FIELDS: readonly ValueField[] = ['value', 'priority', 'weight', 'port', 'target', 'flags', 'tag']

export const VALUE_FIELDS: Record<KnownType, readonly ValueField[]> = {
  a: ['value'],
  aaaa: ['value'],
  cname: ['value'],
  ns: ['value'],
  ptr: ['value'],
  txt: ['value'],
  // The service writes an MX mail server first: `mx mail.example.com. 10`.
  mx: ['priority', 'target'],
  srv: ['priority', 'weight', 'port', 'target'],
  caa: ['flags', 'tag', 'value'],
}

const words = (v: string) => v.trim().split(/\s+/).filter(Boolean)

/** A CAA value without its quotation marks (and their escapes), as a person types it. */
function unquoteCaa(v: string): string {
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(v)?.[1]
  return quoted === undefined ? v : quoted.replace(/\\(.)/g, '$1')
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
      if (w.length === 1) return UINT.test(w[0] ?? '') ? { priority: w[0], target: '' } : { priority: '', target: w[0] }
      if (w.length === 2 && UINT.test(w[0] ?? '') && !UINT.test(w[1] ?? '')) return { priority: w[0], target: w[1] }
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
 * The one-click mends of a line the service's form cannot place, where there is one: an MX
 * written priority first is turned round, and an MX written with the apex as its host loses
 * the host. An MX for a subdomain has none (the form cannot express it).
 */
export function placeLine(r: RawRow): RecordRow | undefined {
  const w = words(r.text).slice(1)
  if (r.unplaced === 'mx.priorityFirst') return { kind: 'record', type: 'mx', host: '@', value: `${w[1]} ${w[0]}` }
  if (r.unplaced === 'mx.withHost' && w[0] === '@')
    return { kind: 'record', type: 'mx', host: '@', value: `${w[1]} ${w[2]}` }
  return undefined
}

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
  let value = words(r.value).join(' ')
  if (r.type === 'txt') value = txtText(r.value.trim())
  else if (r.type === 'caa') value = joinValue('caa', splitValue('caa', value)).toLowerCase()
  else if (r.type === 'mx') value = joinValue('mx', splitValue('mx', value)).toLowerCase()
  else if (NAME_VALUED.has(r.type)) value = value.toLowerCase()
  return `${r.type}\u0000${r.host.toLowerCase()}\u0000${value}`
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
  const isBlankLine = (row: Row | undefined) => row?.kind === 'raw' && row.reason === 'blank'
  while (at > 0 && isBlankLine(next[at - 1])) at--
  next.splice(at, 0, ...added)
  return { rows: next, added, skipped }
}
