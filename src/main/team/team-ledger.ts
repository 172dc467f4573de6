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
import { WRITE_ENDPOINT_NAMES } from '@shared/endpoints/names'
import type { JobView } from '@shared/jobs'
import { withoutSecrets } from '../jobs/ledger/at-rest'
import {
  applyJournalRecord,
  journaledJob,
  journalRecordSchema,
  type JournalRecord,
} from '../jobs/ledger/journal-record'
import type * as L from '../jobs/ledger/write-ledger'
import { ensureSchema, schemaStatus, SCHEMA_VERSION, type SchemaStatus } from './schema'
import { registerProcess } from './team-directory'
import { teamChangeOf } from './team-history'
import {
  accountHistorySince,
  domainHistory,
  handleReminder,
  recordDrift,
  reminderDue,
  remindersOf,
  shareAccount,
  sharedAccount,
  type TeamAccount,
  type TeamAccountChange,
  type TeamHistoryEntry,
  type TeamReminder,
} from './team-shared'
import type { DriftFinding } from '@shared/portfolio'
import {
  reminderKey,
  type DueReminder,
  type ExpiringItem,
  type ReminderHandled,
  type ReminderHandlingKind,
} from '@shared/portfolio/reminders'
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
import { inTransaction } from './transaction'

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
  /** Creates or migrates the schema first (the owner's `team init` and tests); otherwise a schema that is not current is refused. */
  createSchema?: boolean
  /** The schema as the caller has just read it (open-team.ts): not read again at open. */
  schema?: SchemaStatus
  /** A schema of another version (team.schemaOlder / team.schemaNewer): read what can be, refuse every write with this. */
  refuseWrites?: TeamError
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
const holderFrom = (r: z.infer<typeof holderRow>): L.TargetHolder => ({
  jobId: r.job_id,
  index: r.idx,
  state: r.state,
  since: r.since.toISOString(),
  member: r.member,
  workstation: r.workstation,
})
const heldRow = z.object({ held: count })
/** team_begin_send's answer as beginSend reads it. */
const BEGUN =
  'held, m_member AS member, m_workstation AS workstation, m_job AS job_id, m_idx AS idx, m_at AS ended_at, m_outcome AS outcome'
const liveJobRows = z.array(
  z.object({ id: z.string(), workstation: z.string().nullable(), pid: z.number().int().nullable() }),
)
const journalRow = z.object({ member: z.string(), workstation: z.string(), account: z.string(), record: z.unknown() })

type ItemRecord = Extract<JournalRecord, { t: 'item' }>
/** As the local journal keeps them: a job without secrets or contacts; an answer without secrets. */
const keptItem = (r: ItemRecord): ItemRecord =>
  r.result !== undefined ? { ...r, result: withoutSecrets(r.result) } : r
const keptRecord = (r: JournalRecord): JournalRecord =>
  r.t === 'job' ? { t: 'job', job: journaledJob(r.job) } : r.t === 'item' ? keptItem(r) : r

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

/**
 * A statement of every send's path, named so that each connection parses and plans it once
 * rather than on every item (the text of a name never changes).
 */
const prepared = (name: string, text: string, values: unknown[]): pg.QueryConfig => ({
  name: `team-${name}`,
  text,
  values,
})

const movedRow = z.object({
  member: z.string(),
  workstation: z.string(),
  job_id: z.string(),
  idx: count,
  ended_at: z.date().nullable(),
  outcome: z.enum(['done', 'unsure']),
})
const sendRow = z.object({ request_id: z.string().nullable(), counts_unknown: z.boolean() })
const markRow = z.object({ mark: count })
const text = z.string().nullable()
/** team_claim's answer: the lease taken (and what moved its precondition), or who holds the target. */
const claimRow = z.object({
  fence: count.nullable(),
  h_member: text,
  h_workstation: text,
  h_job: text,
  h_idx: count.nullable(),
  h_state: text,
  h_since: z.date().nullable(),
  m_member: text,
  m_workstation: text,
  m_job: text,
  m_idx: count.nullable(),
  m_at: z.date().nullable(),
  m_outcome: text,
})

/**
 * The send of a target that moved a precondition (preconditions.ts): one that ended done after the
 * mark `since`, or done from the same basis; else one settled without evidence after the mark
 * (sent again over an unknown outcome). The parameters: the target ($a, $o, $t), the mark and the basis.
 */
const movedSql = (
  a: string,
  o: string,
  t: string,
  since: string,
  basis: string,
) => `SELECT member, workstation, job_id, idx, ended_at, outcome FROM team_leases
  WHERE account = ${a} AND operation = ${o} AND target = ${t} AND outcome IN ('done', 'unsure')
    AND (end_seq > ${since}::bigint OR (outcome = 'done' AND ${basis}::text IS NOT NULL AND basis = ${basis}::text))
  ORDER BY (outcome = 'done') DESC, end_seq DESC LIMIT 1`

/** A moved row (or none) as the verdict the runner acts on. */
function verdictOf(raw: unknown): L.PreconditionVerdict {
  if (raw === undefined || raw === null) return { holds: true }
  const parsed = movedRow.safeParse(raw)
  if (!parsed.success) return { holds: true }
  const r = parsed.data
  if (r.outcome === 'unsure') return { holds: false, unsure: 'unsettled' }
  const moved: L.EarlierSend = {
    jobId: r.job_id,
    index: r.idx,
    at: (r.ended_at ?? new Date()).toISOString(),
    member: r.member,
    workstation: r.workstation,
  }
  return { holds: false, moved }
}

/** The journal step's answer: journaled and checked; or what moved the precondition; or the lease lost. */
function begunOf(row: unknown): L.BeginSend {
  if (heldRow.parse(row).held === 1) return { ok: true }
  const verdict = verdictOf(movedRow.safeParse(row).success ? row : undefined)
  if (!verdict.holds && 'moved' in verdict) return { ok: false, moved: verdict.moved }
  return { ok: false, lost: true }
}

/** A mark as the database's sequence reads it; anything else (a local ledger's, a damaged one) as no mark. */
const sinceOf = (p: L.SendPrecondition | undefined): string | null =>
  p?.since !== undefined && /^\d+$/.test(p.since) ? p.since : null

/**
 * Why this app writes nothing to the team's schema, if it does not: a schema of another version is
 * read as far as it can be, never written (issue 50 point 4: only the owner's `team migrate`
 * changes it). No schema at all is refused at once.
 */
function schemaRefusal(schema: SchemaStatus): TeamError | undefined {
  if (schema.state === 'absent') throw new TeamError('team.notInitialised', { command: 'hosting-admin team init' })
  if (schema.state === 'current') return undefined
  return new TeamError(schema.state === 'older' ? 'team.schemaOlder' : 'team.schemaNewer', {
    found: schema.version,
    supported: SCHEMA_VERSION,
    command: 'hosting-admin team migrate',
  })
}

export class TeamLedger implements L.WriteLedger {
  readonly kind = 'team'
  readonly where: string
  unreadableLines = 0
  /** The jobs another process was running at the last load(): see runsElsewhere. */
  private liveElsewhere = new Set<string>()
  private readonly pool: pg.Pool
  private readonly leaseMs: number
  private readonly accounts: TeamAccountMap
  private readonly held = new Map<number, L.TargetLease>()
  /** Preconditions checked with a lease's claim, by fence, until precondition() takes the answer. */
  private readonly verdicts = new Map<number, L.PreconditionVerdict>()
  private heartbeat: NodeJS.Timeout | undefined
  /** This ledger's process as the team knows it (team_processes): the jobs it starts carry it. */
  private readonly processId: string
  private closed = false

  private constructor(
    private readonly o: TeamLedgerOptions,
    processId: string,
  ) {
    this.processId = processId
    this.pool = o.pool
    this.where = o.where
    this.leaseMs = o.leaseMs ?? 15_000
    this.accounts = o.accounts ?? SAME_IDS
  }

  /** Opens the ledger: the schema checked (created or migrated on first use; a newer one refused), this member and workstation recorded. */
  static async open(opened: TeamLedgerOptions): Promise<TeamLedger> {
    if (opened.createSchema === true) await ensureSchema(opened.pool, { create: true })
    // Read once per start: the caller's reading stands unless the schema was just created or migrated here.
    const known = opened.createSchema === true ? undefined : opened.schema
    const o = {
      ...opened,
      refuseWrites: opened.refuseWrites ?? schemaRefusal(known ?? (await schemaStatus(opened.pool))),
    }
    const processId = randomUUID()
    // The member as the team knows it: a member's own login is its name, whatever team.json says.
    if (!o.refuseWrites)
      o.member = await registerProcess(o.pool, {
        member: o.member,
        workstation: o.workstation,
        process: processId,
        pid: process.pid,
      })
    const ledger = new TeamLedger(o, processId)
    const every = o.heartbeatMs ?? Math.max(50, Math.floor(ledger.leaseMs / 3))
    ledger.heartbeat = setInterval(() => void ledger.renew(), every)
    // The heartbeat keeps leases alive, never the process.
    ledger.heartbeat.unref()
    return ledger
  }

  /** One database step; a failure becomes a TeamError (team.unreachable when the connection is the cause). A write of a schema of another version is refused. */
  private async step<T>(
    run: (db: pg.Pool) => Promise<T>,
    opts: { retryOnLoss?: boolean; writes?: boolean } = {},
  ): Promise<T> {
    if (this.closed) throw new TeamError('team.unreachable', { reason: 'closed' })
    if (opts.writes && this.o.refuseWrites) throw this.o.refuseWrites
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
  private transaction<T>(run: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, run)
  }

  private ttl(): string {
    return String(this.leaseMs)
  }

  private async renew(): Promise<void> {
    try {
      await this.pool.query(
        prepared('heartbeat', 'SELECT team_heartbeat($1, $2, $3::bigint[], $4, $5)', [
          this.o.workstation,
          this.processId,
          [...this.held.keys()],
          this.ttl(),
          this.o.member,
        ]),
      )
    } catch {
      // The database away: the leases run out and the check before a send says so; nothing to do here.
    }
  }

  // --- the journal ---

  async load(): Promise<JobView[]> {
    const read = await this.step(
      async (db) => {
        const rows: unknown[] = (
          await db.query(
            'SELECT j.member, j.workstation, j.account, r.record FROM team_journal r JOIN team_jobs j ON j.id = r.job_id ORDER BY r.seq',
          )
        ).rows
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
    const alive = (r: { workstation: string | null; pid: number | null }) =>
      r.workstation !== this.o.workstation || r.pid === null || r.pid === process.pid || processAlive(r.pid)
    this.liveElsewhere = new Set(
      liveJobRows
        .parse(read.live)
        .filter(alive)
        .map((r) => r.id),
    )
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
      return {
        ...job,
        accountId: this.accounts.toLocal(who.account) ?? who.account,
        by: { member: who.member, workstation: who.workstation },
      }
    })
  }

  runsElsewhere(jobId: string): boolean {
    return this.liveElsewhere.has(jobId)
  }

  /** Nothing is ever dropped from the team's journal (compact is a no-op), so nothing needs keeping aside. */
  async keepAside(_now: Date): Promise<string> {
    return this.where
  }

  async append(record: JournalRecord): Promise<void> {
    const kept = keptRecord(record)
    const jobId = kept.t === 'job' ? kept.job.id : kept.job
    const items = kept.t === 'job' ? kept.job.items : []
    // One call (team-rights.ts team_append), so one round trip and one durable commit: the job's
    // or item's row and the record together, in this member's name, never moving an item back from
    // done or failed. Idempotent by record_id: retried once when the connection was lost.
    const values = [
      randomUUID(),
      jobId,
      this.o.workstation,
      JSON.stringify(kept),
      kept.t === 'job' ? this.accounts.toTeam(kept.job.accountId) : null,
      kept.t === 'job' ? kept.job.operation : null,
      kept.t === 'job' ? this.processId : null,
      items.map((_, i) => i),
      items.map((it) => it.target),
      items.map((it) => it.state),
      kept.t === 'item' ? kept.i : null,
      kept.t === 'item' ? kept.state : null,
      this.o.member,
    ]
    await this.step(
      (db) =>
        db.query(
          prepared(
            'append',
            'SELECT team_append($1, $2, $3, $4::jsonb, $5, $6, $7, $8::int[], $9::text[], $10::text[], $11, $12, $13)',
            values,
          ),
        ),
      { retryOnLoss: true, writes: true },
    )
  }

  /**
   * Right before the send, in one committed call (team_begin_send): whether a send of the target
   * ended done since the job's mark (or from the same basis); if none did, the lease (this
   * member's) checked still current and unexpired, marked checked (the send may leave from now on)
   * and renewed; and only then the item journaled as sending. Nothing is journaled when either
   * fails, so nothing leaves unjournaled, and a lease checked is one whose send may have left (it
   * turns unknown, never free, if it runs out).
   */
  async beginSend(record: JournalRecord, lease: L.TargetLease, p: L.SendPrecondition): Promise<L.BeginSend> {
    const values = this.beginSendValues(record, lease, p)
    const out = await this.step(
      (db) =>
        db.query(
          prepared(
            'begin-send',
            `SELECT ${BEGUN} FROM team_begin_send($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11)`,
            values,
          ),
        ),
      { retryOnLoss: true, writes: true },
    )
    return begunOf(out.rows[0])
  }

  /**
   * A worker's last send's end (let go free) and its next item's journal step in one statement
   * (team_end and team_begin_send, as apart): one round trip and one durable commit, where apart
   * the end's commit and then the journal step's are waited for in turn. Both idempotent, so
   * retried once on a lost connection as each is alone. When the statement fails otherwise
   * (nothing of either written), the end is tried alone before the failure is thrown on.
   */
  async endThenBeginSend(...[last, record, lease, p]: L.EndThenBeginSend): Promise<L.BeginSend> {
    const begin = this.beginSendValues(record, lease, p)
    const end = this.endValues(last.record, last.lease, 'free', last.job)
    try {
      const out = await this.step(
        (db) =>
          db.query(
            prepared(
              'end-then-begin-send',
              `SELECT ${BEGUN} FROM (SELECT team_end($12, $13, $14, $15, $16, $17, $18::jsonb, $19, $20, $21, $22, $23::jsonb, $24) OFFSET 0) AS ended
                 LEFT JOIN LATERAL team_begin_send($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11) ON true`,
              [...begin, ...end],
            ),
          ),
        { retryOnLoss: true, writes: true },
      )
      return begunOf(out.rows[0])
    } catch (err) {
      // Refused as a whole (not a lost connection, where it may have landed): the end alone, then the failure.
      if (!(err instanceof TeamError && err.code === 'team.unreachable'))
        await this.end(last.record, last.lease, 'free', last.job).catch(() => undefined)
      throw err
    }
  }

  /** team_begin_send's arguments ($1 to $11). */
  private beginSendValues(record: JournalRecord, lease: L.TargetLease, p: L.SendPrecondition): unknown[] {
    if (record.t !== 'item') throw new Error('beginSend takes an item record')
    const kept = keptItem(record)
    return [lease.fence, this.ttl(), ...this.itemRecordValues(kept), sinceOf(p), p.basis ?? null, this.o.member]
  }

  /** An item's journal record as team_begin_send and team_end take it ($3 to $8 of both). */
  private itemRecordValues(kept: ItemRecord): unknown[] {
    return [randomUUID(), kept.job, kept.i, kept.state, JSON.stringify(kept), this.o.workstation]
  }

  /**
   * A send's end (team_end): its item's record, its row's state, its lease let go with how its send
   * ended (done or failed, in the order of ends: end_seq; the request id the service gave it) and,
   * for a change (done or unknown), the team's history row with this member (history says who;
   * what it keeps is teamChangeOf's: never a parameter, so never a secret), in one call: one round
   * trip and one durable commit. Only while the lease is still this send's: a process woken past
   * its lease, whose item a colleague settled meanwhile, writes nothing. Idempotent: a retry after a
   * lost connection whose first commit landed finds the lease let go, and writes nothing again.
   */
  async end(record: JournalRecord, lease: L.TargetLease, outcome: 'free' | 'unknown', job: JobView): Promise<void> {
    if (record.t !== 'item') {
      await Promise.all([this.release(lease, outcome), this.append(record)])
      return
    }
    const values = this.endValues(record, lease, outcome, job)
    await this.step(
      (db) =>
        db.query(
          prepared(
            'end',
            'SELECT team_end($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12::jsonb, $13)',
            values,
          ),
        ),
      { retryOnLoss: true, writes: true },
    )
  }

  /** team_end's arguments (13), the lease let go from this ledger's own holds. */
  private endValues(record: JournalRecord, lease: L.TargetLease, outcome: 'free' | 'unknown', job: JobView): unknown[] {
    if (record.t !== 'item') throw new Error('an end takes an item record')
    this.held.delete(lease.fence)
    this.verdicts.delete(lease.fence)
    const kept = keptItem(record)
    const changed = teamChangeOf(job, kept.i)
    return [
      lease.fence,
      outcome,
      ...this.itemRecordValues(kept),
      kept.requestId ?? null,
      changed ? this.accounts.toTeam(job.accountId) : null,
      changed ? changed.domain : null,
      changed ? JSON.stringify(changed.change) : null,
      this.o.member,
    ]
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
    return this.step((db) => accountHistorySince(db, this.accounts.toTeam(accountId), afterId, limit), {
      retryOnLoss: true,
    })
  }

  /**
   * Upkeep (issue 50 point 7): settled jobs older than the team's retention moved to the archive
   * (team_archive_settled), at most once a day whichever member's app starts first. How many moved.
   */
  async archiveIfDue(): Promise<number> {
    return this.step(
      async (db) => {
        const due = z
          .object({ due: z.boolean() })
          .parse(
            (
              await db.query(
                `SELECT coalesce(archived_at < now() - interval '1 day', true) AS due FROM team_settings WHERE id = 1`,
              )
            ).rows[0],
          ).due
        if (!due) return 0
        return z.object({ moved: count }).parse((await db.query('SELECT team_archive_settled() AS moved')).rows[0])
          .moved
      },
      { writes: true },
    )
  }

  // --- what the team shares of an account, and the changes from outside its members find ---

  /** The account's identity as the team shares it (label, colour, tag, write safety level), if shared. */
  sharedIdentity(accountId: string): Promise<TeamAccount | undefined> {
    return this.step((db) => sharedAccount(db, this.accounts.toTeam(accountId)), { retryOnLoss: true })
  }

  /** Shares the account's identity; a change of its level is a team history entry with this member (team_share_account). */
  shareIdentity(accountId: string, identity: Omit<TeamAccount, 'fingerprint'>): Promise<void> {
    return this.step(
      (db) =>
        shareAccount(
          db,
          { ...identity, fingerprint: this.accounts.toTeam(accountId) },
          { member: this.o.member, workstation: this.o.workstation },
        ),
      { writes: true },
    )
  }

  /** A change from outside this workstation's refresh found, kept for the team (team_drift_findings). */
  recordDrift(accountId: string, finding: DriftFinding): Promise<void> {
    return this.step(
      (db) =>
        recordDrift(db, this.accounts.toTeam(accountId), finding.subject, finding, {
          member: this.o.member,
          workstation: this.o.workstation,
        }),
      { writes: true },
    )
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

  async handleOnce(
    accountId: string,
    key: string,
    how: ReminderHandlingKind,
    snoozedUntil?: Date,
  ): Promise<{ mine: boolean; handled: ReminderHandled }> {
    const teamKey = this.reminderKey(accountId, key)
    const by = { member: this.o.member, workstation: this.o.workstation }
    const out = await this.step(
      async (db) => {
        await reminderDue(db, teamKey, new Date())
        return handleReminder(db, teamKey, how, by, snoozedUntil)
      },
      { writes: true },
    )
    // Handled meanwhile and then un-snoozed cannot happen: a handling is only replaced after its snooze ran out.
    return {
      mine: out.mine,
      handled: out.reminder.handled ? handledOf(out.reminder.handled) : { how, at: new Date().toISOString(), ...by },
    }
  }

  // --- reminders notified once for the team (team-notices.ts, reminders/notices.ts) ---

  /**
   * Not retried on a lost connection (a retry would find its own landed claim taken): the claim
   * throws, and this workstation notifies them all (reminders/index.ts): right if it landed, at
   * worst a reminder twice.
   */
  async claimNotices(due: readonly DueReminder[]): Promise<DueReminder[]> {
    const keyed = due.map((d) => ({ d, key: this.reminderKey(d.item.accountId, reminderKey(d)) }))
    const notices = keyed.map(
      ({
        d: {
          item: { accountId, ...item },
        },
        key,
      }) => ({ key, account: this.accounts.toTeam(accountId), item }),
    )
    const won = await this.step((db) =>
      claimNotices(db, notices, { member: this.o.member, workstation: this.o.workstation }),
    )
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

  private holder(raw: unknown): { ref: L.TargetRef; holder: L.TargetHolder } | undefined {
    const r = holderRow.parse(raw)
    const accountId = this.accounts.toLocal(r.account)
    if (accountId === undefined) return undefined
    return {
      ref: { accountId, operation: r.operation, target: r.target },
      holder: holderFrom(r),
    }
  }

  private key(ref: L.TargetRef): [string, string, string] {
    return [this.accounts.toTeam(ref.accountId), ref.operation, ref.target]
  }

  async claim(
    ref: L.TargetRef,
    owner: { jobId: string; index: number },
    opts: { overUnknown?: boolean; precondition?: L.SendPrecondition | undefined } = {},
  ): Promise<L.ClaimResult> {
    const p = opts.precondition
    // One call (team_claim): expired leases made what they mean, the target taken in this member's
    // name, and with a mark what moved the precondition since (precondition() answers from it;
    // beginSend checks it again, committed). A plain claim commits without waiting for the disk
    // (a lost claim is safe: beginSend's check fails); one over an unknown outcome waits for it.
    const values = [
      ...this.key(ref),
      this.o.workstation,
      owner.jobId,
      owner.index,
      this.ttl(),
      p?.basis ?? null,
      sinceOf(p),
      opts.overUnknown === true,
      opts.overUnknown !== true,
      this.o.member,
    ]
    // Bounded: the holder seen by a refused insert may let go before it is read; then try again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const out = await this.step(
        (db) =>
          db.query(
            prepared('claim', 'SELECT * FROM team_claim($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)', values),
          ),
        { writes: true },
      )
      const row = claimRow.safeParse(out.rows[0])
      if (!row.success) continue
      const r = row.data
      if (r.fence !== null) {
        if (p !== undefined && p.since !== undefined) {
          const moved =
            r.m_outcome === null
              ? undefined
              : {
                  member: r.m_member,
                  workstation: r.m_workstation,
                  job_id: r.m_job,
                  idx: r.m_idx,
                  ended_at: r.m_at,
                  outcome: r.m_outcome,
                }
          this.verdicts.set(r.fence, verdictOf(moved))
        }
        return this.took(ref, owner, r.fence)
      }
      if (r.h_state === 'sending' || r.h_state === 'unknown') {
        return {
          ok: false,
          heldBy: {
            jobId: r.h_job ?? '',
            index: r.h_idx ?? 0,
            state: r.h_state,
            since: (r.h_since ?? new Date()).toISOString(),
            member: r.h_member ?? undefined,
            workstation: r.h_workstation ?? undefined,
          },
        }
      }
    }
    throw new TeamError('team.failed', { step: 'claim' })
  }

  async precondition(lease: L.TargetLease, p: L.SendPrecondition): Promise<L.PreconditionVerdict> {
    if (p.since === undefined) return { holds: false, unsure: 'noMark' }
    const known = this.verdicts.get(lease.fence)
    this.verdicts.delete(lease.fence)
    if (known) return known
    const [a, o, t] = this.key(lease.ref)
    const rows = await this.step(
      (db) =>
        db.query(
          prepared('precondition', movedSql('$1', '$2', '$3', '$4', '$5'), [a, o, t, sinceOf(p), p.basis ?? null]),
        ),
      { retryOnLoss: true },
    )
    return verdictOf(rows.rows[0])
  }

  async mark(): Promise<L.LedgerMark> {
    const r = await this.step(
      (db) =>
        db.query(
          prepared('mark', `SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS mark FROM team_end_seq`, []),
        ),
      { retryOnLoss: true },
    )
    return String(markRow.parse(r.rows[0]).mark)
  }

  async otherSends(
    ref: L.TargetRef,
    owner: { jobId: string; index: number },
    sinceIso: string,
  ): Promise<{ requestIds: string[]; withoutId: number }> {
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
    return {
      requestIds: rows.flatMap((row) => row.request_id ?? []),
      withoutId: rows.filter((row) => row.counts_unknown && row.request_id === null).length,
    }
  }

  private took(ref: L.TargetRef, owner: { jobId: string; index: number }, fence: number): L.ClaimResult {
    const lease: L.TargetLease = { ref, jobId: owner.jobId, index: owner.index, fence }
    this.held.set(fence, lease)
    return { ok: true, lease }
  }

  /** The committed check before a send made on its own (team_still_held): this member's lease, current and unexpired, marked checked. */
  async stillHeld(lease: L.TargetLease): Promise<boolean> {
    const r = await this.step(
      (db) =>
        db.query(
          prepared('still-held', 'SELECT team_still_held($1, $2, $3) AS held', [
            lease.fence,
            this.ttl(),
            this.o.member,
          ]),
        ),
      { writes: true },
    )
    return z.object({ held: z.boolean() }).parse(r.rows[0]).held
  }

  async release(lease: L.TargetLease, outcome: 'free' | 'unknown'): Promise<void> {
    this.held.delete(lease.fence)
    this.verdicts.delete(lease.fence)
    await this.step(
      (db) =>
        outcome === 'free'
          ? db.query(prepared('release', 'SELECT team_release($1, true, $2)', [lease.fence, this.o.member]))
          : db.query(prepared('keep-unknown', 'SELECT team_keep_unknown($1, $2)', [lease.fence, this.o.member])),
      { retryOnLoss: true, writes: true },
    )
  }

  /**
   * An unknown outcome settled (team_settle): only with the service's log entry of the item's own
   * request, who settled it recorded. Without evidence (an account removed on this workstation)
   * nothing: the team's unknown outcome stays until someone settles it from the log.
   */
  async settle(ref: L.TargetRef, evidence?: L.SettleEvidence): Promise<void> {
    if (!evidence) return
    const entry = {
      request_id: evidence.requestId,
      ...(evidence.datetime !== undefined ? { datetime: evidence.datetime } : {}),
    }
    await this.step(
      (db) =>
        db.query('SELECT team_settle($1, $2, $3, $4, $5, $6::jsonb, $7)', [
          ...this.key(ref),
          evidence.how,
          evidence.requestId,
          JSON.stringify(entry),
          this.o.member,
        ]),
      { retryOnLoss: true, writes: true },
    )
  }

  async holderOf(ref: L.TargetRef): Promise<L.TargetHolder | undefined> {
    const rows = await this.step(
      async (db) => {
        const rows: unknown[] = (
          await db.query(`SELECT ${EFFECTIVE} AND account = $1 AND operation = $2 AND target = $3`, this.key(ref))
        ).rows
        return rows
      },
      { retryOnLoss: true },
    )
    if (rows[0] === undefined) return undefined
    const r = holderRow.parse(rows[0])
    return holderFrom(r)
  }

  async holdersOf(refs: readonly L.TargetRef[]): Promise<Array<L.TargetHolder | undefined>> {
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
    const byKey = new Map<string, L.TargetHolder>()
    for (const raw of rows) {
      const r = holderRow.parse(raw)
      byKey.set(JSON.stringify([r.account, r.operation, r.target]), holderFrom(r))
    }
    return keys.map((k) => byKey.get(JSON.stringify(k)))
  }

  async unknownTargets(): Promise<Array<{ ref: L.TargetRef; holder: L.TargetHolder }>> {
    const rows = await this.step(
      async (db) => {
        const rows: unknown[] = (
          await db.query(`SELECT * FROM (SELECT ${EFFECTIVE}) AS held WHERE state = 'unknown' ORDER BY since`)
        ).rows
        return rows
      },
      { retryOnLoss: true },
    )
    return rows.map((r) => this.holder(r)).filter((h) => h !== undefined)
  }
}
