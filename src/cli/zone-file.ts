/**
 * A zone as a file (DNS as code): the service's records format, or a BIND zone file, read into
 * the records text the service takes, with the TTL a BIND file names. The whole file is the zone:
 * what it leaves out is removed.
 */
import { fromBind, toBind } from '@shared/dns/bind'
import { isKnownType, parse, serialise, type Row } from '@shared/dns/records'
import { inServiceSpelling } from '@shared/dns/service-spelling'
import { hiddenCharacterIssue } from '@shared/dns/hidden-characters'
import { validateRows as validateRowsOf, type RowIssue } from '@shared/dns/validate'
import type { Finding } from '@shared/service/validation'

export type ZoneFormat = 'records' | 'bind'

const CLASSES = /^(IN|CH|HS)$/i
const TTL = /^(\d+|(\d+[smhdw])+)$/i

/**
 * What one line says of its format: a records line starts with a type (`a www 192.0.2.1`); a BIND
 * line starts with a directive, with blank (the owner of the line before), or has its type after an
 * owner, a TTL or a class (`www 3600 IN A ...`, `www A ...`). A line both could be says nothing.
 */
function lineVotes(line: string): { records: boolean; bind: boolean } {
  const body = line.replace(/\r$/, '')
  const w = body.trim().split(/\s+/)
  const first = (w[0] ?? '').toLowerCase()
  if (w[0] === undefined || w[0] === '' || /^(;|#|\/\/)/.test(w[0])) return { records: false, bind: false }
  if (first.startsWith('$')) return { records: false, bind: true }
  // `a mx 192.0.2.1` (a host named like a type) is a records line and a BIND one (owner a, type MX) alike.
  const records = isKnownType(first) && w.length >= 3 && !CLASSES.test(w[1] ?? '')
  let i = /^\s/.test(body) ? 0 : 1
  for (let k = 0; k < 2 && i < w.length; k++) if (TTL.test(w[i] ?? '') || CLASSES.test(w[i] ?? '')) i++
  const bind = /^\s/.test(body) || isKnownType((w[i] ?? '').toLowerCase()) || (w[i] ?? '').toLowerCase() === 'soa'
  return { records: records && !bind, bind: bind && !records }
}

/**
 * The format of a zone file, decided by its content, never by guessing one when the text is the
 * other: 'unsure' when its lines do not all say the same (the caller asks for --format).
 */
export function formatOf(text: string, asked?: ZoneFormat): ZoneFormat | 'unsure' {
  if (asked) return asked
  let records = 0
  let bind = 0
  let neither = 0
  // Parenthesised continuations belong to the line before (an SOA over several lines).
  for (const line of text.replace(/\([^)]*\)/g, (m) => m.replace(/\n/g, ' ')).split('\n')) {
    if (line.trim() === '' || /^\s*(;|#|\/\/)/.test(line)) continue
    const v = lineVotes(line)
    if (v.records) records++
    else if (v.bind) bind++
    else neither++
  }
  // A line neither reads (an unknown type) is kept raw by the records format and reported by BIND's.
  if (records > 0 && bind === 0) return 'records'
  if (bind > 0 && records === 0) return 'bind'
  // No record at all: an empty zone, the same in both.
  if (records + bind + neither === 0) return 'records'
  return 'unsure'
}

export interface ZoneFromFile {
  records: string
  rows: Row[]
  ttl: number | undefined
  /** What the BIND reading could not carry over, or compared and reported (each a code and parameters). */
  notes: Finding[]
  /** Records the service would refuse. */
  issues: RowIssue[]
}

export interface LiveZone {
  /** The zone's records text as the service holds it. */
  records: string
  ttl: number | undefined
  /** The domain's nameservers, which a BIND file's apex NS are compared with. */
  nameservers?: readonly string[] | undefined
}

export function readZoneFile(text: string, domain: string, format: ZoneFormat, live: LiveZone): ZoneFromFile {
  // A line the zone already holds is kept as it is, as the window keeps it: never refused by a check against the zone itself.
  const liveRows = parse(live.records)
  const kept = new Set(live.records.split('\n'))
  const validateRows = (rows: Row[]) => validateRowsOf(rows, { kept })
  // A character that hides or splits a line, in either format: refused at its place in the file, before it is read as records.
  const hidden = hiddenCharacterIssue(text)
  if (hidden)
    return { records: '', rows: [], ttl: live.ttl, notes: [], issues: [{ index: hidden.params.line - 1, ...hidden }] }
  if (format === 'bind') {
    const imported = fromBind(text, domain, { nameservers: live.nameservers })
    // A record the live zone serves alike keeps the live zone's spelling: an export read back is no change.
    const rows = inServiceSpelling([...imported.rows, ...imported.kept], liveRows, domain)
    return {
      records: serialise(rows),
      rows,
      ttl: imported.ttl ?? live.ttl,
      notes: imported.report,
      issues: validateRows(rows),
    }
  }
  // As written, line for line: a line the app cannot place is kept as it is, as the editor keeps it.
  const rows = parse(text.replace(/\r\n/g, '\n').replace(/\n+$/, ''))
  return { records: serialise(rows), rows, ttl: live.ttl, notes: [], issues: validateRows(rows) }
}

/** The zone as a BIND file (what cannot be written as BIND is in `notes`). */
export function zoneAsBind(
  recordsText: string,
  domain: string,
  ttl: number | undefined,
  nameservers?: readonly string[],
): { text: string; notes: Finding[] } {
  const exported = toBind(parse(recordsText), domain, ttl, { nameservers })
  return { text: exported.text, notes: exported.report }
}
