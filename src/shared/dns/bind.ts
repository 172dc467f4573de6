/**
 * BIND zone files to and from the records model, for the common record types. Anything
 * that cannot be converted is named in a report (codes with the line concerned) rather than
 * dropped silently.
 */
import type { Finding } from '../service/validation'
import { piecesByBytes } from '../formats/byte-pieces'
import { asciiName } from './ascii-name'
import { isKnownType, parse, serialiseRow, splitValue, txtText, type RecordRow, type Row } from './records'
import { recordIssues } from './validate'

export const BIND_CODES = [
  'bind.notExported',
  'bind.keptAsComment',
  'bind.directive',
  'bind.outsideZone',
  'bind.soa',
  'bind.unsupportedType',
  'bind.ttlDiffers',
  'bind.mxNotApex',
  'bind.apexNsSame',
  'bind.apexNsDiffers',
] as const
export type BindCode = (typeof BIND_CODES)[number]
export type BindNote = Finding<BindCode>

export interface BindExport {
  text: string
  /** The records that could not be written as BIND records. */
  report: BindNote[]
}

export interface BindImport {
  rows: RecordRow[]
  /** Lines of the service's records format an export kept as comments (`; service line: ...`), read back as they were. */
  kept: Row[]
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
  /** The domain's nameservers: a file's apex NS records are compared with them and reported, never imported. */
  nameservers?: readonly string[] | undefined
}

export interface BindExportOptions {
  /** The domain's nameservers, written as the apex NS records (the service serves them; not editable as records). */
  nameservers?: readonly string[] | undefined
}

/** The comment an export writes for a line of the service's records format that BIND cannot express; an import reads it back. */
const SERVICE_LINE = '; service line: '

const utf8 = new TextEncoder()

/**
 * Text as one quoted string (RFC 1035 5.1): quotation marks and backslashes escaped, and every
 * byte outside printable ASCII written \DDD, so BIND reads the same bytes whatever its locale.
 */
function quoted(s: string): string {
  let out = ''
  for (const b of utf8.encode(s)) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`
    else if (b < 0x20 || b > 0x7e) out += `\\${String(b).padStart(3, '0')}`
    else out += String.fromCharCode(b)
  }
  return `"${out}"`
}

/** A quoted character-string's text: \DDD is the byte DDD, \X is X (RFC 1035 5.1); the bytes read as UTF-8. */
function unquote(token: string): string {
  const body = /^".*"$/s.test(token) ? token.slice(1, -1) : token
  const bytes: number[] = []
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? ''
    if (c === '\\' && /^\d{3}$/.test(body.slice(i + 1, i + 4))) {
      bytes.push(Number(body.slice(i + 1, i + 4)) & 0xff)
      i += 3
    } else if (c === '\\' && i + 1 < body.length) {
      i++
      bytes.push(...utf8.encode(body[i] ?? ''))
    } else bytes.push(...utf8.encode(c))
  }
  return new TextDecoder().decode(new Uint8Array(bytes))
}

/** A DNS character-string holds at most 255 bytes (RFC 1035 3.3). */
const MAX_STRING_BYTES = 255

/**
 * A TXT value as a zone file writes it: one quoted string, or, over 255 bytes (a 2048-bit
 * DKIM key), several quoted strings of at most 255 each, as the service itself serves a long
 * one-line value; resolvers join them again.
 */
function txtData(value: string): string {
  return piecesByBytes(txtText(value), () => MAX_STRING_BYTES)
    .map(quoted)
    .join(' ')
}

/**
 * A data name as the service holds it, for BIND: `@` and a name without a final dot are relative
 * to the zone in both (the service adds the domain to them, as BIND adds $ORIGIN), so they are
 * written as they are; only non-ASCII labels change (to punycode).
 */
const dataName = (name: string | undefined) => asciiName(name ?? '')

function bindValue(r: Pick<RecordRow, 'type' | 'value'>): string {
  switch (r.type) {
    case 'mx': {
      const { priority, target } = splitValue('mx', r.value)
      return `${priority || '10'} ${dataName(target)}`
    }
    case 'srv': {
      const { priority, weight, port, target } = splitValue('srv', r.value)
      return `${priority ?? ''} ${weight ?? ''} ${port ?? ''} ${dataName(target)}`
    }
    case 'caa': {
      const { flags, tag, value } = splitValue('caa', r.value)
      return `${flags ?? '0'} ${tag ?? ''} ${quoted(txtText(value ?? ''))}`
    }
    case 'cname':
    case 'ns':
    case 'ptr':
      return dataName(r.value.trim())
    case 'txt':
      return txtData(r.value)
    default:
      return r.value
  }
}

/**
 * A live row as the record it serves: a record, or the line the records model keeps raw (the
 * service's form cannot place it) that the service serves as the apex MX, `mx @ <server> <priority>`.
 * BIND writes it, served-against-saved asks for it, and a file's zone is spelt against it.
 */
export function servedAs(r: Row): Pick<RecordRow, 'type' | 'host' | 'value'> | undefined {
  if (r.kind === 'record') return r
  if (r.reason !== 'unplaced' || r.unplaced !== 'mx.withHost') return undefined
  const w = r.text.trim().split(/\s+/)
  return w[1] === '@' ? { type: 'mx', host: '@', value: `${w[2]} ${w[3]}` } : undefined
}

/**
 * Whether BIND loads a record as the service holds it. The service takes lines the app would not
 * write (a host with a final dot, an address that is not one, an SRV short of a part; issue 52),
 * and BIND refuses a zone holding one, or a CNAME beside other data at its name; those are kept
 * as comments instead. A TXT is always written (its text is quoted and escaped whatever it holds).
 */
function bindLoads(r: Pick<RecordRow, 'type' | 'host' | 'value'>, cnameShared: ReadonlySet<string>): boolean {
  if (r.type === 'cname' && cnameShared.has(r.host.toLowerCase())) return false
  return recordIssues(r).every((i) => i.code.startsWith('dns.txt.'))
}

/** The hosts where a CNAME is not alone (beside other types, or another CNAME target), which BIND refuses. */
function cnamesNotAlone(rows: Row[]): Set<string> {
  const atHost = new Map<string, Set<string>>()
  for (const r of rows) {
    const rec = servedAs(r)
    if (!rec) continue
    const host = rec.host.toLowerCase()
    atHost.set(
      host,
      (atHost.get(host) ?? new Set()).add(
        rec.type === 'cname' ? `cname ${asciiName(rec.value.trim()).toLowerCase()}` : rec.type,
      ),
    )
  }
  return new Set(
    [...atHost]
      .filter(([, kinds]) => kinds.size > 1 && [...kinds].some((k) => k.startsWith('cname ')))
      .map(([host]) => host),
  )
}

/**
 * The zone as a file BIND loads (named-checkzone accepts it): $ORIGIN, $TTL, the service's SOA
 * (marked as the service's: its serial and timers are not the user's to edit, and an import
 * ignores it), the domain's nameservers as the apex NS, then every record the service serves,
 * names in punycode. A line BIND cannot express is kept as a comment an import reads back.
 */
export function toBind(rows: Row[], origin: string, ttl = 3600, opts: BindExportOptions = {}): BindExport {
  const report: BindNote[] = []
  const apex = asciiName(origin.replace(/\.$/, ''))
  const ns = (opts.nameservers ?? []).map((n) => `${asciiName(n.replace(/\.$/, ''))}.`)
  const lines = [
    `$ORIGIN ${apex}.`,
    `$TTL ${ttl}`,
    "; The SOA is the service's own: not editable here, and an import ignores it.",
    `@ IN SOA ${ns[0] ?? `${apex}.`} hostmaster.${apex}. ( 1 3600 900 604800 ${ttl} )`,
    ...(ns.length
      ? ["; The domain's nameservers, as the service serves them: an import compares them, never imports them."]
      : []),
    ...ns.map((n) => `@ IN NS ${n}`),
  ]
  const cnameShared = cnamesNotAlone(rows)
  for (const r of rows) {
    if (r.kind === 'raw' && r.reason === 'blank') continue
    const served = servedAs(r)
    if (served && bindLoads(served, cnameShared)) {
      lines.push(`${asciiName(served.host)} IN ${served.type.toUpperCase()} ${bindValue(served)}`)
      continue
    }
    const line = serialiseRow(r).trim()
    if (r.kind === 'record' || served) report.push({ code: 'bind.keptAsComment', params: { line } })
    else if (r.reason === 'unknown' || r.reason === 'unplaced')
      report.push({ code: 'bind.notExported', params: { line } })
    // Kept as written, so that an import of this file gives the zone back unchanged.
    lines.push(`${SERVICE_LINE}${line}`)
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
  const kept: Row[] = []
  const apexNs: string[] = []
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(SERVICE_LINE)
    if (at >= 0 && line.slice(0, at).trim() === '') kept.push(...parse(line.slice(at + SERVICE_LINE.length)))
  }

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
    // The apex NS are the domain's nameservers, set apart from the records: compared, never imported.
    if (type === 'ns' && host === '@') {
      if (rdata[0]) apexNs.push(absolute(rdata[0]))
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
        value = rdata.map(unquote).join('')
        break
      default:
        value = rdata.join(' ')
    }
    rows.push({ kind: 'record', type, host, value })
  }
  if (apexNs.length > 0) {
    const norm = (n: string) => asciiName(n.replace(/\.$/, '').toLowerCase())
    const given = [...new Set(apexNs.map(norm))].sort()
    const domain = [...new Set((opts.nameservers ?? []).map(norm))].sort()
    const same = given.length === domain.length && given.every((n, i) => n === domain[i])
    report.push({
      code: same ? 'bind.apexNsSame' : 'bind.apexNsDiffers',
      params: { file: given.join(', '), domain: domain.join(', ') || '-' },
    })
  }
  return { rows, kept, ttl: zoneTtl, report }
}
