/**
 * BIND zone files to and from the records model, for the common record types. Anything
 * that cannot be converted is named in a report (codes with the line concerned) rather than
 * dropped silently.
 */
import type { Finding } from '../validation'
import { KNOWN_TYPES, type KnownType, type RecordRow, type Row } from './records'

export const BIND_CODES = ['bind.notExported', 'bind.directive', 'bind.outsideZone', 'bind.soa', 'bind.unsupportedType'] as const
export type BindCode = (typeof BIND_CODES)[number]
export type BindNote = Finding<BindCode>

export interface BindExport {
  text: string
  /** The records that could not be written as BIND records. */
  report: BindNote[]
}

export interface BindImport {
  rows: RecordRow[]
  /** The zone's TTL ($TTL or the first record TTL), if it had one. */
  ttl: number | undefined
  report: BindNote[]
}

const quote = (s: string) => (/^".*"$/.test(s) ? s : `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)

function bindValue(r: RecordRow): string {
  switch (r.type) {
    case 'mx': {
      const [target, prio] = r.value.split(/\s+/)
      return `${prio ?? '10'} ${target ?? ''}`
    }
    case 'txt':
      return quote(r.value)
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

export function fromBind(text: string, defaultOrigin: string): BindImport {
  let origin = defaultOrigin.replace(/\.$/, '').toLowerCase()
  let ttl: number | undefined
  let lastName = '@'
  const rows: RecordRow[] = []
  const report: BindNote[] = []

  const relative = (name: string): string | undefined => {
    if (name === '@') return '@'
    if (!name.endsWith('.')) return name
    const abs = name.slice(0, -1).toLowerCase()
    if (abs === origin) return '@'
    if (abs.endsWith(`.${origin}`)) return abs.slice(0, -(origin.length + 1))
    return undefined
  }

  for (const line of logicalLines(text)) {
    const startsBlank = /^\s/.test(line)
    const t = tokens(line.trim())
    if (t.length === 0) continue
    if (t[0] === '$ORIGIN') {
      origin = (t[1] ?? origin).replace(/\.$/, '').toLowerCase()
      continue
    }
    if (t[0] === '$TTL') {
      ttl = Number(t[1]) || ttl
      continue
    }
    if (t[0]?.startsWith('$')) {
      report.push({ code: 'bind.directive', params: { line: line.trim() } })
      continue
    }
    let i = 0
    let name = lastName
    if (!startsBlank) name = t[i++] as string
    // Optional TTL and class, in either order.
    for (let k = 0; k < 2; k++) {
      const tok = t[i]
      if (tok && /^\d+$/.test(tok)) {
        ttl ??= Number(tok)
        i++
      } else if (tok && CLASSES.has(tok.toUpperCase())) i++
    }
    const type = (t[i++] ?? '').toLowerCase()
    const rdata = t.slice(i)
    lastName = name
    const host = relative(name)
    if (host === undefined) {
      report.push({ code: 'bind.outsideZone', params: { origin, line: line.trim() } })
      continue
    }
    if (type === 'soa') {
      report.push({ code: 'bind.soa' })
      continue
    }
    if (!(KNOWN_TYPES as readonly string[]).includes(type) || rdata.length === 0) {
      report.push({ code: 'bind.unsupportedType', params: { type: type.toUpperCase() || '-', line: line.trim() } })
      continue
    }
    let value: string
    switch (type as KnownType) {
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
    rows.push({ kind: 'record', type: type as KnownType, host, value })
  }
  return { rows, ttl, report }
}
