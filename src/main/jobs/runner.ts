/**
 * Every write to the service runs here, as a job, in the main process: nothing a view or store
 * does afterwards (another account, another screen, a reload) changes what is sent.
 *
 * prepare (prepare.ts): the account, operation and every item's parameters are validated and
 *   frozen, and what each item will change is read (for the confirmation). An operation marked
 *   `confirm` in the endpoint table gets a one-time token that only `start` accepts; without it,
 *   it never runs. The runner keeps the prepared job until it starts, is discarded or expires.
 * start: the items are sent, a few at a time, each journaled before it is sent and when it ends.
 *   A write is never sent again by the runner; the client sends one again only after a 429
 *   (the service did not act on it: see `retry` in the endpoint table). One write per account, operation and target is in flight at a time,
 *   app-wide; a target whose last send has an unknown outcome takes no new send unless the user
 *   asked for a second send knowing the risk.
 * unknown outcomes: a time-out or a connection broken after sending is "unknown", never "failed";
 *   the service's request log is then read to tell whether it received the request
 *   (item-log-check.ts).
 */
import { endpoints } from '@shared/endpoints/table'
import type { ErrorData } from '@shared/errors'
import {
  isJobRunning,
  type ItemState,
  type JobItemView,
  type JobRequest,
  type JobStatus,
  type JobView,
  type LeftOutItem,
} from '@shared/jobs'
import { AppError, toErrorData } from '../base/app-error'
import type { ApiClient } from '../http'
import { BodyMac } from './ledger/body-mac'
import { itemRecord, jobSecrets } from './ledger/journal-record'
import { ledgerErrorData } from './ledger/ledger-error'
import type { TargetRef } from './ledger/write-ledger'
import { newestLogId } from './log-check'
import { checkItemLog, LogCheckSchedule, type LogCheckStatus } from './item-log-check'
import { prepareJob } from './prepare'
import { checkConfirmation } from './confirmation'
import { RateLimitWaits } from './rate-limit-waits'
import {
  claimItem,
  letAheadGo,
  sendItem,
  type ItemClaim,
  type ItemInternals,
  type ItemSteps,
  type LetGo,
  type SendTrail,
} from './send-item'
import { keepJournalAtStart, systemReason } from './ledger/journal-start'
import type { JobRunnerOptions } from './runner-options'
import type { WriteObserver } from './write-history'

/**
 * What the runner keeps beside the view of a job (send-item.ts names what a send needs of it:
 * the parameters as validated at prepare, the zone guards, whether it sends over an unknown
 * outcome, why it stopped by itself, a journal that could not be written).
 */
interface JobInternals extends ItemInternals {
  token?: string | undefined
  preparedAt: number
  resume?: (() => void) | undefined
  finished?: Promise<JobView> | undefined
}

const MAX_JOBS_KEPT = 300

export class JobRunner {
  private readonly jobs = new Map<string, JobView>()
  private readonly internals = new Map<string, JobInternals>()
  private readonly logChecks: LogCheckSchedule
  private readonly bodyMac: BodyMac
  private readonly waits: RateLimitWaits
  private closed = false

  constructor(private readonly opts: JobRunnerOptions) {
    this.bodyMac = opts.bodyMac ?? BodyMac.ofThisProcess()
    this.logChecks = new LogCheckSchedule(opts.logCheckDelaysMs)
    this.waits = new RateLimitWaits(() => this.now())
    this.steps = this.itemSteps()
  }

  private now(): Date {
    return this.opts.now?.() ?? new Date()
  }

  /** Reads the journal: finished jobs as they ended; a job cut off by a quit is "interrupted", its sends "unknown". */
  async init(): Promise<void> {
    const loaded = (await this.opts.ledger.load()).slice(-MAX_JOBS_KEPT)
    for (const job of loaded) {
      // A colleague's job (or the command's beside this window) still running is shown as the
      // journal has it: marking it interrupted would send its live items to the log checks.
      if ((isJobRunning(job) || job.status === 'prepared') && !this.opts.ledger.runsElsewhere?.(job.id))
        markInterrupted(job, this.now())
      this.jobs.set(job.id, job)
      this.internals.set(job.id, readInternals())
      job.items.forEach((it, i) => {
        // Its target stays held as unknown (the ledger rebuilt its holds at load).
        if (it.state !== 'unknown') return
        // Not started here: settled from the log only by a process that settles others' jobs (the
        // app; a short-lived command leaves them to it, or to `hosting-admin team settle`).
        if (it.log?.status !== 'received' && this.opts.settlesOthers !== false) this.scheduleLogChecks(job, i)
      })
    }
    // Kept aside where it cannot vouch for itself, then rewritten short (journal-start.ts). What a
    // changed journal no longer vouches for was read as unknown: settled from the log, never resent.
    const kept = await keepJournalAtStart(this.opts.ledger, [...this.jobs.values()], this.now())
    this.journalProblem = kept.problem
    this.journalDamaged = kept.damaged
    this.journalChanged = kept.changed
  }

  /**
   * The shared journal read again (team mode: the database came back, so the jobs it could not
   * give at start, or that colleagues ran meanwhile, are shown without a restart). A job this
   * runner does not know is added as the journal has it; one it only read running (a colleague's)
   * takes the journal's newer state; a job this process prepared or runs stays as it keeps it. Nothing
   * is marked interrupted here: a colleague's running job may still be running.
   */
  async refresh(): Promise<void> {
    if (this.closed) return
    const loaded = (await this.opts.ledger.load()).slice(-MAX_JOBS_KEPT)
    for (const fresh of loaded) {
      const known = this.jobs.get(fresh.id)
      const int = this.internals.get(fresh.id)
      if (known && (known.status === 'prepared' || int?.finished)) continue
      if (known) {
        // Ended here (or marked interrupted at start, its items settled from the log): the view
        // here is the newer one; only a colleague's job seen running moves on.
        if (!isJobRunning(known)) continue
        if (JSON.stringify(known) === JSON.stringify(fresh)) continue
        Object.assign(known, fresh)
        this.emit(known)
        continue
      }
      this.jobs.set(fresh.id, fresh)
      this.internals.set(fresh.id, readInternals())
      this.emit(fresh)
    }
  }

  /** Why the journal cannot be written this run, when it cannot: no job starts. */
  journalProblem: { reason: string } | undefined
  /** Lines of the journal that could not be read at start, and where the file as read was kept. */
  journalDamaged: { movedTo: string; lines: number } | undefined
  /** The journal was changed outside the app (its chain broken at `line`), and where the file as read was kept. */
  journalChanged: { movedTo: string; line: number } | undefined

  list(): JobView[] {
    return [...this.jobs.values()].filter((j) => j.status !== 'prepared').reverse()
  }

  /** Jobs still sending (for the question asked before quitting). */
  running(): JobView[] {
    return [...this.jobs.values()].filter(isJobRunning)
  }

  private targetRef(job: Pick<JobView, 'accountId' | 'operation'>, it: Pick<JobItemView, 'target'>): TargetRef {
    return { accountId: job.accountId, operation: job.operation, target: it.target }
  }

  private emit(job: JobView): void {
    this.opts.onChange?.(job)
  }

  private find(jobId: string): { job: JobView; int: JobInternals } {
    const job = this.jobs.get(jobId)
    const int = this.internals.get(jobId)
    if (!job || !int) throw AppError.of('validation', { code: 'job.notFound' })
    return { job, int }
  }

  // ---------------------------------------------------------------- prepare / start

  /** Prepares a job (prepare.ts) and keeps it, waiting for its start. */
  async prepare(
    req: JobRequest,
  ): Promise<{ job: JobView; token?: string | undefined; leftOut?: LeftOutItem[] | undefined }> {
    this.refuseReadOnly(req.accountId)
    const { accounts } = this.opts
    const prepared = await prepareJob(req, {
      client: (accountId) => accounts.client(accountId),
      nameOf: (accountId) => accounts.nameOf(accountId),
      ...(accounts.writeSafety
        ? { writeSafety: (accountId: string) => accounts.writeSafety?.(accountId) ?? 'none' }
        : {}),
      ...(accounts.autorenewOnValue
        ? {
            autorenewOnValue: (accountId: string) =>
              accounts.autorenewOnValue?.(accountId) ?? Promise.resolve(undefined),
          }
        : {}),
      ...(this.opts.serverIdsOf ? { serverIdsOf: this.opts.serverIdsOf } : {}),
      ...(this.opts.domainNamesOf ? { domainNamesOf: this.opts.domainNamesOf } : {}),
      // The ledger away (a team's database): refused as such (team.unreachable), nothing prepared.
      holdersOf: (refs) => this.opts.ledger.holdersOf(refs).catch(unavailableAsAppError),
      mark: () => this.opts.ledger.mark().catch(unavailableAsAppError),
      now: () => this.now(),
    })
    const { job, params, guards, token, leftOut } = prepared
    this.jobs.set(job.id, job)
    this.internals.set(job.id, {
      params,
      guards,
      token,
      preparedAt: Date.now(),
      secondSend: Boolean(req.secondSend),
      stopRequested: false,
      controller: new AbortController(),
    })
    this.dropStalePrepared()
    return { job, token, ...(leftOut.length > 0 ? { leftOut } : {}) }
  }

  /** Prepares and starts a write that needs no confirmation; one that does is refused. */
  async submit(req: JobRequest): Promise<JobView> {
    if (endpoints[req.operation].confirm || (this.opts.accounts.writeSafety?.(req.accountId) ?? 'none') !== 'none')
      throw AppError.of('validation', { code: 'job.confirmationRequired' })
    const { job } = await this.prepare(req)
    return this.start(job.id, undefined)
  }

  /** Why a job of this account must send nothing more now, if it must. */
  private accountHalt(accountId: string): ErrorData | undefined {
    if (this.opts.accounts.exists && !this.opts.accounts.exists(accountId))
      return { kind: 'validation', code: 'account.notFound' }
    if (this.opts.accounts.readOnly(accountId)) return { kind: 'validation', code: 'account.readOnly' }
    return undefined
  }

  /**
   * A removed account's jobs go: running ones stop before their next send, and once they have
   * ended every job of the account leaves the list and the journal (which must not keep what
   * was sent for an account the user removed).
   */
  async forgetAccount(accountId: string): Promise<void> {
    const ids = [...this.jobs.values()].filter((j) => j.accountId === accountId).map((j) => j.id)
    for (const id of ids) {
      const int = this.internals.get(id)
      if (int) int.stopRequested = true
      int?.resume?.()
    }
    await Promise.all(ids.flatMap((id) => this.internals.get(id)?.finished ?? []))
    for (const id of ids) {
      const job = this.jobs.get(id)
      for (const it of job?.items ?? []) if (job) await this.opts.ledger.settle(this.targetRef(job, it))
      this.jobs.delete(id)
      this.internals.delete(id)
    }
    if (ids.length > 0 && !this.journalProblem) await this.opts.ledger.compact([...this.jobs.values()])
  }

  /** A read-only account gets no write, whatever its key allows. */
  private refuseReadOnly(accountId: string): void {
    if (this.opts.accounts.readOnly(accountId)) throw AppError.of('validation', { code: 'account.readOnly' })
  }

  discard(jobId: string): void {
    const job = this.jobs.get(jobId)
    if (job?.status !== 'prepared') return
    this.jobs.delete(jobId)
    this.internals.delete(jobId)
  }

  /** Sends a prepared job; resolves with the job once every item has ended. */
  async start(jobId: string, token: string | undefined, accountName?: string): Promise<JobView> {
    const { job, int } = this.find(jobId)
    if (job.status !== 'prepared') throw AppError.of('validation', { code: 'job.notPrepared' })
    if (this.journalProblem)
      throw AppError.of('internal', {
        code: 'job.journalUnwritable',
        params: { path: this.opts.ledger.where, reason: this.journalProblem.reason },
      })
    // The account may have been made read-only while the confirmation was open.
    this.refuseReadOnly(job.accountId)
    const confirmed = checkConfirmation({
      job,
      wanted: int.token,
      given: token,
      accountName,
      safety: this.opts.accounts.writeSafety?.(job.accountId) ?? 'none',
      nameOf: () => this.opts.accounts.nameOf(job.accountId),
      ageMs: Date.now() - int.preparedAt,
      preparedForMs: this.opts.preparedForMs ?? 15 * 60_000,
    })
    if (confirmed === 'expired') {
      this.discard(jobId)
      throw AppError.of('validation', { code: 'job.expired' })
    }
    int.token = undefined
    // The log's newest entry now is where a later log check stops looking: it goes into the job's
    // journal line, so a check after a restart has it too (null: the log could not be read).
    const client = await this.opts.accounts.client(job.accountId).then(
      (c) => ({ ok: true as const, c }),
      (err: unknown) => ({ ok: false as const, error: toErrorData(err) }),
    )
    const logBaseline = client.ok ? ((await newestLogId(client.c)) ?? null) : null
    const running: JobView = { ...job, status: 'running', startedAt: this.now().toISOString(), logBaseline }
    // Nothing is sent that was not journaled first: a start whose line cannot be written leaves
    // the job as it was, never "running".
    try {
      await this.opts.ledger.append({ t: 'job', job: running })
    } catch (err) {
      this.discard(jobId)
      // The ledger's store away (or refusing): said as such; nothing was sent.
      const unavailable = ledgerErrorData(err)
      if (unavailable) throw new AppError(unavailable)
      throw AppError.of('internal', {
        code: 'job.journalUnwritable',
        params: { path: this.opts.ledger.where, reason: systemReason(err) },
      })
    }
    Object.assign(job, running)
    this.emit(job)
    int.finished = this.run(job, int, client)
    return int.finished
  }

  private async run(
    job: JobView,
    int: JobInternals,
    account: { ok: true; c: ApiClient } | { ok: false; error: ErrorData },
  ): Promise<JobView> {
    if (!account.ok) {
      // No client (the account or its key is gone): nothing was sent.
      for (let i = 0; i < job.items.length; i++) await this.settle(job, i, { state: 'failed', error: account.error })
      return this.finish(job, 'done')
    }
    const client = account.c
    // Items whose target another send held on its way are tried once more after the others.
    const later: number[] = []
    const pass = async (queue: readonly number[], lastTry: boolean) => {
      let next = 0
      const worker = async () => {
        // This worker's last send's end, journaled while its next item is claimed (send-item.ts SendTrail).
        const trail: SendTrail = { carryMs: this.opts.endCarryMs }
        // The worker's next item, taken from the queue and claimed while its last one was sent.
        let ahead: { i: number; claimed: ItemClaim | undefined } | undefined
        trail.claimNext = () => {
          if (ahead || next >= queue.length || int.stopRequested || this.closed || job.status === 'paused') return
          const i = queue[next++]
          if (i === undefined) return
          const claimed = claimItem(this.steps, job, int, i, lastTry)
          // Awaited once the send in flight is through; a failure meanwhile is not unhandled (it is thrown there).
          claimed.catch(() => undefined)
          ahead = { i, claimed }
        }
        // A hold claimed ahead for an item not sent now: let go (the item is sent later or said not sent, as any other).
        const dropAheadClaim = async () => {
          const claimed = ahead?.claimed
          if (ahead) ahead.claimed = undefined
          await letAheadGo(this.steps, int, claimed)
        }
        try {
          while ((ahead || next < queue.length) && !this.closed) {
            if (job.status === 'paused') {
              // The last end carried to a next journal step is written now: none comes while paused;
              // nor is a target held through a pause.
              trail.carry?.alone()
              await dropAheadClaim()
              await new Promise<void>((resolve) => (int.resume = resolve))
            }
            if (int.stopRequested || this.closed) break
            // Made read-only or removed while the job ran: nothing more is sent for it.
            const halt = this.accountHalt(job.accountId)
            if (halt) {
              int.stopRequested = true
              int.halted ??= halt
              break
            }
            const taken = ahead ?? { i: queue[next++], claimed: undefined }
            ahead = undefined
            if (taken.i === undefined) break
            const opts = { lastTry, trail, claimed: taken.claimed }
            if ((await sendItem(this.steps, client, job, int, taken.i, opts)) === 'busy') later.push(taken.i)
          }
        } finally {
          // No next journal step: the last end carried to one is written alone.
          trail.carry?.alone()
          await dropAheadClaim()
          await trail.ending
        }
      }
      await Promise.all(Array.from({ length: Math.min(job.concurrency, queue.length) }, worker))
    }
    await pass(
      job.items.map((_, i) => i),
      false,
    )
    if (later.length > 0 && !this.closed) await pass(later.splice(0), true)
    if (this.closed) return job
    const stopped = int.stopRequested
    // Items never sent say why: the user stopped the job, or its journal could not be written.
    const why: ErrorData = int.journalFailure
      ? this.journalError(int.journalFailure)
      : (int.halted ?? { kind: 'cancelled', code: 'job.stopped' })
    for (let i = 0; i < job.items.length; i++) {
      if (job.items[i]?.state === 'pending') await this.settle(job, i, { state: 'skipped', error: why })
    }
    return this.finish(job, stopped ? 'stopped' : 'done')
  }

  /** The runner's own steps, as sending one item uses them (send-item.ts). */
  private readonly steps: ItemSteps
  private itemSteps(): ItemSteps {
    return {
      ledger: this.opts.ledger,
      bodyMac: this.bodyMac,
      now: () => this.now(),
      closed: () => this.closed,
      observe: (fn) => this.observe(fn),
      settle: (job, i, change, int, letGo) => this.settle(job, i, change, int, letGo),
      ledgerLost: (int, err) => this.ledgerLost(int, err),
      onJournalError: (err) => this.opts.onJournalError?.(err),
      journalError: (failure) => this.journalError(failure),
      rateLimitWait: (job, int, ms) => this.rateLimitWait(job, int, ms),
      scheduleLogChecks: (job, i) => this.scheduleLogChecks(job, i),
      emit: (job) => this.emit(job),
    }
  }

  /**
   * Tells history. History is a record, not a gate, except for a zone save's guard: a failure of
   * the store is logged by the observer's owner and never fails or holds up a write.
   */
  private async observe<T>(fn: (o: WriteObserver) => Promise<T> | T): Promise<T | undefined> {
    const o = this.opts.observer
    if (!o) return undefined
    try {
      return await fn(o)
    } catch (err) {
      this.opts.onObserverError?.(err)
      return undefined
    }
  }

  /**
   * Records an item's change: in the view, in the journal, to the windows; with `letGo`, a send's
   * end, its hold let go in the same ledger step. False when the journal could not be written:
   * the job then stops (nothing more is sent), and says why (a hold not let go runs out).
   */
  private async settle(
    job: JobView,
    i: number,
    change: Partial<JobItemView> & { state: ItemState },
    int?: ItemInternals,
    letGo?: LetGo,
  ): Promise<boolean> {
    const it = job.items[i]
    if (!it) return false
    if (change.state !== 'sending') this.waits.over(job)
    Object.assign(it, change)
    let journaled = true
    try {
      const record = itemRecord(job.id, i, it, jobSecrets(job))
      await (letGo
        ? (letGo.journal?.(record) ?? this.opts.ledger.end(record, letGo.lease, letGo.outcome, job))
        : this.opts.ledger.append(record))
    } catch (err) {
      journaled = false
      const own = int ?? this.internals.get(job.id)
      if (own) {
        own.journalFailure ??= { reason: systemReason(err), ledger: ledgerErrorData(err) }
        own.stopRequested = true
      }
      this.opts.onJournalError?.(err)
    }
    this.emit(job)
    return journaled
  }

  /** A worker waits out a block of the service: the job says so. */
  private rateLimitWait(job: JobView, int: ItemInternals, waitMs: number): void {
    if (this.internals.get(job.id) !== int) return
    this.waits.waiting(job, waitMs)
    this.emit(job)
  }

  /**
   * A ledger step failed (its store away): the job stops before its next item, saying why.
   * Undefined, for the caller's "nothing sent". Anything else than a ledger failure is thrown on.
   */
  private ledgerLost(int: ItemInternals, err: unknown): undefined {
    const unavailable = ledgerErrorData(err)
    if (!unavailable) throw err
    int.stopRequested = true
    int.halted ??= unavailable
    this.opts.onJournalError?.(err)
    return undefined
  }

  private journalError(failure: ItemInternals['journalFailure']): ErrorData {
    if (failure?.ledger) return failure.ledger
    return {
      kind: 'internal',
      code: 'job.journalUnwritable',
      params: { path: this.opts.ledger.where, reason: failure?.reason ?? 'unknown' },
    }
  }

  private async finish(job: JobView, status: JobStatus): Promise<JobView> {
    job.status = status
    job.endedAt = this.now().toISOString()
    this.waits.over(job)
    await this.opts.ledger
      .append({ t: 'status', job: job.id, status, at: job.endedAt })
      .catch((err: unknown) => this.opts.onJournalError?.(err))
    this.emit(job)
    return job
  }

  // ---------------------------------------------------------------- pause / resume / stop

  pause(jobId: string): void {
    const { job } = this.find(jobId)
    if (job.status !== 'running') return
    job.status = 'paused'
    this.emit(job)
  }

  resume(jobId: string): void {
    const { job, int } = this.find(jobId)
    if (job.status !== 'paused') return
    job.status = 'running'
    int.resume?.()
    int.resume = undefined
    this.emit(job)
  }

  /**
   * No new item is sent; those in flight end and are reported. A job whose start is on its way
   * (still prepared: its start reads the service's log first) sends nothing once it runs.
   */
  stop(jobId: string): void {
    const { job, int } = this.find(jobId)
    if (job.status === 'prepared') int.stopRequested = true
    if (!isJobRunning(job)) return
    int.stopRequested = true
    job.status = 'stopping'
    int.resume?.()
    this.emit(job)
  }

  // ---------------------------------------------------------------- unknown outcomes

  private scheduleLogChecks(job: JobView, i: number): void {
    this.logChecks.schedule(() => this.checkLog(job.id, i))
  }

  /** Reads the service's log for an item whose outcome is unknown (item-log-check.ts). */
  async checkLog(jobId: string, i: number): Promise<LogCheckStatus> {
    const { job } = this.find(jobId)
    return checkItemLog(
      {
        client: (accountId) => this.opts.accounts.client(accountId),
        bodyMac: this.bodyMac,
        now: () => this.now(),
        settle: (j, index, change) => this.settle(j, index, change),
        releaseTarget: (j, it, evidence) => this.opts.ledger.settle(this.targetRef(j, it), evidence),
        otherSends: (j, index) => {
          const it = j.items[index]
          if (!it) return Promise.resolve({ requestIds: [], withoutId: 0 })
          return this.opts.ledger.otherSends(this.targetRef(j, it), { jobId: j.id, index }, j.startedAt ?? j.createdAt)
        },
        endedFromLog: async (j, index) => {
          await this.observe((o) => o.ended(j, index, { fromLog: true }))
        },
      },
      job,
      i,
    )
  }

  /** Stops everything (the app quits): nothing new is sent; what is in flight is cut off and, journaled as sending, is unknown at the next start. */
  async close(): Promise<void> {
    this.closed = true
    this.logChecks.close()
    for (const int of this.internals.values()) {
      int.resume?.()
      int.controller.abort()
    }
    await this.opts.ledger.close()
  }

  private dropStalePrepared(): void {
    const limit = this.opts.preparedForMs ?? 15 * 60_000
    for (const [id, int] of this.internals) {
      if (this.jobs.get(id)?.status === 'prepared' && Date.now() - int.preparedAt > limit) this.discard(id)
    }
  }
}

/** A ledger that cannot take a step, as the refusal the caller sees (team.unreachable, ...); anything else thrown on. */
function unavailableAsAppError(err: unknown): never {
  const unavailable = ledgerErrorData(err)
  throw unavailable ? new AppError(unavailable) : err
}

/** What the runner keeps of a job it read from the journal (nothing to send: it is not started here). */
const readInternals = (): JobInternals => ({
  params: [],
  guards: [],
  preparedAt: 0,
  secondSend: false,
  stopRequested: false,
  controller: new AbortController(),
})

/** A job a quit cut off, as a start finds it: interrupted; what was on its way is unknown, what was never sent says so. */
function markInterrupted(job: JobView, now: Date): void {
  job.status = 'interrupted'
  job.endedAt ??= now.toISOString()
  for (const it of job.items) {
    if (it.state === 'sending') it.state = 'unknown'
    else if (it.state === 'pending')
      Object.assign(it, { state: 'skipped', error: { kind: 'internal', code: 'job.interrupted' } })
  }
}
