/**
 * BIND zone files to and from the records model, for the common record types. Anything
 * that cannot be converted is named in a report (codes with the line concerned) rather than
 * dropped silently.
 */
import type { Finding } from '../service/validation'
import { isKnownType, splitValue, txtText, type RecordRow, type Row } from './records'

export const BIND_CODES = ['bind.notExported', 'bind.directive', 'bind.outsideZone', 'bind.soa', 'bind.unsupportedType', 'bind.ttlDiffers', 'bind.mxNotApex'] as const
export type BindCode = (typeof BIND_CODES)[number]
export type BindNote = Finding<BindCode>

export interface BindExport {
  text: string
  /** The records that could not be written as BIND records. */
  report: BindNote[]
}

export interface BindImport {
  rows: RecordRow[]
  /** The zone's TTL (the first $TTL, or else the first record's TTL), if it had one. */
  ttl: number | undefined
  report: BindNote[]
}

export interface BindImportOptions {
  /**
   * The one TTL the records will get (the service keeps one per zone), when it is not the
   * file's own: a merge into a zone keeps that zone's TTL.
   */
  zoneTtl?: number | undefined
}

/** Text as one quoted string, its quotation marks and backslashes escaped. */
const quoted = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
const quote = (s: string) => (/^".*"$/.test(s) ? s : quoted(s))
const utf8 = new TextEncoder()

/** A DNS character-string holds at most 255 bytes (RFC 1035 3.3). */
const MAX_STRING_BYTES = 255

/** Text cut into pieces of at most 255 bytes, never inside a character. */
function byteChunks(text: string): string[] {
  const out: string[] = []
  let piece = ''
  let bytes = 0
  for (const ch of text) {
    const n = utf8.encode(ch).length
    if (bytes + n > MAX_STRING_BYTES) {
      out.push(piece)
      piece = ''
      bytes = 0
    }
    piece += ch
    bytes += n
  }
  if (piece !== '' || out.length === 0) out.push(piece)
  return out
}

/**
 * A TXT value as a zone file writes it: one quoted string, or, over 255 bytes (a 2048-bit
 * DKIM key), several quoted strings of at most 255 each, as the service itself serves a long
 * one-line value; resolvers join them again.
 */
function txtData(value: string): string {
  const text = txtText(value)
  if (utf8.encode(text).length <= MAX_STRING_BYTES) return quote(value)
  return byteChunks(text).map(quoted).join(' ')
}

function bindValue(r: RecordRow): string {
  switch (r.type) {
    case 'mx': {
      const { priority, target } = splitValue('mx', r.value)
      return `${priority || '10'} ${target ?? ''}`
    }
    case 'txt':
      return txtData(r.value)
    default:
      return r.value
  }
}

export function toBind(rows: Row[], origin: string, ttl = 3600): BindExport {
  const report: BindNote[] = []
  const lines = [`$ORIGIN ${origin.replace(/\.$/, '')}.`, `$TTL ${ttl}`]
  for (const r of rows) {
    if (r.kind === 'raw') {
      if (r.reason === 'unknown') {
        report.push({ code: 'bind.notExported', params: { line: r.text.trim() } })
        lines.push(`; not exported: ${r.text.trim()}`)
      }
      continue
    }
    lines.push(`${r.host} IN ${r.type.toUpperCase()} ${bindValue(r)}`)
  }
  return { text: `${lines.join('\n')}\n`, report }
}

/** Joins parenthesised continuation lines and strips comments (outside quotes). */
function logicalLines(text: string): string[] {
  const out: string[] = []
  let buf = ''
  let depth = 0
  for (const raw of text.split(/\r?\n/)) {
    let line = ''
    let inQuote = false
    for (let i = 0; i < raw.length; i++) {
      const c = raw[i]
      if (c === '\\' && inQuote) {
        line += c + (raw[i + 1] ?? '')
        i++
        continue
      }
      if (c === '"') inQuote = !inQuote
      if (c === ';' && !inQuote) break
      if (!inQuote && c === '(') {
        depth++
        line += ' '
        continue
      }
      if (!inQuote && c === ')') {
        depth = Math.max(0, depth - 1)
        line += ' '
        continue
      }
      line += c
    }
    buf = buf ? `${buf} ${line.trim()}` : line
    if (depth === 0) {
      if (buf.trim()) out.push(buf)
      buf = ''
    }
  }
  if (buf.trim()) out.push(buf)
  return out
}

/** Tokens of a line, keeping quoted strings whole. */
function tokens(line: string): string[] {
  return line.match(/"(?:[^"\\]|\\.)*"|\S+/g) ?? []
}

const CLASSES = new Set(['IN', 'CH', 'HS'])

/** A TTL in seconds: 3600, or with units as BIND writes them (1h, 1h30m, 2d, 1w). */
function ttlSeconds(tok: string): number | undefined {
  if (/^\d+$/.test(tok)) return Number(tok)
  if (!/^(\d+[smhdw])+$/i.test(tok)) return undefined
  const unit: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 }
  let total = 0
  for (const [, n, u] of tok.matchAll(/(\d+)([smhdw])/gi)) total += Number(n) * (unit[(u ?? '').toLowerCase()] ?? 0)
  return total
}

/** The parts of each type's data that are domain names, which a zone file may write relative to $ORIGIN. */
const NAME_AT: Partial<Record<string, number>> = { cname: 0, ns: 0, ptr: 0, mx: 1, srv: 3 }

/**
 * A zone file as records of the zone `zone`. Names are read as BIND reads them: `@` is the
 * current $ORIGIN (at first the zone), and a name without a final dot is relative to it, in
 * the host column (`www`) and in the data (`CNAME @`, `MX 10 mail`). Data names are written
 * out in full (`www.example.com.`); hosts relative to the zone (`www`, `@`).
 */
export function fromBind(text: string, zone: string, opts: BindImportOptions = {}): BindImport {
  const apex = zone.replace(/\.$/, '').toLowerCase()
  let origin = apex
  let defaultTtl: number | undefined
  let lastTtl: number | undefined
  let zoneTtl = opts.zoneTtl
  let lastOwner = apex
  const rows: RecordRow[] = []
  const report: BindNote[] = []

  const absolute = (name: string): string => {
    if (name === '@') return origin
    if (name.endsWith('.')) return name.slice(0, -1).toLowerCase()
    return origin ? `${name.toLowerCase()}.${origin}` : name.toLowerCase()
  }
  const hostInZone = (abs: string): string | undefined => {
    if (abs === apex) return '@'
    if (abs.endsWith(`.${apex}`)) return abs.slice(0, -(apex.length + 1))
    return undefined
  }
  const fullName = (name: string) => (name === '.' ? '.' : `${absolute(name)}.`)

  for (const line of logicalLines(text)) {
    const startsBlank = /^\s/.test(line)
    const t = tokens(line.trim())
    if (t.length === 0) continue
    if (t[0]?.toUpperCase() === '$ORIGIN') {
      origin = t[1] ? absolute(t[1]) : origin
      continue
    }
    if (t[0]?.toUpperCase() === '$TTL') {
      const n = ttlSeconds(t[1] ?? '')
      if (n !== undefined) {
        defaultTtl = n
        zoneTtl ??= n
      }
      continue
    }
    if (t[0]?.startsWith('$')) {
      report.push({ code: 'bind.directive', params: { line: line.trim() } })
      continue
    }
    let i = 0
    const owner = startsBlank ? lastOwner : absolute(t[i++] ?? '')
    lastOwner = owner
    // Optional TTL and class, in either order.
    let ttl: number | undefined
    for (let k = 0; k < 2; k++) {
      const tok = t[i]
      const n = tok === undefined ? undefined : ttlSeconds(tok)
      if (n !== undefined) {
        ttl = n
        i++
      } else if (tok && CLASSES.has(tok.toUpperCase())) i++
    }
    const type = (t[i++] ?? '').toLowerCase()
    const rdata = t.slice(i)
    const host = hostInZone(owner)
    if (host === undefined) {
      report.push({ code: 'bind.outsideZone', params: { origin: apex, line: line.trim() } })
      continue
    }
    if (type === 'soa') {
      report.push({ code: 'bind.soa' })
      continue
    }
    // The service's MX form has no host: an MX belongs to the zone itself.
    if (type === 'mx' && host !== '@') {
      report.push({ code: 'bind.mxNotApex', params: { host, line: line.trim() } })
      continue
    }
    if (!isKnownType(type) || rdata.length === 0) {
      report.push({ code: 'bind.unsupportedType', params: { type: type.toUpperCase() || '-', line: line.trim() } })
      continue
    }
    // Without $TTL, a record without a TTL has the last one stated (RFC 1035 5.1).
    const effective = ttl ?? defaultTtl ?? lastTtl
    if (ttl !== undefined) lastTtl = ttl
    zoneTtl ??= effective
    if (effective !== undefined && zoneTtl !== undefined && effective !== zoneTtl) {
      report.push({ code: 'bind.ttlDiffers', params: { ttl: effective, zoneTtl, line: line.trim() } })
    }
    const at = NAME_AT[type]
    const named = at === undefined ? undefined : rdata[at]
    if (at !== undefined && named !== undefined) rdata[at] = fullName(named)
    let value: string
    switch (type) {
      case 'mx':
        value = `${rdata[1] ?? ''} ${rdata[0] ?? ''}`
        break
      case 'txt':
        // One TXT value may come as several quoted strings; they are joined.
        value = rdata.map((s) => s.replace(/^"|"$/g, '').replace(/\\(.)/g, '$1')).join('')
        break
      default:
        value = rdata.join(' ')
    }
    rows.push({ kind: 'record', type, host, value })
  }
  return { rows, ttl: zoneTtl, report }
}
