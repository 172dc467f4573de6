/**
 * A zone read from a file, each record that means what a record of the live zone means spelt as
 * the live zone spells it. A zone file writes a record in its own way (a target in full with its
 * final dot where the service holds it relative, a TXT in quotes or \DDD escapes, an IDN host in
 * punycode, `mx @ <server> <priority>` as an MX of the apex), and a plan between the two would
 * name as changes records the service serves exactly alike: `dns check` of a zone against its own
 * export must find nothing. A record that means something else is left as the file has it.
 */
import { asciiName } from './ascii-name'
import { servedAs } from './bind'
import { splitValue, txtText, type RecordRow, type Row } from './records'

/** A name as an absolute, lower-case ASCII name without its final dot, as the service serves it in `zone`. */
function served(name: string, zone: string): string {
  const n = asciiName(name.trim()).toLowerCase()
  if (n === '@' || n === '') return zone
  if (n.endsWith('.')) return n.slice(0, -1)
  return `${n}.${zone}`
}

/** What a record means once served: type, owner and data, each as the DNS has them. */
function meaning(r: Pick<RecordRow, 'type' | 'host' | 'value'>, zone: string): string {
  const v = r.value.trim()
  let data: string
  switch (r.type) {
    case 'cname':
    case 'ns':
    case 'ptr':
      data = served(v, zone)
      break
    case 'mx': {
      const { priority, target } = splitValue('mx', v)
      data = `${Number(priority)} ${served(target ?? '', zone)}`
      break
    }
    case 'srv': {
      const { priority, weight, port, target } = splitValue('srv', v)
      data = `${Number(priority)} ${Number(weight)} ${Number(port)} ${target === '.' ? '.' : served(target ?? '', zone)}`
      break
    }
    case 'caa': {
      const { flags, tag, value } = splitValue('caa', v)
      data = `${Number(flags)} ${(tag ?? '').toLowerCase()} ${txtText(value ?? '')}`
      break
    }
    case 'txt':
      data = txtText(v)
      break
    default:
      data = v.toLowerCase()
  }
  return `${r.type}\u0000${served(r.host, zone)}\u0000${data}`
}

const rawKey = (text: string) => text.replace(/\r$/, '').trim()

/** The file's rows, each record that the live zone holds in meaning replaced by the live zone's own row. */
export function inServiceSpelling(fileRows: readonly Row[], liveRows: readonly Row[], zone: string): Row[] {
  const apex = asciiName(zone.replace(/\.$/, '')).toLowerCase()
  const pool = new Map<string, Row[]>()
  for (const r of liveRows) {
    const rec = servedAs(r)
    if (!rec) continue
    const k = meaning(rec, apex)
    pool.set(k, [...(pool.get(k) ?? []), r])
  }
  // A line the records model keeps raw (a comment, a form the service does not document) is the
  // live zone's own where the two differ only in the space around it or a CRLF line end: a file's
  // `; service line:` comment carries it back trimmed.
  const rawPool = new Map<string, Row[]>()
  for (const r of liveRows) {
    if (r.kind !== 'raw' || servedAs(r)) continue
    const k = rawKey(r.text)
    rawPool.set(k, [...(rawPool.get(k) ?? []), r])
  }
  // A raw line a file carried back (`; service line:`) that the live zone serves as a record is that record.
  const taken = new Set<Row>()
  const takeFrom = (candidates: Row[] | undefined, r: Row) => {
    const live = candidates?.find((x) => !taken.has(x))
    if (!live) return r
    taken.add(live)
    return live
  }
  return fileRows.map((r) => {
    const rec = r.kind === 'record' ? r : servedAs(r)
    if (rec) return takeFrom(pool.get(meaning(rec, apex)), r)
    return r.kind === 'raw' && r.reason !== 'blank' ? takeFrom(rawPool.get(rawKey(r.text)), r) : r
  })
}
