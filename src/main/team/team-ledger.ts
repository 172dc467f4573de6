/**
 * The team write ledger (issue 37): the journal and the per-target holds of WriteLedger kept in
 * the team's PostgreSQL, so that "one write per target at a time", "nothing sent that was not
 * journaled" and "an unknown outcome is settled before anything else is sent to that target"
 * hold across every workstation of the team.
 *
 * A hold is a lease: a row of team_leases with a fencing number from a sequence and an expiry on
 * the database's clock, renewed by a heartbeat while this process lives. Right before a send, one
 * committed statement checks that this lease's fencing number is still the target's current one
 * and unexpired, and marks the lease as "checked" (the send may leave from now on): the statement
 * that journals the item as "sending" (append), so the record and the check commit together,
 * durably, in one round trip; stillHeld() answers from it (or checks on its own when that check is
 * not a moment old). A lease that expires unchecked is simply free (nothing can have been
 * sent: its holder's stillHeld would now fail); one that expires checked is an unknown outcome
 * and blocks the target for everyone until someone settles it from the service's log. Nothing is
 * ever resent here. A partial unique index allows at most one row per target in `sending` or
 * `unknown`, whatever the code above it does.
 *
 * When the database cannot be reached every step throws TeamError('team.unreachable'): no claim,
 * no append, no stillHeld, so no write is sent without the shared lease.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { z } from 'zod'
import { WRITE_ENDPOINT_NAMES } from '../../shared/endpoints/names'
import type { JobView } from '../../shared/jobs'
import { withoutSecrets } from '../jobs/at-rest'
import { applyJournalRecord, journaledJob, journalRecordSchema, type JournalRecord } from '../jobs/ledger/journal-record'
import type { BeginSend, ClaimResult, EarlierSend, LedgerMark, PreconditionVerdict, SendEnd, SendPrecondition, TargetHolder, TargetLease, TargetRef, WriteLedger } from '../jobs/ledger/write-ledger'
import { ensureSchema } from './schema'
import { registerProcess, registerWorkstation } from './team-directory'
import { teamChangeOf } from './team-history'
import { accountHistorySince, domainHistory, handleReminder, RELAXED_COMMIT, reminderDue, remindersOf, type TeamAccountChange, type TeamHistoryEntry, type TeamReminder } from './team-shared'
import { reminderKey, type DueReminder, type ExpiringItem, type ReminderHandled, type ReminderHandlingKind } from '../../shared/portfolio/reminders'
import { claimNotices, noticedItems } from './team-notices'

/** A team reminder's handling as the screens show it. */
const handledOf = (h: NonNullable<TeamReminder['handled']>): ReminderHandled => ({
  how: h.how,
  at: h.at,
  member: h.by.member,
  workstation: h.by.workstation,
  ...(h.snoozedUntil ? { snoozedUntil: h.snoozedUntil } : {}),
})
import { TeamError, isConnectionLoss, teamErrorOf } from './team-error'

/** How a workstation's local account ids map to the team's (the keyed fingerprints of their keys). */
export interface TeamAccountMap {
  toTeam(accountId: string): string
  /** Undefined: this workstation does not have that account (its key). */
  toLocal(teamAccount: string): string | undefined
}
const SAME_IDS: TeamAccountMap = { toTeam: (id) => id, toLocal: (id) => id }

export interface TeamLedgerOptions {
  pool: pg.Pool
  member: string
  workstation: string
  /** The database's name, for messages (job.journalUnwritable's `path`). */
  where: string
  /** A lease's life without renewal (15 s): a crashed workstation's targets are free after it. */
  leaseMs?: number
  /** How often the held leases are renewed (a third of their life). */
  heartbeatMs?: number
  accounts?: TeamAccountMap
  /** Creates or migrates the schema on first use (default); false: refuse an absent one. */
  createSchema?: boolean
  /** Whether close() ends the pool (the ledger opened it for itself). */
  ownsPool?: boolean
}

const count = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().min(0))
const holderRow = z.object({
  fence: count,
  account: z.string(),
  operation: z.enum(WRITE_ENDPOINT_NAMES),
  target: z.string(),
  member: z.string(),
  workstation: z.string(),
  job_id: z.string(),
  idx: count,
  state: z.enum(['sending', 'unknown']),
  since: z.date(),
})
/** A lease row as the holder the runner and the screens see. */
const holderFrom = (r: z.infer<typeof holderRow>): TargetHolder => ({ jobId: r.job_id, index: r.idx, state: r.state, since: r.since.toISOString(), member: r.member, workstation: r.workstation })
const fenceRow = z.object({ fence: count })
const heldRow = z.object({ held: count })
const liveJobRows = z.array(z.object({ id: z.string(), workstation: z.string().nullable(), pid: z.number().int().nullable() }))
const journalRow = z.object({ member: z.string(), workstation: z.string(), account: z.string(), record: z.unknown() })

type ItemRecord = Extract<JournalRecord, { t: 'item' }>
/** As the local journal keeps them: a job without secrets or contacts; an answer without secrets. */
const keptItem = (r: ItemRecord): ItemRecord => (r.result !== undefined ? { ...r, result: withoutSecrets(r.result) } : r)
const keptRecord = (r: JournalRecord): JournalRecord => (r.t === 'job' ? { t: 'job', job: journaledJob(r.job) } : r.t === 'item' ? keptItem(r) : r)

/** Whether a process of this machine is running (EPERM: it is, another user's). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return typeof err === 'object' && err !== null && 'code' in err && err.code === 'EPERM'
  }
}

/** A target's lease as everyone sees it: an expired unchecked lease is no hold, an expired checked one is an unknown outcome. */
const EFFECTIVE = `
  fence, account, operation, target, member, workstation, job_id, idx, since,
  CASE WHEN state = 'sending' AND expires_at <= now() THEN 'unknown' ELSE state END AS state
  FROM team_leases
  WHERE state IN ('sending', 'unknown') AND NOT (state = 'sending' AND expires_at <= now() AND checked_at IS NULL)`

/** Expired leases of one target made what they mean: unchecked -> free, checked -> unknown. */
const EXPIRE = `
  UPDATE team_leases SET state = CASE WHEN checked_at IS NULL THEN 'free' ELSE 'unknown' END,
    ended_at = CASE WHEN checked_at IS NULL THEN now() ELSE NULL END
  WHERE account = $1 AND operation = $2 AND target = $3 AND state = 'sending' AND expires_at <= now()`

/**
 * Claims and releases commit without waiting for the disk (RELAXED_COMMIT, in the same round
 * trip). Losing one in a server crash is safe: a lost claim makes its holder's stillHeld fail
 * (nothing sent; that check's durable commit flushes every earlier commit with it); a lost release
 * leaves the lease to run out (unknown if checked: settled, never resent). The check before a send
 * and the journal always wait for the disk.
 */
const RELAXED = RELAXED_COMMIT

/**
 * A statement of every send's path, named so that each connection parses and plans it once
 * rather than on every item (the text of a name never changes).
 */
const prepared = (name: string, text: string, values: unknown[]): pg.QueryConfig => ({ name: `team-${name}`, text, values })

/**
 * The check right before a send (`fence`, `life`: the parameters of the lease's fence and of its
 * life in ms): returns a row only if the fence is still the target's current, unexpired lease;
 * marks it checked (the send may leave from now on) and renews it.
 */
const stillHeldSql = (fence: string, life: string) => `UPDATE team_leases SET checked_at = now(), expires_at = now() + ${life}::bigint * interval '1 millisecond'
  WHERE fence = ${fence} AND state = 'sending' AND expires_at > now() RETURNING fence`

const movedRow = z.object({ member: z.string(), workstation: z.string(), job_id: z.string(), idx: count, ended_at: z.date().nullable(), outcome: z.enum(['done', 'unsure']) })
const sendRow = z.object({ request_id: z.string().nullable(), counts_unknown: z.boolean() })
const markRow = z.object({ mark: count })

/**
 * The send of a target that moved a precondition (preconditions.ts): one that ended done after the
 * mark `since`, or done from the same basis; else one settled without evidence after the mark
 * (sent again over an unknown outcome). The parameters: the target ($a, $o, $t), the mark and the basis.
 */
const movedSql = (a: string, o: string, t: string, since: string, basis: string) => `SELECT member, workstation, job_id, idx, ended_at, outcome FROM team_leases
  WHERE account = ${a} AND operation = ${o} AND target = ${t} AND outcome IN ('done', 'unsure')
    AND (end_seq > ${since}::bigint OR (outcome = 'done' AND ${basis}::text IS NOT NULL AND basis = ${basis}::text))
  ORDER BY (outcome = 'done') DESC, end_seq DESC LIMIT 1`

/** A moved row (or none) as the verdict the runner acts on. */
function verdictOf(raw: unknown): PreconditionVerdict {
  if (raw === undefined || raw === null) return { holds: true }
  const parsed = movedRow.safeParse(raw)
  if (!parsed.success) return { holds: true }
  const r = parsed.data
  if (r.outcome === 'unsure') return { holds: false, unsure: 'unsettled' }
  const moved: EarlierSend = { jobId: r.job_id, index: r.idx, at: (r.ended_at ?? new Date()).toISOString(), member: r.member, workstation: r.workstation }
  return { holds: false, moved }
}

/** A mark as the database's sequence reads it; anything else (a local ledger's, a damaged one) as no mark. */
const sinceOf = (p: SendPrecondition | undefined): string | null => (p?.since !== undefined && /^\d+$/.test(p.since) ? p.since : null)

export class TeamLedger implements WriteLedger {
  readonly kind = 'team'
  readonly where: string
  unreadableLines = 0
  /** The jobs another process was running at the last load(): see runsElsewhere. */
  private liveElsewhere = new Set<string>()
  private readonly pool: pg.Pool
  private readonly leaseMs: number
  private readonly accounts: TeamAccountMap
  private readonly held = new Map<number, TargetLease>()
  /** Preconditions checked with a lease's claim, by fence, until precondition() takes the answer. */
  private readonly verdicts = new Map<number, PreconditionVerdict>()
  private heartbeat: NodeJS.Timeout | undefined
  /** This ledger's process as the team knows it (team_processes): the jobs it starts carry it. */
  private readonly processId = randomUUID()
  private closed = false

  private constructor(private readonly o: TeamLedgerOptions) {
    this.pool = o.pool
    this.where = o.where
    this.leaseMs = o.leaseMs ?? 15_000
    this.accounts = o.accounts ?? SAME_IDS
  }

  /** Opens the ledger: the schema checked (created or migrated on first use; a newer one refused), this member and workstation recorded. */
  static async open(o: TeamLedgerOptions): Promise<TeamLedger> {
    await ensureSchema(o.pool, { create: o.createSchema ?? true })
    const ledger = new TeamLedger(o)
    await registerWorkstation(o.pool, o.member, o.workstation)
    await registerProcess(o.pool, ledger.processId, o.workstation, process.pid)
    const every = o.heartbeatMs ?? Math.max(50, Math.floor(ledger.leaseMs / 3))
    ledger.heartbeat = setInterval(() => void ledger.renew(), every)
    // The heartbeat keeps leases alive, never the process.
    ledger.heartbeat.unref()
    return ledger
  }

  /** One database step; a failure becomes a TeamError (team.unreachable when the connection is the cause). */
  private async step<T>(run: (db: pg.Pool) => Promise<T>, opts: { retryOnLoss?: boolean } = {}): Promise<T> {
    if (this.closed) throw new TeamError('team.unreachable', { reason: 'closed' })
    try {
      return await run(this.pool)
    } catch (err) {
      // An idempotent step meets a connection the server dropped (a restart): once more on a new one.
      if (opts.retryOnLoss && isConnectionLoss(err)) {
        try {
          return await run(this.pool)
        } catch (again) {
          throw teamErrorOf(again)
        }
      }
      throw teamErrorOf(err)
    }
  }

  /** A transaction on one connection: committed, or rolled back and thrown. */
  private async transaction<T>(run: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect()
    // A connection lost while checked out is reported as an 'error' event too (besides the failed
    // query): heard here, so that it never ends the process; the client is then discarded.
    const lost = () => undefined
    c.on('error', lost)
    let failed = false
    try {
      await c.query('BEGIN')
      const out = await run(c)
      await c.query('COMMIT')
      return out
    } catch (err) {
      failed = true
      await c.query('ROLLBACK').catch(() => undefined)
      throw err
    } finally {
      c.off('error', lost)
      c.release(failed)
    }
  }

  private ttl(): string {
    return String(this.leaseMs)
  }

  private async renew(): Promise<void> {
    const fences = [...this.held.keys()]
    try {
      if (fences.length)
        await this.pool.query(`UPDATE team_leases SET expires_at = now() + $2::bigint * interval '1 millisecond' WHERE fence = ANY($1::bigint[]) AND state = 'sending' AND expires_at > now()`, [fences, this.ttl()])
      await this.pool.query('UPDATE team_workstations SET last_seen = now() WHERE name = $1', [this.o.workstation])
      await this.pool.query('UPDATE team_processes SET last_seen = now() WHERE id = $1', [this.processId])
    } catch {
      // The database away: the leases run out and stillHeld says so; nothing to do here.
    }
  }

  // --- the journal ---

  async load(): Promise<JobView[]> {
    const read = await this.step(
      async (db) => {
        const rows: unknown[] = (await db.query('SELECT j.member, j.workstation, j.account, r.record FROM team_journal r JOIN team_jobs j ON j.id = r.job_id ORDER BY r.seq')).rows
        // Alive elsewhere: a job of another process seen within a lease's life (its heartbeat); of
        // another workstation, or of this one whose process is still running (the command line
        // beside the window: see runsElsewhere). A job of an earlier version (no process) counts
        // by its workstation's heartbeat.
        const live: unknown[] = (
          await db.query(
            `SELECT j.id, p.workstation, p.pid FROM team_jobs j JOIN team_processes p ON p.id = j.process
               WHERE j.process <> $1 AND p.last_seen > now() - $2::bigint * interval '1 millisecond'
             UNION ALL
             SELECT j.id, NULL, NULL FROM team_jobs j JOIN team_workstations w ON w.name = j.workstation
               WHERE j.process IS NULL AND j.workstation <> $3 AND w.last_seen > now() - $2::bigint * interval '1 millisecond'`,
            [this.processId, this.ttl(), this.o.workstation],
          )
        ).rows
        return { rows, live }
      },
      { retryOnLoss: true },
    )
    // Of this workstation: alive only while its process is (a restart after a crash finds the
    // crashed process's jobs cut off at once, whatever its heartbeat said a moment ago).
    const alive = (r: { workstation: string | null; pid: number | null }) => r.workstation !== this.o.workstation || r.pid === null || r.pid === process.pid || processAlive(r.pid)
    this.liveElsewhere = new Set(liveJobRows.parse(read.live).filter(alive).map((r) => r.id))
    const rows = read.rows
    this.unreadableLines = 0
    const jobs = new Map<string, JobView>()
    const by = new Map<string, { member: string; workstation: string; account: string }>()
    for (const raw of rows) {
      const row = journalRow.safeParse(raw)
      const rec = row.success ? journalRecordSchema.safeParse(row.data.record) : undefined
      if (!row.success || !rec?.success) {
        this.unreadableLines++
        continue
      }
      if (rec.data.t === 'job') by.set(rec.data.job.id, row.data)
      applyJournalRecord(jobs, rec.data)
    }
    return [...jobs.values()].map((job) => {
      const who = by.get(job.id)
      if (!who) return job
      return { ...job, accountId: this.accounts.toLocal(who.account) ?? who.account, by: { member: who.member, workstation: who.workstation } }
    })
  }

  runsElsewhere(jobId: string): boolean {
    return this.liveElsewhere.has(jobId)
  }

  /** Nothing is ever dropped from the team's journal (compact is a no-op), so nothing needs keeping aside. */
  async keepAside(_now: Date): Promise<string> {
    return this.where
  }

  /**
   * A record's row (the record as keptRecord keeps it): $1..$5 are the record; a job's or an
   * item's row uses $2 (the job) and its own from $6.
   */
  private journalInsert(kept: JournalRecord, when = 'true'): { journal: string; journalValues: unknown[] } {
    const jobId = kept.t === 'job' ? kept.job.id : kept.job
    const journal = `INSERT INTO team_journal (record_id, job_id, member, workstation, record) SELECT $1, $2, $3, $4, $5::jsonb WHERE ${when} ON CONFLICT (record_id) DO NOTHING`
    return { journal, journalValues: [randomUUID(), jobId, this.o.member, this.o.workstation, JSON.stringify(kept)] }
  }

  async append(record: JournalRecord): Promise<void> {
    const kept = keptRecord(record)
    const { journal, journalValues } = this.journalInsert(kept)
    // One statement, so one round trip and one (durable) commit: the job's or item's row and the
    // record together (a data-modifying WITH always runs, and all of it commits or none).
    // Idempotent by record_id: retried once when the connection was lost, whether or not the first
    // commit landed. An item's row never moves back from done or failed (settled stays settled).
    await this.step(
      (db) => {
        if (kept.t === 'job') {
          const items = kept.job.items
          return db.query(
            prepared(
              'append-job',
              `WITH job AS (INSERT INTO team_jobs (id, account, operation, member, workstation, process) VALUES ($2, $6, $7, $3, $4, $11) ON CONFLICT (id) DO NOTHING),
               items AS (INSERT INTO team_job_items (job_id, idx, target, state)
                 SELECT $2, t.idx, t.target, t.state FROM unnest($8::int[], $9::text[], $10::text[]) AS t(idx, target, state)
                 ON CONFLICT (job_id, idx) DO UPDATE SET state = EXCLUDED.state WHERE team_job_items.state NOT IN ('done', 'failed'))
             ${journal}`,
              [...journalValues, this.accounts.toTeam(kept.job.accountId), kept.job.operation, items.map((_, i) => i), items.map((it) => it.target), items.map((it) => it.state), this.processId],
            ),
          )
        }
        if (kept.t === 'item')
          return db.query(prepared('append-item', `WITH item AS (UPDATE team_job_items SET state = $7 WHERE job_id = $2 AND idx = $6 AND (state NOT IN ('done', 'failed') OR $7 IN ('done', 'failed'))) ${journal}`, [...journalValues, kept.i, kept.state]))
        return db.query(prepared('append', journal, journalValues))
      },
      { retryOnLoss: true },
    )
  }

  /**
   * Right before the send, in one committed statement: whether a send of the target ended done
   * since the job's mark (or from the same basis); if none did, the lease checked still current and
   * unexpired, marked checked (the send may leave from now on) and renewed; and only then the item
   * journaled as sending. Nothing is journaled when either fails, so nothing leaves unjournaled,
   * and a lease checked is one whose send may have left (it turns unknown, never free, if it runs out).
   */
  async beginSend(record: JournalRecord, lease: TargetLease, p: SendPrecondition): Promise<BeginSend> {
    if (record.t !== 'item') throw new Error('beginSend takes an item record')
    const kept = keptItem(record)
    const { journal, journalValues } = this.journalInsert(kept, 'EXISTS (SELECT 1 FROM lease)')
    const [a, o, t] = this.key(lease.ref)
    const values = [...journalValues, kept.i, kept.state, lease.fence, this.ttl(), a, o, t, sinceOf(p), p.basis ?? null]
    const out = await this.step(
      (db) =>
        db.query(
          prepared(
            'begin-send',
            `WITH moved AS (${movedSql('$10', '$11', '$12', '$13', '$14')}),
             lease AS (UPDATE team_leases SET checked_at = now(), expires_at = now() + $9::bigint * interval '1 millisecond'
               WHERE fence = $8 AND state = 'sending' AND expires_at > now() AND NOT EXISTS (SELECT 1 FROM moved WHERE outcome = 'done') RETURNING fence),
             item AS (UPDATE team_job_items SET state = $7 WHERE job_id = $2 AND idx = $6 AND EXISTS (SELECT 1 FROM lease) AND state NOT IN ('done', 'failed')),
             record AS (${journal})
             SELECT (SELECT count(*) FROM lease)::integer AS held, m.member, m.workstation, m.job_id, m.idx, m.ended_at, m.outcome FROM (VALUES (1)) AS one LEFT JOIN moved AS m ON true`,
            values,
          ),
        ),
      { retryOnLoss: true },
    )
    const row: unknown = out.rows[0]
    if (heldRow.parse(row).held === 1) return { ok: true }
    const verdict = verdictOf(movedRow.safeParse(row).success ? row : undefined)
    if (!verdict.holds && 'moved' in verdict) return { ok: false, moved: verdict.moved }
    return { ok: false, lost: true }
  }

  /**
   * A send's end: its item's record, its row's state, its lease let go with how its send ended
   * (done or failed, in the order of ends: end_seq; the request id the service gave it) and, for a
   * change (done or unknown), the team's history row with this member (history says who; what it
   * keeps is teamChangeOf's: never a parameter, so never a secret) in one statement: one round trip
   * and one commit, durable as the journal's. Only while the lease is still this send's: a process
   * woken past its lease, whose item a colleague settled meanwhile, writes nothing. Idempotent: a
   * retry after a lost connection whose first commit landed finds the lease let go, and writes nothing again.
   */
  async end(record: JournalRecord, lease: TargetLease, outcome: 'free' | 'unknown', job: JobView): Promise<void> {
    if (record.t !== 'item') {
      await Promise.all([this.release(lease, outcome), this.append(record)])
      return
    }
    this.held.delete(lease.fence)
    this.verdicts.delete(lease.fence)
    const kept = keptItem(record)
    const { journal, journalValues } = this.journalInsert(kept, 'EXISTS (SELECT 1 FROM lease)')
    const values = [...journalValues, kept.i, kept.state, lease.fence, outcome, kept.requestId ?? null]
    const item = `UPDATE team_job_items SET state = $7 WHERE job_id = $2 AND idx = $6 AND EXISTS (SELECT 1 FROM lease) AND (state NOT IN ('done', 'failed') OR $7 IN ('done', 'failed'))`
    const letGo = `UPDATE team_leases SET state = $9, ended_at = CASE WHEN $9 = 'free' THEN now() ELSE NULL END,
        outcome = CASE WHEN $7 IN ('done', 'failed') THEN $7 ELSE outcome END,
        end_seq = CASE WHEN $7 IN ('done', 'failed') THEN nextval('team_end_seq') ELSE end_seq END,
        request_id = COALESCE($10::text, request_id)
      WHERE fence = $8 AND state IN ('sending', 'unknown') RETURNING fence`
    const changed = teamChangeOf(job, kept.i)
    const statement = changed
      ? prepared(
          'append-end-changed',
          `WITH lease AS (${letGo}), item AS (${item}),
           history AS (INSERT INTO team_history (account, domain, member, workstation, change)
             SELECT $11, $12, $3, $4, $13::jsonb WHERE EXISTS (SELECT 1 FROM lease) AND NOT EXISTS (SELECT 1 FROM team_journal WHERE record_id = $1))
           ${journal}`,
          [...values, this.accounts.toTeam(job.accountId), changed.domain, JSON.stringify(changed.change)],
        )
      : prepared('append-end', `WITH lease AS (${letGo}), item AS (${item}) ${journal}`, values)
    await this.step((db) => db.query(statement), { retryOnLoss: true })
  }

  /** The team's journal is never rewritten: other members' jobs live in it too. */
  async compact(_jobs: JobView[]): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true
    if (this.heartbeat) clearInterval(this.heartbeat)
    this.heartbeat = undefined
    if (this.o.ownsPool) await this.pool.end().catch(() => undefined)
  }

  // --- the team's history (history says who) ---

  /** A domain's changes as the team knows them, oldest first. */
  changesOf(accountId: string, domain: string): Promise<TeamHistoryEntry[]> {
    return this.step((db) => domainHistory(db, this.accounts.toTeam(accountId), domain), { retryOnLoss: true })
  }

  /** An account's changes as the team knows them after the team row `afterId` (the screens' history, team-history-feed.ts). */
  accountChangesSince(accountId: string, afterId: number, limit: number): Promise<TeamAccountChange[]> {
    return this.step((db) => accountHistorySince(db, this.accounts.toTeam(accountId), afterId, limit), { retryOnLoss: true })
  }

  // --- reminders and changes from outside, handled once for the team (reminders/handled.ts) ---

  private reminderKey(accountId: string, key: string): string {
    return `${this.accounts.toTeam(accountId)}/${key}`
  }

  async handledOf(accountId: string, keys: readonly string[]): Promise<Map<string, ReminderHandled>> {
    const byTeamKey = new Map(keys.map((k) => [this.reminderKey(accountId, k), k]))
    const rows = await this.step((db) => remindersOf(db, [...byTeamKey.keys()]), { retryOnLoss: true })
    const out = new Map<string, ReminderHandled>()
    for (const r of rows) {
      const key = byTeamKey.get(r.key)
      if (key !== undefined && r.handled) out.set(key, handledOf(r.handled))
    }
    return out
  }

  async handleOnce(accountId: string, key: string, how: ReminderHandlingKind, snoozedUntil?: Date): Promise<{ mine: boolean; handled: ReminderHandled }> {
    const teamKey = this.reminderKey(accountId, key)
    const by = { member: this.o.member, workstation: this.o.workstation }
    const out = await this.step(async (db) => {
      await reminderDue(db, teamKey, new Date())
      return handleReminder(db, teamKey, how, by, snoozedUntil)
    })
    // Handled meanwhile and then un-snoozed cannot happen: a handling is only replaced after its snooze ran out.
    return { mine: out.mine, handled: out.reminder.handled ? handledOf(out.reminder.handled) : { how, at: new Date().toISOString(), ...by } }
  }

  // --- reminders notified once for the team (team-notices.ts, reminders/notices.ts) ---

  /**
   * Not retried on a lost connection (a retry would find its own landed claim taken): the claim
   * throws, and this workstation notifies them all (reminders/index.ts): right if it landed, at
   * worst a reminder twice.
   */
  async claimNotices(due: readonly DueReminder[]): Promise<DueReminder[]> {
    const keyed = due.map((d) => ({ d, key: this.reminderKey(d.item.accountId, reminderKey(d)) }))
    const notices = keyed.map(({ d: { item: { accountId, ...item } }, key }) => ({ key, account: this.accounts.toTeam(accountId), item }))
    const won = await this.step((db) => claimNotices(db, notices, { member: this.o.member, workstation: this.o.workstation }))
    return keyed.filter((k) => won.has(k.key)).map((k) => k.d)
  }

  async noticedItems(accountIds: readonly string[], from: string): Promise<ExpiringItem[]> {
    const byTeam = new Map(accountIds.map((id) => [this.accounts.toTeam(id), id]))
    const rows = await this.step((db) => noticedItems(db, [...byTeam.keys()], from), { retryOnLoss: true })
    return rows.flatMap((r) => {
      const accountId = byTeam.get(r.account)
      return accountId === undefined ? [] : [{ accountId, ...r.item }]
    })
  }

  // --- the per-target holds ---

  private holder(raw: unknown): { ref: TargetRef; holder: TargetHolder } | undefined {
    const r = holderRow.parse(raw)
    const accountId = this.accounts.toLocal(r.account)
    if (accountId === undefined) return undefined
    return {
      ref: { accountId, operation: r.operation, target: r.target },
      holder: holderFrom(r),
    }
  }

  private key(ref: TargetRef): [string, string, string] {
    return [this.accounts.toTeam(ref.accountId), ref.operation, ref.target]
  }

  async claim(ref: TargetRef, owner: { jobId: string; index: number }, opts: { overUnknown?: boolean; precondition?: SendPrecondition | undefined } = {}): Promise<ClaimResult> {
    const key = this.key(ref)
    const insert = (from: string) => `INSERT INTO team_leases (account, operation, target, member, workstation, job_id, idx, state, expires_at, basis)
       SELECT $1, $2, $3, $4, $5, $6, $7::integer, 'sending', now() + $8::bigint * interval '1 millisecond', $9::text FROM ${from}
       ON CONFLICT (account, operation, target) WHERE state IN ('sending', 'unknown') DO NOTHING
       RETURNING fence`
    const p = opts.precondition
    const values = [...key, this.o.member, this.o.workstation, owner.jobId, owner.index, this.ttl(), p?.basis ?? null]
    // With a precondition, what moved it is read in the same round trip (precondition() answers from
    // it; beginSend checks it again, committed, right before the send).
    const withMoved = (taking: string) => `WITH taken AS (${taking}) SELECT taken.fence, m.member, m.workstation, m.job_id, m.idx, m.ended_at, m.outcome
       FROM taken LEFT JOIN LATERAL (${movedSql('$1', '$2', '$3', '$10', '$9')}) AS m ON true`
    const remember = (fence: number, row: unknown) => {
      if (p !== undefined && p.since !== undefined) this.verdicts.set(fence, verdictOf(movedRow.safeParse(row).success ? row : undefined))
    }
    // The usual case in one round trip: the target is free, the insert takes it (one statement, committed on its own).
    if (!opts.overUnknown) {
      const first = await this.step((db) => db.query(prepared('claim', withMoved(insert(RELAXED)), [...values, sinceOf(p)])))
      const row: unknown = first.rows[0]
      if (row !== undefined) {
        const fence = fenceRow.parse(row).fence
        remember(fence, row)
        return this.took(ref, owner, fence)
      }
    }
    // Held, or held by a lease that ran out: expired leases made what they mean, then once more.
    // Bounded: the holder seen by a refused insert may let go before it is read; then try again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const out = await this.step(() =>
        this.transaction(async (c) => {
          await c.query(EXPIRE, key)
          // Sent again over an unknown outcome, knowingly: whether that one was done, nobody can tell.
          if (opts.overUnknown)
            await c.query(`UPDATE team_leases SET state = 'free', ended_at = now(), outcome = 'unsure', end_seq = nextval('team_end_seq') WHERE account = $1 AND operation = $2 AND target = $3 AND state = 'unknown'`, key)
          const taken = await c.query(withMoved(insert('(VALUES (1)) AS one')), [...values, sinceOf(p)])
          const row: unknown = taken.rows[0]
          if (row !== undefined) return { taken: true as const, fence: fenceRow.parse(row).fence, row }
          const held = await c.query(`SELECT ${EFFECTIVE} AND account = $1 AND operation = $2 AND target = $3`, key)
          const heldRow: unknown = held.rows[0]
          return { taken: false as const, heldRow }
        }),
      )
      if (out.taken) {
        remember(out.fence, out.row)
        return this.took(ref, owner, out.fence)
      }
      if (out.heldRow !== undefined) {
        const r = holderRow.parse(out.heldRow)
        return { ok: false, heldBy: holderFrom(r) }
      }
    }
    throw new TeamError('team.failed', { step: 'claim' })
  }

  async precondition(lease: TargetLease, p: SendPrecondition): Promise<PreconditionVerdict> {
    if (p.since === undefined) return { holds: false, unsure: 'noMark' }
    const known = this.verdicts.get(lease.fence)
    this.verdicts.delete(lease.fence)
    if (known) return known
    const [a, o, t] = this.key(lease.ref)
    const rows = await this.step((db) => db.query(prepared('precondition', movedSql('$1', '$2', '$3', '$4', '$5'), [a, o, t, sinceOf(p), p.basis ?? null])), { retryOnLoss: true })
    return verdictOf(rows.rows[0])
  }

  async mark(): Promise<LedgerMark> {
    const r = await this.step((db) => db.query(prepared('mark', `SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS mark FROM team_end_seq`, [])), { retryOnLoss: true })
    return String(markRow.parse(r.rows[0]).mark)
  }

  async otherSends(ref: TargetRef, owner: { jobId: string; index: number }, sinceIso: string): Promise<{ requestIds: string[]; withoutId: number }> {
    const [a, o, t] = this.key(ref)
    // From a little before: the job's start is this workstation's clock, the leases' the database's.
    const r = await this.step(
      (db) =>
        db.query(
          `SELECT request_id, (state IN ('sending', 'unknown') OR outcome = 'unsure' OR (outcome = 'done' AND request_id IS NULL)) AS counts_unknown
             FROM team_leases WHERE account = $1 AND operation = $2 AND target = $3 AND NOT (job_id = $4 AND idx = $5)
               AND since >= $6::timestamptz - interval '5 minutes' AND (state <> 'free' OR outcome IS NOT NULL)`,
          [a, o, t, owner.jobId, owner.index, sinceIso],
        ),
      { retryOnLoss: true },
    )
    const rows = z.array(sendRow).parse(r.rows)
    return { requestIds: rows.flatMap((row) => row.request_id ?? []), withoutId: rows.filter((row) => row.counts_unknown && row.request_id === null).length }
  }

  private took(ref: TargetRef, owner: { jobId: string; index: number }, fence: number): ClaimResult {
    const lease: TargetLease = { ref, jobId: owner.jobId, index: owner.index, fence }
    this.held.set(fence, lease)
    return { ok: true, lease }
  }

  async stillHeld(lease: TargetLease): Promise<boolean> {
    const r = await this.step((db) => db.query(prepared('still-held', stillHeldSql('$1', '$2'), [lease.fence, this.ttl()])))
    return r.rows.length === 1
  }

  async release(lease: TargetLease, outcome: 'free' | 'unknown'): Promise<void> {
    this.held.delete(lease.fence)
    this.verdicts.delete(lease.fence)
    await this.step(
      () =>
        this.pool.query(
          prepared('release', `UPDATE team_leases SET state = $2, ended_at = CASE WHEN $2 = 'free' THEN now() ELSE NULL END FROM ${RELAXED} WHERE fence = $1 AND state IN ('sending', 'unknown')`, [lease.fence, outcome]),
        ),
      { retryOnLoss: true },
    )
  }

  /** An unknown outcome settled: the lease free, with how its send ended and the request that shows it (a log entry's). */
  async settle(ref: TargetRef, how?: SendEnd | 'unsure', requestId?: string): Promise<void> {
    const key = this.key(ref)
    const ended = how === 'done' || how === 'failed' || how === 'unsure' ? how : null
    await this.step(
      () =>
        this.transaction(async (c) => {
          await c.query(EXPIRE, key)
          await c.query(
            `UPDATE team_leases SET state = 'free', ended_at = now(), outcome = $4::text,
               end_seq = CASE WHEN $4::text IS NOT NULL THEN nextval('team_end_seq') ELSE end_seq END, request_id = COALESCE($5::text, request_id)
             WHERE account = $1 AND operation = $2 AND target = $3 AND state = 'unknown'`,
            [...key, ended, requestId ?? null],
          )
        }),
      { retryOnLoss: true },
    )
  }

  async holderOf(ref: TargetRef): Promise<TargetHolder | undefined> {
    const rows = await this.step(async (db) => {
        const rows: unknown[] = (await db.query(`SELECT ${EFFECTIVE} AND account = $1 AND operation = $2 AND target = $3`, this.key(ref))).rows
        return rows
      }, { retryOnLoss: true })
    if (rows[0] === undefined) return undefined
    const r = holderRow.parse(rows[0])
    return holderFrom(r)
  }

  async holdersOf(refs: readonly TargetRef[]): Promise<Array<TargetHolder | undefined>> {
    if (refs.length === 0) return []
    const keys = refs.map((ref) => this.key(ref))
    const rows = await this.step(
      async (db) => {
        const rows: unknown[] = (
          await db.query(
            `SELECT held.* FROM (SELECT ${EFFECTIVE}) AS held
               JOIN unnest($1::text[], $2::text[], $3::text[]) AS asked(account, operation, target)
               ON asked.account = held.account AND asked.operation = held.operation AND asked.target = held.target`,
            [keys.map((k) => k[0]), keys.map((k) => k[1]), keys.map((k) => k[2])],
          )
        ).rows
        return rows
      },
      { retryOnLoss: true },
    )
    const byKey = new Map<string, TargetHolder>()
    for (const raw of rows) {
      const r = holderRow.parse(raw)
      byKey.set(JSON.stringify([r.account, r.operation, r.target]), holderFrom(r))
    }
    return keys.map((k) => byKey.get(JSON.stringify(k)))
  }

  async unknownTargets(): Promise<Array<{ ref: TargetRef; holder: TargetHolder }>> {
    const rows = await this.step(async (db) => {
        const rows: unknown[] = (await db.query(`SELECT * FROM (SELECT ${EFFECTIVE}) AS held WHERE state = 'unknown' ORDER BY since`)).rows
        return rows
      }, { retryOnLoss: true })
    return rows.map((r) => this.holder(r)).filter((h) => h !== undefined)
  }
}
