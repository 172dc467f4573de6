/**
 * DNS and free DNS zones: the `records` text of each domain, as last read, whether it came from
 * a zone read on its own (putZone) or from the account-wide DNS lists (putList of
 * domains.dns.list or freedns.list, whose items are zones). Each zone's records are in the
 * search index; a zone read on its own also updates its row in the list, so the list and the
 * zone never tell two stories.
 */
import { z } from 'zod'
import { parse, records } from '@shared/dns/records'
import type { Connection } from './database'
import { LIST_SPECS, storedJson } from './lists'
import { parseJson } from './json'
import { SearchWriter, recordTexts } from './search-index'
import { ZONE_SUBJECT } from './drift'
import { recordSubjectDrift } from './history'
import { recordHealthChange } from './health-history'
import { type StoredZone, type ZoneInput, type ZoneKind, type ZoneSummary } from '@shared/portfolio'
import { type StoreProblem } from './types'
import { zoneKeyColumns, zoneKeyOf, zoneSettingColumns, zoneSettingsOf } from './zone-row'

type Report = (p: StoreProblem) => void
const skipped = (report: Report, accountId: string, kind: string, key: string) => () =>
  report({ code: 'store.rowSkipped', params: { table: 'zones', accountId, list: kind, key } })

/** The list whose items are the zones of this kind. */
const LIST_OF_ZONE = { dns: 'domains.dns.list', freedns: 'freedns.list' } as const satisfies Record<ZoneKind, string>

const zoneRowSchema = z.object({ records: z.string(), ...zoneSettingColumns, read_at: z.string() })
const summaryRowSchema = z.object({
  ...zoneKeyColumns,
  ...zoneSettingColumns,
  record_count: z.number().int(),
  read_at: z.string(),
})
const listRowSchema = z.object({ id: z.number().int(), json: z.string() })
const idRow = z.object({ id: z.number().int() })

/** The id of each zone of this kind the account has, by domain. */
export function zoneIds(conn: Connection, accountId: string, kind: ZoneKind): Map<string, number> {
  const rows = conn.all(
    z.object({ id: z.number().int(), domain: z.string() }),
    'SELECT id, domain FROM zones WHERE account_id = ? AND kind = ?',
    [accountId, kind],
  )
  return new Map(rows.map((r) => [r.domain, r.id]))
}

/** Removes a zone's search entries, before the zone is written again or deleted; gives its id if it was there. */
function removeZoneEntries(
  conn: Connection,
  index: SearchWriter,
  accountId: string,
  kind: ZoneKind,
  domain: string,
): number | undefined {
  const row = conn.get(idRow, 'SELECT id FROM zones WHERE account_id = ? AND kind = ? AND domain = ?', [
    accountId,
    kind,
    domain,
  ])
  if (row) index.remove({ zone: row.id })
  return row?.id
}

/**
 * Writes a zone and adds its search entries; the caller has removed the old ones (so a list of
 * zones removes them all before it adds any: see SearchWriter). `unchanged` (the list's item
 * was the same) only renews the time it was read.
 */
export function writeZone(
  conn: Connection,
  index: SearchWriter,
  accountId: string,
  kind: ZoneKind,
  domain: string,
  zone: ZoneInput,
  readAt: string,
  opts: { unchanged?: boolean } = {},
): void {
  const where = [accountId, kind, domain]
  if (
    opts.unchanged &&
    conn.run('UPDATE zones SET read_at = ? WHERE account_id = ? AND kind = ? AND domain = ?', [readAt, ...where]) > 0
  )
    return
  const lines = records(parse(zone.records))
  const row = conn.get(
    idRow,
    `INSERT INTO zones (account_id, kind, domain, records, ttl, ns_type, record_count, read_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (account_id, kind, domain) DO UPDATE SET records = excluded.records, ttl = excluded.ttl, ns_type = excluded.ns_type,
       record_count = excluded.record_count, read_at = excluded.read_at
     RETURNING id`,
    [...where, zone.records, zone.ttl ?? null, zone.ns_type ?? null, lines.length, readAt],
  )
  if (row) index.addZone(row.id, recordTexts(domain, lines))
}

export function deleteZone(
  conn: Connection,
  index: SearchWriter,
  accountId: string,
  kind: ZoneKind,
  domain: string,
): void {
  const id = removeZoneEntries(conn, index, accountId, kind, domain)
  if (id !== undefined) conn.run('DELETE FROM zones WHERE id = ?', [id])
}

/** The zone's value as drift compares it: the same members as its list's items. */
const ZONE_FIELDS: Record<ZoneKind, readonly string[]> = {
  dns: ['records', 'ttl', 'ns_type'],
  freedns: ['records', 'ttl'],
}

/** Writes a zone read on its own; returns how many changes this app did not make it recorded (0 or 1). */
export function putZone(
  conn: Connection,
  accountId: string,
  kind: ZoneKind,
  domain: string,
  zone: ZoneInput,
  readAt: string,
): number {
  return conn.write(() => {
    const previous = conn.get(
      zoneRowSchema,
      'SELECT records, ttl, ns_type, read_at FROM zones WHERE account_id = ? AND kind = ? AND domain = ?',
      [accountId, kind, domain],
    )
    const drift = previous
      ? recordSubjectDrift(conn, {
          accountId,
          subjectKind: ZONE_SUBJECT[kind],
          aspect: 'dns',
          subject: domain,
          fields: ZONE_FIELDS[kind],
          before: storedJson({
            records: previous.records,
            ttl: previous.ttl ?? undefined,
            ns_type: kind === 'dns' ? (previous.ns_type ?? undefined) : undefined,
          }),
          after: storedJson({
            records: zone.records,
            ttl: zone.ttl,
            ns_type: kind === 'dns' ? zone.ns_type : undefined,
          }),
          since: previous.read_at,
          at: readAt,
          zoneKind: kind,
        })
      : 0
    // Health findings that appeared or went away with this reading (whoever changed the zone).
    if (previous)
      recordHealthChange(conn, { accountId, kind, domain, before: previous.records, after: zone.records, at: readAt })
    const index = new SearchWriter(conn)
    removeZoneEntries(conn, index, accountId, kind, domain)
    writeZone(conn, index, accountId, kind, domain, zone, readAt)
    index.flush()
    if (kind === 'dns') patchListRow(conn, accountId, LIST_OF_ZONE.dns, domain, zone)
    else patchListRow(conn, accountId, LIST_OF_ZONE.freedns, domain, zone)
    return drift
  })
}

/** The zone's item in the account-wide list, if the list holds it, with the zone just read. */
function patchListRow<N extends (typeof LIST_OF_ZONE)[ZoneKind]>(
  conn: Connection,
  accountId: string,
  name: N,
  domain: string,
  zone: ZoneInput,
): void {
  const spec = LIST_SPECS[name]
  const row = conn.get(
    listRowSchema,
    "SELECT i.id, i.json FROM lists l JOIN list_items i ON i.list_id = l.id WHERE l.account_id = ? AND l.list = ? AND l.params_key = '' AND i.item_key = ?",
    [accountId, name, domain],
  )
  if (!row || !spec.zone) return
  const item = spec.item.safeParse(parseJson(row.json))
  // A row that cannot be read is left for the next read of the list to replace.
  if (!item.success) return
  conn.run('UPDATE list_items SET json = ? WHERE id = ?', [storedJson(spec.zone.with(item.data, zone)), row.id])
}

export function getZone(
  conn: Connection,
  accountId: string,
  kind: ZoneKind,
  domain: string,
  report: Report,
): StoredZone | undefined {
  const row = conn.get(
    zoneRowSchema,
    'SELECT records, ttl, ns_type, read_at FROM zones WHERE account_id = ? AND kind = ? AND domain = ?',
    [accountId, kind, domain],
    skipped(report, accountId, kind, domain),
  )
  if (!row) return undefined
  return { records: row.records, ...zoneSettingsOf(row), readAt: row.read_at }
}

export function listZones(conn: Connection, report: Report, accountId?: string, containing?: string): ZoneSummary[] {
  const where = [
    ...(accountId === undefined ? [] : ['account_id = ?']),
    ...(containing === undefined ? [] : ['instr(lower(records), ?) > 0']),
  ]
  const params = [
    ...(accountId === undefined ? [] : [accountId]),
    ...(containing === undefined ? [] : [containing.toLowerCase()]),
  ]
  const sql = `SELECT account_id, kind, domain, ttl, ns_type, record_count, read_at${containing === undefined ? '' : ', records'} FROM zones
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY account_id, kind, domain`
  const rows = conn.all(
    summaryRowSchema.extend({ records: z.string().optional() }),
    sql,
    params,
    skipped(report, accountId ?? '', '', ''),
  )
  // SQL found the text anywhere; a zone counts only when one of its records holds the value as
  // a whole word (192.0.2.1 is not in 192.0.2.10), a name with or without its final dot.
  return (containing === undefined ? rows : rows.filter((r) => recordsHoldValue(r.records ?? '', containing))).map(
    toSummary,
  )
}

/** Whether a line of the records text has the value as one of its words (case-insensitive; a final dot does not count). */
function recordsHoldValue(records: string, value: string): boolean {
  const word = (w: string) => w.toLowerCase().replace(/\.$/, '')
  const wanted = word(value.trim())
  if (!wanted) return false
  // Words part at spaces and quotes (a TXT value is quoted); an SPF mechanism (ip4:192.0.2.1) holds its value too.
  return records
    .split('\n')
    .some((line) => line.split(/[\s"]+/).some((w) => word(w) === wanted || word(w).endsWith(`:${wanted}`)))
}

/** A zones row as the store's callers see it. */
function toSummary(r: z.output<typeof summaryRowSchema>): ZoneSummary {
  return { ...zoneKeyOf(r), recordCount: r.record_count, ...zoneSettingsOf(r), readAt: r.read_at }
}

/** Every zone with its records, for exportZones. */
export function allZones(conn: Connection, report: Report): (ZoneSummary & { records: string })[] {
  const rows = conn.all(
    summaryRowSchema.extend({ records: z.string() }),
    'SELECT account_id, kind, domain, ttl, ns_type, record_count, read_at, records FROM zones ORDER BY account_id, kind, domain',
    [],
    skipped(report, '', '', ''),
  )
  return rows.map((r) => ({ ...toSummary(r), records: r.records }))
}
