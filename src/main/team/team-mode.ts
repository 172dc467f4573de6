/**
 * Team mode as the app's services and the command line run it (issue 37 points 1 and 6): when
 * team.json is configured, the runner's WriteLedger is the team's, opened through
 * openConfiguredTeamLedger. The database may be away at start or go away later: this ledger then
 * refuses every step with team.unreachable (so no write is sent without the shared lease), says
 * so once per change of state (onStatus), and tries the database again, at most once every
 * `retryMs`, on the next step that needs it. Reading from the service never goes through here.
 */
import type { JobView } from '@shared/jobs'
import type { JournalRecord } from '../jobs/ledger/journal-record'
import type * as L from '../jobs/ledger/write-ledger'
import { TeamAccountIdentities } from './account-identity'
import { openConfiguredTeamLedger, type TeamKeys } from './open-team'
import { TeamError, teamErrorOf, type TeamErrorCode } from './team-error'
import type { TeamLedger } from './team-ledger'
import type { TeamAccount, TeamAccountChange, TeamHistoryEntry } from './team-shared'
import type { DriftFinding } from '@shared/portfolio'
import { z } from 'zod'
import { ACCOUNT_COLOURS, ACCOUNT_ENVIRONMENTS } from '@shared/accounts'
import { WRITE_SAFETY } from '@shared/accounts/write-safety'
import type { SharedIdentity } from '../accounts/account-service'
import type { DueReminder, ExpiringItem, ReminderHandled, ReminderHandlingKind } from '@shared/portfolio/reminders'
import { readTeamSettings } from './team-settings'

/**
 * What the window's Team section (and the command's `team status`) may show of this process's
 * team mode: whether it is on, connected, and who this workstation is. `problem` is a team.*
 * catalogue code with its parameters (team.unreachable, team.refused, team.schemaNewer, ...).
 */
export type TeamStatus =
  | { mode: 'off' }
  | { mode: 'team'; connected: true; member: string; workstation: string; where: string }
  | {
      mode: 'team'
      connected: false
      member: string
      workstation: string
      where: string
      problem: { code: TeamErrorCode; params: Record<string, string | number> }
    }

/**
 * An account's identity between this workstation and the team (issue 50 point 2): what the
 * workstation keeps, and how a change another member made is applied here.
 */
export interface IdentitySync {
  local(accountId: string): SharedIdentity | undefined
  apply(accountId: string, shared: SharedIdentity): Promise<void>
}

const sharedIdentitySchema = z.object({
  label: z.string().min(1),
  colour: z.enum(ACCOUNT_COLOURS),
  environment: z.enum(ACCOUNT_ENVIRONMENTS),
  writeSafety: z.enum(WRITE_SAFETY),
})

export interface TeamModeOptions {
  /** Shares each account's identity with the team and applies the team's here. */
  identities?: IdentitySync
  /** How long after a failed attempt the database is tried again (default 5 s). */
  retryMs?: number
  /** Told once each time the status changes (connected -> unreachable -> connected). */
  onStatus?: (status: TeamStatus) => void
}

/** The team ledger as this process keeps it: opened lazily, reopened after the database was away. */
class ReconnectingTeamLedger implements L.WriteLedger {
  readonly kind = 'team'
  readonly where: string
  private inner: TeamLedger | undefined
  private opening: Promise<TeamLedger> | undefined
  private lastFailureAt = 0
  private current: TeamStatus
  private closed = false

  constructor(
    private readonly open: () => Promise<TeamLedger | undefined>,
    private readonly names: { member: string; workstation: string; where: string },
    /** An account's team fingerprint made known before a step names it (an account added since the start). */
    private readonly learn: (accountId: string) => Promise<void>,
    private readonly o: TeamModeOptions = {},
  ) {
    this.where = names.where
    this.current = { mode: 'team', connected: false, ...names, problem: { code: 'team.unreachable', params: {} } }
  }

  get status(): TeamStatus {
    return this.current
  }

  get unreadableLines(): number {
    return this.inner?.unreadableLines ?? 0
  }

  runsElsewhere(jobId: string): boolean {
    return this.inner?.runsElsewhere(jobId) ?? false
  }

  /**
   * What could not be written while the database was away, after its send had ended: the item's
   * end (done, failed, unknown, skipped), the job's status, the release of its lease. Written, in
   * order, when the database is back, so the team's journal and leases say how the job really
   * ended (nothing is resent: these are records, never requests).
   */
  private readonly owed: Array<(l: TeamLedger) => Promise<void>> = []
  private probe: NodeJS.Timeout | undefined
  private paying: Promise<void> | undefined

  private setStatus(next: TeamStatus): void {
    const before = this.current
    this.current = next
    if (next.mode === 'team' && next.connected) {
      if (this.probe) clearInterval(this.probe)
      this.probe = undefined
      void this.payOwed()
    }
    const same =
      before.mode === 'team' &&
      next.mode === 'team' &&
      before.connected === next.connected &&
      (before.connected || next.connected || before.problem.code === next.problem.code)
    if (!same || !this.announced) this.o.onStatus?.(next)
    this.announced = true
  }
  private announced = false

  /** The ledger opened whose upkeep has not run yet. */
  private upkeepOwed: TeamLedger | undefined

  /**
   * Upkeep, at most daily: old settled jobs to the archive, never holding up the start. Run after
   * the start's journal read, not beside it: beside it, it took the pool's one connection and the
   * read opened a second (a server process of its own) at every start, the command line's too.
   */
  private upkeep(): void {
    const l = this.upkeepOwed
    this.upkeepOwed = undefined
    if (l && l === this.inner) void l.archiveIfDue().catch(() => undefined)
  }

  /** The open ledger, or team.unreachable (tried again once `retryMs` has passed since the last failure). */
  private async ledger(): Promise<TeamLedger> {
    if (this.closed) throw new TeamError('team.unreachable', { reason: 'closed' })
    if (this.inner) return this.inner
    if (this.opening) return this.opening
    if (this.lastFailureAt > 0 && Date.now() - this.lastFailureAt < (this.o.retryMs ?? 5000)) {
      // The cause said at the last attempt, with its parameters (never a sentence with a bare {user}).
      throw this.current.mode === 'team' && !this.current.connected
        ? new TeamError(this.current.problem.code, this.current.problem.params)
        : new TeamError('team.unreachable')
    }
    this.opening = (async () => {
      try {
        const l = await this.open()
        if (!l) throw new TeamError('team.notInitialised')
        this.inner = l
        this.upkeepOwed = l
        this.setStatus({ mode: 'team', connected: true, ...this.names })
        return l
      } catch (err) {
        this.failed(err)
        throw teamErrorOf(err)
      } finally {
        this.opening = undefined
      }
    })()
    return this.opening
  }

  private async payOwed(): Promise<void> {
    const l = this.inner
    if (!l || this.paying || this.owed.length === 0) return
    const pay = async () => {
      try {
        for (let next = this.owed[0]; next; next = this.owed[0]) {
          await next(l)
          this.owed.shift()
        }
      } catch (err) {
        // Away again: kept for the next return.
        this.failed(err)
      }
    }
    this.paying = pay().finally(() => (this.paying = undefined))
    await this.paying
  }

  /** While away, the database is asked again every `retryMs`, so its return is noticed without a write asking. */
  private watchForReturn(): void {
    if (this.probe || this.closed) return
    this.probe = setInterval(() => {
      void (async () => {
        try {
          if (this.inner) {
            await this.inner.unknownTargets()
            this.setStatus({ mode: 'team', connected: true, ...this.names })
          } else await this.ledger()
        } catch {
          // Still away.
        }
      })()
    }, this.o.retryMs ?? 5000)
    this.probe.unref()
  }

  private failed(err: unknown): void {
    const e = teamErrorOf(err)
    if (e.code === 'team.unreachable') this.watchForReturn()
    this.lastFailureAt = Date.now()
    this.setStatus({ mode: 'team', connected: false, ...this.names, problem: { code: e.code, params: e.params } })
  }

  /** One step on the open ledger; a connection lost makes the status unreachable (and the step throws). */
  private async step<T>(run: (l: TeamLedger) => Promise<T>): Promise<T> {
    const l = await this.ledger()
    try {
      const out = await run(l)
      if (this.current.mode === 'team' && !this.current.connected)
        this.setStatus({ mode: 'team', connected: true, ...this.names })
      return out
    } catch (err) {
      const e = teamErrorOf(err)
      if (e.code === 'team.unreachable') this.failed(e)
      throw e
    }
  }

  /** Tries the database now; a failure is kept in the status (every write step then refuses with it). */
  async connect(): Promise<void> {
    await this.ledger().catch(() => undefined)
  }

  /**
   * At start, the database away (or a newer schema): no team jobs to show yet (they are the
   * team's, not lost) and the app starts; the status says why, and no write is sent.
   */
  async load(): Promise<JobView[]> {
    try {
      const jobs = await this.step((l) => l.load())
      this.upkeep()
      return jobs
    } catch (err) {
      if (err instanceof TeamError) return []
      throw err
    }
  }

  keepAside(now: Date): Promise<string> {
    return this.step((l) => l.keepAside(now))
  }
  async append(record: JournalRecord): Promise<void> {
    try {
      await this.step(async (l) => {
        if (record.t === 'job') await this.learn(record.job.accountId)
        await l.append(record)
      })
    } catch (err) {
      // A record of what already happened is owed; one that comes before a send (a job's start, an
      // item "sending") is not: the runner sends nothing when it cannot be written.
      const afterTheFact =
        record.t === 'status' || (record.t === 'item' && record.state !== 'sending' && record.state !== 'pending')
      if (afterTheFact && err instanceof TeamError && err.code === 'team.unreachable')
        this.owed.push((l) => l.append(record))
      throw err
    }
  }
  compact(jobs: JobView[]): Promise<void> {
    return this.inner ? this.step((l) => l.compact(jobs)) : Promise.resolve()
  }
  claim(
    ref: L.TargetRef,
    owner: { jobId: string; index: number },
    opts?: { overUnknown?: boolean; precondition?: L.SendPrecondition | undefined },
  ): Promise<L.ClaimResult> {
    return this.step(async (l) => {
      await this.learn(ref.accountId)
      return l.claim(ref, owner, opts)
    })
  }
  precondition(lease: L.TargetLease, p: L.SendPrecondition): Promise<L.PreconditionVerdict> {
    return this.step((l) => l.precondition(lease, p))
  }
  /** Before the send: never owed (nothing is sent when it cannot be written). */
  beginSend(record: JournalRecord, lease: L.TargetLease, p: L.SendPrecondition): Promise<L.BeginSend> {
    return this.step((l) => l.beginSend(record, lease, p))
  }
  mark(): Promise<L.LedgerMark> {
    return this.step((l) => l.mark())
  }
  otherSends(
    ref: L.TargetRef,
    owner: { jobId: string; index: number },
    sinceIso: string,
  ): Promise<{ requestIds: string[]; withoutId: number }> {
    return this.step(async (l) => {
      await this.learn(ref.accountId)
      return l.otherSends(ref, owner, sinceIso)
    })
  }
  stillHeld(lease: L.TargetLease): Promise<boolean> {
    return this.step((l) => l.stillHeld(lease))
  }
  async release(lease: L.TargetLease, outcome: 'free' | 'unknown'): Promise<void> {
    try {
      await this.step((l) => l.release(lease, outcome))
    } catch (err) {
      // Until then the lease runs out: free if never checked, else unknown for everyone (nothing resent).
      if (err instanceof TeamError && err.code === 'team.unreachable') this.owed.push((l) => l.release(lease, outcome))
      throw err
    }
  }
  async end(record: JournalRecord, lease: L.TargetLease, outcome: 'free' | 'unknown', job: JobView): Promise<void> {
    try {
      await this.step(async (l) => {
        await this.learn(job.accountId)
        await l.end(record, lease, outcome, job)
      })
    } catch (err) {
      // A record of what already happened, and a hold to let go: both owed until the database is back.
      if (err instanceof TeamError && err.code === 'team.unreachable')
        this.owed.push((l) => l.end(record, lease, outcome, job))
      throw err
    }
  }
  /** A worker's last end with its next journal step (TeamLedger.endThenBeginSend); the database away, the end is owed as end's is. */
  async endThenBeginSend(...[last, record, lease, p]: L.EndThenBeginSend): Promise<L.BeginSend> {
    try {
      return await this.step(async (l) => {
        await this.learn(last.job.accountId)
        return l.endThenBeginSend(last, record, lease, p)
      })
    } catch (err) {
      if (err instanceof TeamError && err.code === 'team.unreachable')
        this.owed.push((l) => l.end(last.record, last.lease, 'free', last.job))
      throw err
    }
  }
  settle(ref: L.TargetRef, evidence?: L.SettleEvidence): Promise<void> {
    return this.step(async (l) => {
      await this.learn(ref.accountId)
      return l.settle(ref, evidence)
    })
  }
  holderOf(ref: L.TargetRef): Promise<L.TargetHolder | undefined> {
    return this.step(async (l) => {
      await this.learn(ref.accountId)
      return l.holderOf(ref)
    })
  }
  holdersOf(refs: readonly L.TargetRef[]): Promise<Array<L.TargetHolder | undefined>> {
    return this.step(async (l) => {
      for (const accountId of new Set(refs.map((r) => r.accountId))) {
        await this.learn(accountId)
        // A job is prepared with the account's identity as the team has it now (a production level
        // another member set asks for the name here too).
        await this.syncIdentity(l, accountId)
      }
      return l.holdersOf(refs)
    })
  }

  /** The team's identity of the account applied here, or this workstation's shared when the team has none yet. */
  private async syncIdentity(l: TeamLedger, accountId: string): Promise<void> {
    const sync = this.o.identities
    const local = sync?.local(accountId)
    if (!sync || !local) return
    const shared = await l.sharedIdentity(accountId)
    if (!shared) {
      await l
        .shareIdentity(accountId, {
          label: local.label,
          colour: local.colour,
          tag: local.environment,
          writeSafety: local.writeSafety,
        })
        .catch(() => undefined)
      return
    }
    const parsed = sharedIdentitySchema.safeParse({
      label: shared.label,
      colour: shared.colour,
      environment: shared.tag,
      writeSafety: shared.writeSafety,
    })
    if (parsed.success) await sync.apply(accountId, parsed.data)
  }

  /** This workstation's change of an account's identity, shared with the team (a change of its level is a team history entry). */
  async shareIdentity(accountId: string, identity: SharedIdentity): Promise<void> {
    await this.step(async (l) => {
      await this.learn(accountId)
      await l.shareIdentity(accountId, {
        label: identity.label,
        colour: identity.colour,
        tag: identity.environment,
        writeSafety: identity.writeSafety,
      })
    })
  }
  changesOf(accountId: string, domain: string): Promise<TeamHistoryEntry[]> {
    return this.step(async (l) => {
      await this.learn(accountId)
      return l.changesOf(accountId, domain)
    })
  }
  handledOf(accountId: string, keys: readonly string[]): Promise<Map<string, ReminderHandled>> {
    return this.step(async (l) => {
      await this.learn(accountId)
      return l.handledOf(accountId, keys)
    })
  }
  handleOnce(
    accountId: string,
    key: string,
    how: ReminderHandlingKind,
    snoozedUntil?: Date,
  ): Promise<{ mine: boolean; handled: ReminderHandled }> {
    return this.step(async (l) => {
      await this.learn(accountId)
      return l.handleOnce(accountId, key, how, snoozedUntil)
    })
  }
  sharedIdentity(accountId: string): Promise<TeamAccount | undefined> {
    return this.step(async (l) => {
      await this.learn(accountId)
      return l.sharedIdentity(accountId)
    })
  }
  recordDrift(accountId: string, finding: DriftFinding): Promise<void> {
    return this.step(async (l) => {
      await this.learn(accountId)
      return l.recordDrift(accountId, finding)
    })
  }
  /**
   * An account whose key cannot be told yet (team.accountUnproven, its service away) keeps its
   * local-only team id, which no other workstation claims under: this one notifies it, as alone.
   */
  claimNotices(due: readonly DueReminder[]): Promise<DueReminder[]> {
    return this.step(async (l) => {
      for (const accountId of new Set(due.map((d) => d.item.accountId)))
        await this.learn(accountId).catch(() => undefined)
      return l.claimNotices(due)
    })
  }
  noticedItems(accountIds: readonly string[], from: string): Promise<ExpiringItem[]> {
    return this.step(async (l) => {
      for (const accountId of accountIds) await this.learn(accountId).catch(() => undefined)
      return l.noticedItems(accountIds, from)
    })
  }
  accountChangesSince(accountId: string, afterId: number, limit: number): Promise<TeamAccountChange[]> {
    return this.step(async (l) => {
      await this.learn(accountId)
      return l.accountChangesSince(accountId, afterId, limit)
    })
  }

  async unknownTargets(): Promise<Array<{ ref: L.TargetRef; holder: L.TargetHolder }>> {
    try {
      return await this.step((l) => l.unknownTargets())
    } catch (err) {
      if (err instanceof TeamError) return []
      throw err
    }
  }
  async close(): Promise<void> {
    this.closed = true
    if (this.probe) clearInterval(this.probe)
    await this.opening?.catch(() => undefined)
    await this.inner?.close()
  }
}

/**
 * The ledger of a data folder whose team.json is configured, tried once now (so a database away
 * is said at start); undefined when team mode is off.
 */
export async function openTeamMode(
  dataDir: string,
  keys: TeamKeys,
  o: TeamModeOptions = {},
): Promise<ReconnectingTeamLedger | undefined> {
  const settings = await readTeamSettings(dataDir)
  if (!settings) return undefined
  const c = settings.connection
  const accounts = new TeamAccountIdentities(keys, settings.member)
  const ledger = new ReconnectingTeamLedger(
    () => openConfiguredTeamLedger(dataDir, keys, accounts),
    { member: settings.member, workstation: settings.workstation, where: `${c.database}@${c.host}:${c.port}` },
    (id) => accounts.learn(id),
    o,
  )
  await ledger.connect()
  return ledger
}
