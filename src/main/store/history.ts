/**
 * History rows: writes made from this app (recorded by the job runner's observer) and changes
 * a refresh found that this app did not make (drift), kept for the retention the user chose.
 * Everything written goes through storedJson, which leaves out transfer codes and passwords.
 */
import { z } from 'zod'
import type { Connection, SqlValue } from './database'
import { parseJson } from './json'
import { storedJson } from './lists'
import { changedAspects, type AspectChange } from './drift'
import { addSnapshot } from './snapshots'
import { JOB_PURPOSES } from '@shared/jobs'
import {
  DEFAULT_HISTORY_RETENTION_DAYS,
  HISTORY_ASPECTS,
  HISTORY_ORIGINS,
  SUBJECT_KINDS,
  WRITE_OUTCOMES,
  type HistoryAspect,
  type HistoryEntry,
  type SubjectKind,
} from '@shared/portfolio/history'
import type { HistoryQuery, KeptWrite, WriteRecord } from './types'
import type { ZoneKind, DriftFinding } from '@shared/portfolio'
import { StoreProblem } from './types'

const json = (v: unknown): SqlValue => (v === undefined ? null : storedJson(v))

const idRow = z.object({ id: z.number().int() })

/**
 * A write's row, once per job item: one already kept (a colleague's read again from the team's
 * history, or a row offered again after the store's worker died having written it) is left as it
 * is, and its id answered.
 */
export function recordWrite(conn: Connection, r: WriteRecord): number {
  return conn.write(() => {
    const known = conn.get(idRow, 'SELECT id FROM history WHERE job_id = ? AND item_index = ?', [r.jobId, r.itemIndex])
    if (known) return known.id
    const id = conn.insert(
      `INSERT INTO history (account_id, subject_kind, subject, origin, aspect, operation, purpose, params, outcome, request_id, job_id, item_index, before, after, at, seen, member, workstation)
       VALUES (?, ?, ?, 'app', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
      [
        r.accountId,
        r.subjectKind,
        r.subject,
        r.aspect,
        r.operation,
        r.purpose ?? null,
        json(r.params),
        r.outcome,
        r.requestId ?? null,
        r.jobId,
        r.itemIndex,
        json(r.before),
        json(r.after),
        r.at,
        r.member ?? null,
        r.workstation ?? null,
      ],
    )
    if (r.snapshotId !== undefined)
      conn.run('UPDATE zone_snapshots SET history_id = ? WHERE id = ?', [id, r.snapshotId])
    return id
  })
}

/** An unknown outcome settled later (from the service's log): the row says how it ended. */
export function settleWrite(
  conn: Connection,
  jobId: string,
  itemIndex: number,
  outcome: 'done' | 'failed',
  requestId: string | undefined,
): void {
  conn.run('UPDATE history SET outcome = ?, request_id = coalesce(?, request_id) WHERE job_id = ? AND item_index = ?', [
    outcome,
    requestId ?? null,
    jobId,
    itemIndex,
  ])
}

const keptRow = z.object({ job_id: z.string(), item_index: z.number().int(), outcome: z.enum(WRITE_OUTCOMES) })

/** The rows these jobs' items have, with how each says it ended (write-history.ts writes what is owed). */
export function keptWrites(conn: Connection, jobIds: readonly string[]): KeptWrite[] {
  return conn.read(() =>
    jobIds.flatMap((jobId) =>
      conn
        .all(keptRow, 'SELECT job_id, item_index, outcome FROM history WHERE job_id = ? ORDER BY item_index', [jobId])
        .map((r) => ({ jobId: r.job_id, itemIndex: r.item_index, outcome: r.outcome })),
    ),
  )
}

const oneRow = z.object({ one: z.number() })
const afterRow = z.object({ after: z.string().nullable(), origin: z.enum(HISTORY_ORIGINS) })

/**
 * Whether this app wrote that aspect of that subject since the last read (a write that was
 * done, or whose outcome is unknown: it may have been done): then the change is its own.
 */
function madeByApp(
  conn: Connection,
  accountId: string,
  subjectKind: SubjectKind,
  subject: string,
  aspect: HistoryAspect,
  since: string,
): boolean {
  return (
    conn.get(
      oneRow,
      `SELECT 1 AS one FROM history WHERE account_id = ? AND subject_kind = ? AND subject = ? AND aspect = ? AND origin = 'app'
         AND outcome IN ('done', 'unknown') AND at >= ? LIMIT 1`,
      [accountId, subjectKind, subject, aspect, since],
    ) !== undefined
  )
}

/** The same change already recorded (two lists tell the same expiry): not recorded twice. */
function alreadyRecorded(
  conn: Connection,
  accountId: string,
  subjectKind: SubjectKind,
  subject: string,
  aspect: HistoryAspect,
  after: string,
): boolean {
  const last = conn.get(
    afterRow,
    'SELECT after, origin FROM history WHERE account_id = ? AND subject_kind = ? AND subject = ? AND aspect = ? ORDER BY at DESC, id DESC LIMIT 1',
    [accountId, subjectKind, subject, aspect],
  )
  return last?.origin === 'outside' && last.after === after
}

export interface DriftInput {
  accountId: string
  subjectKind: SubjectKind
  aspect: HistoryAspect
  changes: readonly AspectChange[]
  /** When the previous reading was made: a write from this app since then explains a change. */
  since: string
  at: string
  /** Zones: the value before the change is kept as a snapshot, to restore. */
  zoneKind?: ZoneKind | undefined
}

/** Records the changes this app did not make; returns how many (each named in `found`, when given). Runs inside the caller's write. */
export function recordDrift(conn: Connection, d: DriftInput, found?: DriftFinding[]): number {
  let recorded = 0
  for (const c of d.changes) {
    if (madeByApp(conn, d.accountId, d.subjectKind, c.subject, d.aspect, d.since)) continue
    const after = storedJson(c.after)
    if (alreadyRecorded(conn, d.accountId, d.subjectKind, c.subject, d.aspect, after)) continue
    const id = conn.insert(
      `INSERT INTO history (account_id, subject_kind, subject, origin, aspect, before, after, at, seen) VALUES (?, ?, ?, 'outside', ?, ?, ?, ?, 0)`,
      [d.accountId, d.subjectKind, c.subject, d.aspect, storedJson(c.before), after, d.at],
    )
    if (d.zoneKind) {
      const records = c.before.records
      if (typeof records === 'string') {
        const ttl = c.before.ttl
        const nsType = c.before.ns_type
        addSnapshot(conn, {
          accountId: d.accountId,
          kind: d.zoneKind,
          domain: c.subject,
          zone: {
            records,
            ttl: typeof ttl === 'number' ? ttl : undefined,
            ns_type: typeof nsType === 'string' ? nsType : undefined,
          },
          reason: 'before-outside-change',
          at: d.at,
          historyId: id,
        })
      }
    }
    recorded++
    if (found && found.length < 100)
      found.push({ subjectKind: d.subjectKind, subject: c.subject, aspect: d.aspect, at: d.at })
  }
  return recorded
}

/** Drift of one subject read on its own (a zone): the same rules as a list's. */
export function recordSubjectDrift(
  conn: Connection,
  d: Omit<DriftInput, 'changes'> & { subject: string; before: string; after: string; fields: readonly string[] },
): number {
  const changes = changedAspects(d.fields, new Map([[d.subject, d.before]]), new Map([[d.subject, d.after]]))
  return recordDrift(conn, { ...d, changes })
}

const historyRow = z.object({
  id: z.number().int(),
  account_id: z.string(),
  subject_kind: z.enum(SUBJECT_KINDS),
  subject: z.string(),
  origin: z.enum(HISTORY_ORIGINS),
  aspect: z.enum(HISTORY_ASPECTS),
  operation: z.string().nullable(),
  purpose: z.enum(JOB_PURPOSES).nullable(),
  params: z.string().nullable(),
  outcome: z.enum(WRITE_OUTCOMES).nullable(),
  request_id: z.string().nullable(),
  job_id: z.string().nullable(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  at: z.string(),
  seen: z.union([z.literal(0), z.literal(1)]),
  snapshot_id: z.number().int().nullable(),
  member: z.string().nullable(),
  workstation: z.string().nullable(),
})
const paramsSchema = z.record(z.string(), z.unknown())

const HISTORY_LIMIT = 500

export function listHistory(conn: Connection, q: HistoryQuery, report: (p: StoreProblem) => void): HistoryEntry[] {
  const where = ['h.account_id = ?']
  const args: SqlValue[] = [q.accountId]
  if (q.subjectKind) {
    where.push('h.subject_kind = ?')
    args.push(q.subjectKind)
  }
  if (q.subject) {
    where.push('h.subject = ?')
    args.push(q.subject)
  }
  if (q.outsideOnly) where.push("h.origin = 'outside'")
  const rows = conn.all(
    historyRow,
    `SELECT h.id, h.account_id, h.subject_kind, h.subject, h.origin, h.aspect, h.operation, h.purpose, h.params, h.outcome, h.request_id, h.job_id,
            h.before, h.after, h.at, h.seen, h.member, h.workstation, (SELECT s.id FROM zone_snapshots s WHERE s.history_id = h.id) AS snapshot_id
       FROM history h WHERE ${where.join(' AND ')} ORDER BY h.at DESC, h.id DESC LIMIT ?`,
    [...args, Math.min(q.limit ?? HISTORY_LIMIT, HISTORY_LIMIT)],
    () => report({ code: 'store.rowSkipped', params: { table: 'history', accountId: q.accountId, list: '', key: '' } }),
  )
  return rows.map((r) => {
    const params = r.params === null ? undefined : paramsSchema.safeParse(parseJson(r.params))
    return {
      id: r.id,
      accountId: r.account_id,
      subjectKind: r.subject_kind,
      subject: r.subject,
      origin: r.origin,
      aspect: r.aspect,
      operation: r.operation ?? undefined,
      purpose: r.purpose ?? undefined,
      params: params?.success ? params.data : undefined,
      outcome: r.outcome ?? undefined,
      requestId: r.request_id ?? undefined,
      jobId: r.job_id ?? undefined,
      before: r.before === null ? undefined : parseJson(r.before),
      after: r.after === null ? undefined : parseJson(r.after),
      at: r.at,
      seen: r.seen === 1,
      snapshotId: r.snapshot_id ?? undefined,
      // Only a write from the app has a member; a change from outside never does.
      ...(r.origin === 'app' && r.member !== null ? { member: r.member, workstation: r.workstation ?? undefined } : {}),
    }
  })
}

const unseenRow = z.object({ account_id: z.string(), n: z.number().int() })

/** Changes from outside not looked at yet, per account. */
export function unseenCounts(conn: Connection): Record<string, number> {
  const out: Record<string, number> = {}
  for (const r of conn.all(
    unseenRow,
    'SELECT account_id, count(*) AS n FROM history WHERE seen = 0 GROUP BY account_id',
  ))
    out[r.account_id] = r.n
  return out
}

/** The user has looked at these changes (or, without ids, at every change of this subject or account). */
export function markSeen(
  conn: Connection,
  accountId: string,
  opts: { ids?: readonly number[] | undefined; subjectKind?: SubjectKind | undefined; subject?: string | undefined },
): number {
  return conn.write(() => {
    if (opts.ids) {
      let n = 0
      for (const id of opts.ids)
        n += conn.run('UPDATE history SET seen = 1 WHERE id = ? AND account_id = ? AND seen = 0', [id, accountId])
      return n
    }
    if (opts.subjectKind && opts.subject)
      return conn.run(
        'UPDATE history SET seen = 1 WHERE account_id = ? AND subject_kind = ? AND subject = ? AND seen = 0',
        [accountId, opts.subjectKind, opts.subject],
      )
    return conn.run('UPDATE history SET seen = 1 WHERE account_id = ? AND seen = 0', [accountId])
  })
}

const settingRow = z.object({ value: z.string() })
const RETENTION_KEY = 'history.retentionDays'

export function retentionDays(conn: Connection): number {
  const v = Number(conn.get(settingRow, 'SELECT value FROM store_settings WHERE key = ?', [RETENTION_KEY])?.value)
  return Number.isInteger(v) && v > 0 ? v : DEFAULT_HISTORY_RETENTION_DAYS
}

export function setRetentionDays(conn: Connection, days: number, now: Date): void {
  conn.write(() => {
    conn.run(
      'INSERT INTO store_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [RETENTION_KEY, String(days)],
    )
    prune(conn, now)
  })
}

/** Drops history and snapshots older than the retention; returns how many rows went. */
export function prune(conn: Connection, now: Date): number {
  const cutoff = new Date(now.getTime() - retentionDays(conn) * 86_400_000).toISOString()
  return conn.write(
    () =>
      conn.run('DELETE FROM history WHERE at < ?', [cutoff]) +
      conn.run('DELETE FROM zone_snapshots WHERE at < ?', [cutoff]),
  )
}
