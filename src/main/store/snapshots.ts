/**
 * Zone snapshots: a DNS or free DNS zone as it was before a change (a save from this app, or a
 * change a refresh found). A restore builds the plan from the zone now to a snapshot.
 */
import { z } from 'zod'
import { parse, records } from '@shared/dns/records'
import type { Connection } from './database'
import { SNAPSHOT_REASONS, type Snapshot, type SnapshotReason, type SnapshotSummary } from '@shared/portfolio/history'
import { type ZoneInput, type ZoneKind } from '@shared/portfolio'
import { type StoreProblem } from './types'
import { zoneKeyColumns, zoneKeyOf, zoneSettingColumns, zoneSettingsOf } from './zone-row'

export interface NewSnapshot {
  accountId: string
  kind: ZoneKind
  domain: string
  zone: ZoneInput
  reason: SnapshotReason
  at: string
  historyId?: number | undefined
}

export function addSnapshot(conn: Connection, s: NewSnapshot): number {
  return conn.insert(
    'INSERT INTO zone_snapshots (account_id, kind, domain, records, ttl, ns_type, reason, history_id, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      s.accountId,
      s.kind,
      s.domain,
      s.zone.records,
      s.zone.ttl ?? null,
      s.zone.ns_type ?? null,
      s.reason,
      s.historyId ?? null,
      s.at,
    ],
  )
}

const snapshotRow = z.object({
  id: z.number().int(),
  ...zoneKeyColumns,
  records: z.string(),
  ...zoneSettingColumns,
  reason: z.enum(SNAPSHOT_REASONS),
  at: z.string(),
})

function toSnapshot(r: z.output<typeof snapshotRow>): Snapshot {
  return {
    id: r.id,
    ...zoneKeyOf(r),
    reason: r.reason,
    at: r.at,
    recordCount: records(parse(r.records)).length,
    records: r.records,
    ...zoneSettingsOf(r),
  }
}

/** A zone's snapshots, newest first. */
export function listSnapshots(
  conn: Connection,
  accountId: string,
  kind: ZoneKind,
  domain: string,
  report: (p: StoreProblem) => void,
): SnapshotSummary[] {
  return conn
    .all(
      snapshotRow,
      'SELECT id, account_id, kind, domain, records, ttl, ns_type, reason, at FROM zone_snapshots WHERE account_id = ? AND kind = ? AND domain = ? ORDER BY at DESC, id DESC LIMIT 200',
      [accountId, kind, domain],
      () =>
        report({ code: 'store.rowSkipped', params: { table: 'zone_snapshots', accountId, list: kind, key: domain } }),
    )
    .map((r) => {
      const { records: _records, ttl: _ttl, ns_type: _ns, ...summary } = toSnapshot(r)
      return summary
    })
}

/** One snapshot of one account (an id of another account's snapshot finds nothing). */
export function getSnapshot(conn: Connection, accountId: string, id: number): Snapshot | undefined {
  const row = conn.get(
    snapshotRow,
    'SELECT id, account_id, kind, domain, records, ttl, ns_type, reason, at FROM zone_snapshots WHERE id = ? AND account_id = ?',
    [id, accountId],
  )
  return row ? toSnapshot(row) : undefined
}
