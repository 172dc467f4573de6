/**
 * A zone as a file (DNS as code): the service's records format, or a BIND zone file, read into
 * the records text the service takes, with the TTL a BIND file names. The whole file is the zone:
 * what it leaves out is removed.
 */
import { fromBind, toBind } from '../shared/dns/bind'
import { parse, serialise, type Row } from '../shared/dns/records'
import { validateRows, type RowIssue } from '../shared/dns/validate'
import type { Finding } from '../shared/service/validation'

export type ZoneFormat = 'records' | 'bind'

/** A BIND file names $ORIGIN or $TTL, or writes a class (IN) before the type; the records format does neither. */
export function formatOf(text: string, asked?: ZoneFormat): ZoneFormat {
  if (asked) return asked
  return /^\s*\$(ORIGIN|TTL)\b/im.test(text) || /^\S*\s+(\d+[smhdw]?\s+)?IN\s+[A-Za-z]+\s/im.test(text) ? 'bind' : 'records'
}

export interface ZoneFromFile {
  records: string
  rows: Row[]
  ttl: number | undefined
  /** What the BIND reading could not carry over (each a code and parameters). */
  notes: Finding[]
  /** Records the service would refuse. */
  issues: RowIssue[]
}

export function readZoneFile(text: string, domain: string, format: ZoneFormat, zoneTtl: number | undefined): ZoneFromFile {
  if (format === 'bind') {
    const imported = fromBind(text, domain)
    const rows: Row[] = imported.rows
    return { records: serialise(rows), rows, ttl: imported.ttl ?? zoneTtl, notes: imported.report, issues: validateRows(rows) }
  }
  // As written, line for line: a line the app cannot place is kept as it is, as the editor keeps it.
  const rows = parse(text.replace(/\r\n/g, '\n').replace(/\n+$/, ''))
  return { records: serialise(rows), rows, ttl: zoneTtl, notes: [], issues: validateRows(rows) }
}

/** The zone as a BIND file (what cannot be written as BIND is in `notes`). */
export function zoneAsBind(recordsText: string, domain: string, ttl: number | undefined): { text: string; notes: Finding[] } {
  const exported = toBind(parse(recordsText), domain, ttl)
  return { text: exported.text, notes: exported.report }
}
