/** A parsed zone line as the kind of row a test expects it to be: another kind fails the test here, showing the row. */
import type { RawRow, RecordRow, Row } from '@shared/dns/records'

export function recordRow(row: Row | undefined): RecordRow {
  if (row?.kind !== 'record') throw new Error(`expected a record row, got ${JSON.stringify(row)}`)
  return row
}

export function rawRow(row: Row | undefined): RawRow {
  if (row?.kind !== 'raw') throw new Error(`expected a raw row, got ${JSON.stringify(row)}`)
  return row
}
