/**
 * Health findings that appear or go away with a zone's change, recorded in history as drift is
 * (shown until looked at): one entry per zone read with a different set of findings, its
 * `before` the findings that went away and its `after` the ones that appeared. The offline rules
 * only (shared/dns/health/rules): a store write asks no DNS.
 */
import { indexZone, zoneFindings, type HealthFinding } from '@shared/dns/health/rules'
import { parse } from '@shared/dns/records'
import type { ZoneKind } from '@shared/portfolio'
import type { Connection } from './database'
import { ZONE_SUBJECT } from './drift'
import { storedJson } from './lists'

const keyOf = (f: HealthFinding) =>
  `${f.rule}\u0000${f.record.type}\u0000${f.record.host.toLowerCase()}\u0000${f.record.value}`

export interface HealthChange {
  accountId: string
  kind: ZoneKind
  domain: string
  /** The zone's records as last kept, and as read now. */
  before: string
  after: string
  at: string
}

/** Records the findings that appeared and went away; returns 1 when it recorded an entry, else 0. Runs inside the caller's write. */
export function recordHealthChange(conn: Connection, c: HealthChange): number {
  if (c.before === c.after) return 0
  const was = zoneFindings(indexZone(parse(c.before), c.domain))
  const now = zoneFindings(indexZone(parse(c.after), c.domain))
  const wasKeys = new Set(was.map(keyOf))
  const nowKeys = new Set(now.map(keyOf))
  const appeared = now.filter((f) => !wasKeys.has(keyOf(f)))
  const cleared = was.filter((f) => !nowKeys.has(keyOf(f)))
  if (appeared.length === 0 && cleared.length === 0) return 0
  conn.insert(
    `INSERT INTO history (account_id, subject_kind, subject, origin, aspect, before, after, at, seen) VALUES (?, ?, ?, 'outside', 'health', ?, ?, ?, 0)`,
    [
      c.accountId,
      ZONE_SUBJECT[c.kind],
      c.domain,
      storedJson({ findings: cleared }),
      storedJson({ findings: appeared }),
      c.at,
    ],
  )
  return 1
}
