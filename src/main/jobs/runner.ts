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
import { timingSafeEqual } from 'node:crypto'
import { endpoints, type EndpointParams, type WriteEndpointName } from '../../shared/endpoints/table'
import type { ErrorData } from '../../shared/errors'
import { isJobRunning, type ItemState, type JobItemView, type JobRequest, type JobStatus, type JobView, type ZoneGuard } from '../../shared/jobs'
import type { WriteSafety } from '../../shared/accounts/write-safety'
import { AppError, toErrorData } from '../app/app-error'
import type { ApiClient } from '../http'
import { itemRecord, jobSecrets } from './journal'
import type { TargetLease, TargetRef, WriteLedger } from './ledger/write-ledger'
import { newestLogId } from './log-check'
import { checkItemLog, LogCheckSchedule, type LogCheckStatus } from './item-log-check'
import { isOutcomeUnknown } from './outcome'
import type { ServerIdOf } from './targets'
import { answerNotKept, notReadBack } from '../../shared/service/service-kept'
import { serviceKeptFindingsOf } from './operations'
import { readBack } from './read-back'
import type { DomainNameOf } from './domain-names'
import { prepareJob } from './prepare'
import { BodyMac } from './body-mac'
import { heldError } from './held-by'
import { TeamError } from '../team/team-error'
import type { WriteObserver } from './write-history'

export interface JobAccounts {
  client(accountId: string): Promise<ApiClient>
  /** The account's name as the user gave it, frozen into the job ('' for the demo). */
  nameOf(accountId: string): string
  /** Whether the user made the account read-only: its jobs are refused before anything is read or sent, and stop before their next send. */
  readOnly(accountId: string): boolean
  /** Whether the account is still set up: a job of one removed meanwhile sends nothing more. */
  exists?(accountId: string): boolean
  /**
   * The account's write safety level (shared/accounts.ts): 'confirm', every write waits for the
   * user's confirmation; 'name', the confirmation names the account in full. Read again at start.
   */
  writeSafety?(accountId: string): WriteSafety
  /** The number the service writes for an auto-renewal setting that is on, in this account's data (undefined: none seen). */
  autorenewOnValue?(accountId: string): Promise<number | undefined>
}

export interface JobRunnerOptions {
  accounts: JobAccounts
  /** The journal and the per-target holds (ledger/local-ledger.ts, or a team's). */
  ledger: WriteLedger
  /** Called when a job changed; the caller passes it on to the windows. */
  onChange?: (job: JobView) => void
  /** When the log is read after an unknown outcome (the log may lag behind the request). */
  logCheckDelaysMs?: number[]
  /** How long a prepared job waits for its confirmation. */
  preparedForMs?: number
  now?: () => Date
  /** History: told before each item is sent (it may refuse a zone save) and when each ends. */
  observer?: WriteObserver
  onObserverError?: (err: unknown) => void
  /** A journal line that could not be written (logged by the owner; the job has stopped). */
  onJournalError?: (err: unknown) => void
  /**
   * A server's id from its name, in an account, where the app knows it: a server named by id
   * and by name is then one target (targets.ts). Without it, or when it cannot say, a name is
   * its own target.
   */
  serverIdsOf?: (accountId: string) => Promise<ServerIdOf>
  /** A domain's name from its numeric id, in an account, where the app knows it (domain-names.ts). */
  domainNamesOf?: (accountId: string) => DomainNameOf
  /** How a sent body is journaled and known again in the log (body-mac.ts); by default under a key of this process only. */
  bodyMac?: BodyMac
}

/** What the runner keeps beside the view of a job. */
interface JobInternals {
  /** The items' parameters as validated at prepare: what is sent. */
  params: EndpointParams<WriteEndpointName>[]
  /** Per item: the zone its change was planned from (zone saves). */
  guards: (ZoneGuard | undefined)[]
  token?: string | undefined
  preparedAt: number
  secondSend: boolean
  stopRequested: boolean
  /** The journal could not be written during the job: it stopped, and nothing more is sent. */
  journalFailure?: { reason: string; team?: ErrorData | undefined } | undefined
  /** Why the job stopped by itself: its account was made read-only or removed while it ran. */
  halted?: ErrorData | undefined
  /** When the current wait for the service's rate limit began (ms since the epoch). */
  rateLimitWaitFrom?: number | undefined
  resume?: (() => void) | undefined
  finished?: Promise<JobView> | undefined
  controller: AbortController
}

const MAX_JOBS_KEPT = 300

export class JobRunner {
  private readonly jobs = new Map<string, JobView>()
  private readonly internals = new Map<string, JobInternals>()
  private readonly logChecks: LogCheckSchedule
  private readonly bodyMac: BodyMac
  private closed = false

  constructor(private readonly opts: JobRunnerOptions) {
    this.bodyMac = opts.bodyMac ?? BodyMac.ofThisProcess()
    this.logChecks = new LogCheckSchedule(opts.logCheckDelaysMs)
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
      if ((isJobRunning(job) || job.status === 'prepared') && !this.opts.ledger.runsElsewhere?.(job.id)) {
        job.status = 'interrupted'
        job.endedAt ??= this.now().toISOString()
        for (const it of job.items) {
          if (it.state === 'sending') it.state = 'unknown'
          else if (it.state === 'pending') Object.assign(it, { state: 'skipped', error: { kind: 'internal', code: 'job.interrupted' } })
        }
      }
      this.jobs.set(job.id, job)
      this.internals.set(job.id, { params: [], guards: [], preparedAt: 0, secondSend: false, stopRequested: false, controller: new AbortController() })
      job.items.forEach((it, i) => {
        // Its target stays held as unknown (the ledger rebuilt its holds at load).
        if (it.state !== 'unknown') return
        if (it.log?.status !== 'received') this.scheduleLogChecks(job, i)
      })
    }
    // Lines that could not be read (a torn write, a damaged disk) would be dropped by the rewrite
    // below: the file as read is kept aside first, and the window says where.
    const unreadable = this.opts.ledger.unreadableLines
    if (unreadable > 0) {
      try {
        this.journalDamaged = { movedTo: await this.opts.ledger.keepAside(this.now()), lines: unreadable }
      } catch (err) {
        // Not kept aside: the rewrite would lose the lines for good, so the file stays as it is.
        this.journalProblem = { reason: systemReason(err) }
        return
      }
    }
    // A journal that can be read but not written (a read-only data folder, a full disk): the app
    // starts, and sends nothing, since nothing may be sent that was not journaled first.
    try {
      await this.opts.ledger.compact([...this.jobs.values()])
    } catch (err) {
      this.journalProblem = { reason: systemReason(err) }
    }
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
      this.internals.set(fresh.id, { params: [], guards: [], preparedAt: 0, secondSend: false, stopRequested: false, controller: new AbortController() })
      this.emit(fresh)
    }
  }

  /** Why the journal cannot be written this run, when it cannot: no job starts. */
  journalProblem: { reason: string } | undefined
  /** Lines of the journal that could not be read at start, and where the file as read was kept. */
  journalDamaged: { movedTo: string; lines: number } | undefined

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
  async prepare(req: JobRequest): Promise<{ job: JobView; token?: string | undefined }> {
    this.refuseReadOnly(req.accountId)
    const { accounts } = this.opts
    const prepared = await prepareJob(req, {
      client: (accountId) => accounts.client(accountId),
      nameOf: (accountId) => accounts.nameOf(accountId),
      ...(accounts.writeSafety ? { writeSafety: (accountId: string) => accounts.writeSafety?.(accountId) ?? 'none' } : {}),
      ...(accounts.autorenewOnValue ? { autorenewOnValue: (accountId: string) => accounts.autorenewOnValue?.(accountId) ?? Promise.resolve(undefined) } : {}),
      ...(this.opts.serverIdsOf ? { serverIdsOf: this.opts.serverIdsOf } : {}),
      ...(this.opts.domainNamesOf ? { domainNamesOf: this.opts.domainNamesOf } : {}),
      // Team mode, the database away: refused as such (team.unreachable), nothing prepared.
      holdersOf: (refs) =>
        this.opts.ledger.holdersOf(refs).catch((err: unknown) => {
          const team = teamErrorData(err)
          throw team ? new AppError(team) : err
        }),
      now: () => this.now(),
    })
    const { job, params, guards, token } = prepared
    this.jobs.set(job.id, job)
    this.internals.set(job.id, { params, guards, token, preparedAt: Date.now(), secondSend: Boolean(req.secondSend), stopRequested: false, controller: new AbortController() })
    this.dropStalePrepared()
    return { job, token }
  }

  /** Prepares and starts a write that needs no confirmation; one that does is refused. */
  async submit(req: JobRequest): Promise<JobView> {
    if (endpoints[req.operation].confirm || (this.opts.accounts.writeSafety?.(req.accountId) ?? 'none') !== 'none') throw AppError.of('validation', { code: 'job.confirmationRequired' })
    const { job } = await this.prepare(req)
    return this.start(job.id, undefined)
  }

  /** Why a job of this account must send nothing more now, if it must. */
  private accountHalt(accountId: string): ErrorData | undefined {
    if (this.opts.accounts.exists && !this.opts.accounts.exists(accountId)) return { kind: 'validation', code: 'account.notFound' }
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
    if (this.journalProblem) throw AppError.of('internal', { code: 'job.journalUnwritable', params: { path: this.opts.ledger.where, reason: this.journalProblem.reason } })
    // The account may have been made read-only while the confirmation was open.
    this.refuseReadOnly(job.accountId)
    // The account's level as it is now (it may have been raised while the confirmation was open):
    // the name must have been typed, and checked here, so no screen (and no caller of IPC) skips it.
    const safety = this.opts.accounts.writeSafety?.(job.accountId) ?? 'none'
    if (safety !== 'none' && int.token === undefined) throw AppError.of('validation', { code: 'job.confirmationRequired' })
    if (int.token !== undefined) {
      const given = Buffer.from(token ?? '')
      const wanted = Buffer.from(int.token)
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw AppError.of('validation', { code: 'job.confirmationRequired' })
    }
    if (job.confirmByName || safety === 'name') {
      const name = this.opts.accounts.nameOf(job.accountId)
      if (accountName?.trim() !== name.trim()) throw AppError.of('validation', { code: 'job.accountNameRequired', params: { name } })
    }
    if (Date.now() - int.preparedAt > (this.opts.preparedForMs ?? 15 * 60_000)) {
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
      // Team mode, the database away (or refusing): said as such; nothing was sent.
      const team = teamErrorData(err)
      if (team) throw new AppError(team)
      throw AppError.of('internal', { code: 'job.journalUnwritable', params: { path: this.opts.ledger.where, reason: systemReason(err) } })
    }
    Object.assign(job, running)
    this.emit(job)
    int.finished = this.run(job, int, client)
    return int.finished
  }

  private async run(job: JobView, int: JobInternals, account: { ok: true; c: ApiClient } | { ok: false; error: ErrorData }): Promise<JobView> {
    if (!account.ok) {
      // No client (the account or its key is gone): nothing was sent.
      for (let i = 0; i < job.items.length; i++) await this.settle(job, i, { state: 'failed', error: account.error })
      return this.finish(job, 'done')
    }
    const client = account.c
    let next = 0
    const worker = async () => {
      while (next < job.items.length && !this.closed) {
        if (job.status === 'paused') await new Promise<void>((resolve) => (int.resume = resolve))
        if (int.stopRequested || this.closed) break
        // Made read-only or removed while the job ran: nothing more is sent for it.
        const halt = this.accountHalt(job.accountId)
        if (halt) {
          int.stopRequested = true
          int.halted ??= halt
          break
        }
        const i = next++
        await this.send(client, job, int, i)
      }
    }
    await Promise.all(Array.from({ length: Math.min(job.concurrency, job.items.length) }, worker))
    if (this.closed) return job
    const stopped = int.stopRequested
    // Items never sent say why: the user stopped the job, or its journal could not be written.
    const why: ErrorData = int.journalFailure ? this.journalError(int.journalFailure) : (int.halted ?? { kind: 'cancelled', code: 'job.stopped' })
    for (let i = 0; i < job.items.length; i++) {
      if (job.items[i]?.state === 'pending') await this.settle(job, i, { state: 'skipped', error: why })
    }
    return this.finish(job, stopped ? 'stopped' : 'done')
  }

  private async send(client: ApiClient, job: JobView, int: JobInternals, i: number): Promise<void> {
    const it = job.items[i]
    if (!it) return
    const params = int.params[i]
    if (!params) return
    const claim = await this.opts.ledger.claim(this.targetRef(job, it), { jobId: job.id, index: i }, { overUnknown: int.secondSend }).catch((err: unknown) => this.ledgerLost(int, err))
    // The team database away: this item stays pending (skipped, never sent) and the job stops before its next.
    if (!claim) return
    if (!claim.ok) {
      await this.settle(job, i, { state: 'failed', error: heldError(claim.heldBy, it.label) })
      return
    }
    const lease = claim.lease
    // History first (a zone's snapshot, and its guard, read afresh), while the target is held
    // and before the item is journaled as on its way: one refused here was never sent.
    const refused = await this.observe((o) => o.beforeSend(job, i, params, client, int.guards[i]))
    if (refused) {
      await this.letGo(lease, 'free')
      await this.settle(job, i, { state: 'failed', error: refused })
      return
    }
    // Journaled before it leaves, with how the service's log will show it: after a crash, an item
    // that was sending is an unknown outcome. One that cannot be journaled is not sent, and the job
    // sends nothing more.
    const request = client.describeRequest(job.operation, params)
    // Without its key the body cannot be journaled as the log will show it: not sent.
    const bodyHash = await this.bodyMac.of(request.body).catch(() => undefined)
    if (bodyHash === undefined) {
      await this.opts.ledger.release(lease, 'free')
      await this.settle(job, i, { state: 'failed', error: { kind: 'internal', code: 'job.journalKeyUnavailable' } }, int)
      return
    }
    const sent = { method: request.method, path: request.path, bodyHash }
    if (!(await this.settle(job, i, { state: 'sending', sentAt: this.now().toISOString(), sent }, int))) {
      await this.letGo(lease, 'free')
      Object.assign(it, { state: 'skipped', sentAt: undefined, error: this.journalError(int.journalFailure) })
      this.emit(job)
      return
    }
    // The hold may have been taken away meanwhile (a team lease that expired): nothing is sent then.
    const held = await this.opts.ledger.stillHeld(lease).catch((err: unknown) => this.ledgerLost(int, err))
    if (held === undefined) {
      // Journaled as on its way but never sent (the team database away): the hold let go and the
      // item failed, both written to the team's journal when the database is back (team-mode.ts).
      await this.letGo(lease, 'free')
      await this.settle(job, i, { state: 'failed', sentAt: undefined, error: int.halted ?? { kind: 'internal', code: 'team.unreachable' } }, int)
      return
    }
    if (!held) {
      // Its fencing number is no longer the target's (frozen past its lease): it never leaves.
      await this.settle(job, i, { state: 'failed', sentAt: undefined, error: { kind: 'busy', code: 'job.holdLost', params: { targets: it.label } } }, int)
      return
    }
    try {
      const env = await client.sendParsed(job.operation, params, { signal: int.controller.signal, onRateLimitWait: (ms) => this.rateLimitWait(job, int, ms) })
      // Read back while the target is still held: what the service kept, not what its answer repeats.
      const back = await readBack(client, job.operation, params, int.controller.signal)
      const result = back && 'kept' in back ? back.kept : env.results
      const serviceKept = back && 'error' in back ? [notReadBack()] : serviceKeptFindingsOf(job.operation, params, result)
      // The item is done as of now (settle sets it at once, then journals its end with the hold let
      // go, in one step); history is told meanwhile: it reads the item, set here, and nothing the
      // journal writes, so neither waits for the other (in team mode, two statements at once
      // rather than three one after the other on every item).
      const ended = this.settle(job, i, { state: 'done', result, requestId: env.requestId, ...(serviceKept.length > 0 ? { serviceKept } : {}) }, undefined, { lease, outcome: 'free' })
      await Promise.all([ended, this.observe((o) => o.ended(job, i, { fromLog: false }))])
    } catch (err) {
      const error = toErrorData(err)
      if (error.code === 'http.answerNotKept') {
        // The service answered success with more than can be kept: done, its answer not kept.
        await this.settle(job, i, { state: 'done', requestId: error.requestId, serviceKept: [answerNotKept()] }, undefined, { lease, outcome: 'free' })
        await this.observe((o) => o.ended(job, i, { fromLog: false }))
        return
      }
      if (isOutcomeUnknown(error)) {
        await this.settle(job, i, { state: 'unknown', error, requestId: error.requestId }, undefined, { lease, outcome: 'unknown' })
        await this.observe((o) => o.ended(job, i, { fromLog: false }))
        if (!this.closed) this.scheduleLogChecks(job, i)
      } else {
        await this.settle(job, i, { state: 'failed', error, requestId: error.requestId }, undefined, { lease, outcome: 'free' })
        await this.observe((o) => o.ended(job, i, { fromLog: false }))
      }
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
  private async settle(job: JobView, i: number, change: Partial<JobItemView> & { state: ItemState }, int?: JobInternals, letGo?: { lease: TargetLease; outcome: 'free' | 'unknown' }): Promise<boolean> {
    const it = job.items[i]
    if (!it) return false
    if (change.state !== 'sending') this.rateLimitWaitOver(job, int ?? this.internals.get(job.id))
    Object.assign(it, change)
    let journaled = true
    try {
      const record = itemRecord(job.id, i, it, jobSecrets(job))
      await (letGo ? this.opts.ledger.end(record, letGo.lease, letGo.outcome, job) : this.opts.ledger.append(record))
    } catch (err) {
      journaled = false
      const own = int ?? this.internals.get(job.id)
      if (own) {
        own.journalFailure ??= { reason: systemReason(err), team: teamErrorData(err) }
        own.stopRequested = true
      }
      this.opts.onJournalError?.(err)
    }
    this.emit(job)
    return journaled
  }

  /** A worker waits out a block of the service: the job says so, each block counted once however many workers wait in it. */
  private rateLimitWait(job: JobView, int: JobInternals, waitMs: number): void {
    const now = this.now().getTime()
    const waits = (job.rateLimit ??= { waits: 0, waitedMs: 0 })
    if (int.rateLimitWaitFrom === undefined) {
      waits.waits++
      int.rateLimitWaitFrom = now
    }
    waits.waitingUntil = new Date(now + waitMs).toISOString()
    this.emit(job)
  }

  /** An answer came (or the job ended): the wait, if one was under way, is over. */
  private rateLimitWaitOver(job: JobView, int: JobInternals | undefined): void {
    if (!int || int.rateLimitWaitFrom === undefined || !job.rateLimit) return
    job.rateLimit.waitedMs += Math.max(0, this.now().getTime() - int.rateLimitWaitFrom)
    job.rateLimit.waitingUntil = undefined
    int.rateLimitWaitFrom = undefined
  }

  /**
   * A ledger step failed (the team database away): the job stops before its next item, saying why.
   * Undefined, for the caller's "nothing sent". Anything else than a team failure is thrown on.
   */
  private ledgerLost(int: JobInternals, err: unknown): undefined {
    const team = teamErrorData(err)
    if (!team) throw err
    int.stopRequested = true
    int.halted ??= team
    this.opts.onJournalError?.(err)
    return undefined
  }

  /** Releases a hold; one that cannot be released (the team database away) runs out on its own. */
  private async letGo(lease: TargetLease, outcome: 'free' | 'unknown'): Promise<void> {
    await this.opts.ledger.release(lease, outcome).catch((err: unknown) => this.opts.onJournalError?.(err))
  }

  private journalError(failure: { reason: string; team?: ErrorData | undefined } | undefined): ErrorData {
    if (failure?.team) return failure.team
    return { kind: 'internal', code: 'job.journalUnwritable', params: { path: this.opts.ledger.where, reason: failure?.reason ?? 'unknown' } }
  }

  private async finish(job: JobView, status: JobStatus): Promise<JobView> {
    job.status = status
    job.endedAt = this.now().toISOString()
    this.rateLimitWaitOver(job, this.internals.get(job.id))
    await this.opts.ledger.append({ t: 'status', job: job.id, status, at: job.endedAt }).catch((err: unknown) => this.opts.onJournalError?.(err))
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

  /** No new item is sent; those in flight end and are reported. */
  stop(jobId: string): void {
    const { job, int } = this.find(jobId)
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
        releaseTarget: (j, it) => this.opts.ledger.settle(this.targetRef(j, it)),
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

/** The system's code for a file operation that failed (EACCES, EROFS, ENOSPC...). */
function systemReason(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : 'unknown'
}

/** A team ledger's failure as the error a job or a refusal shows (team.unreachable, team.schemaNewer, ...). */
function teamErrorData(err: unknown): ErrorData | undefined {
  return err instanceof TeamError ? { kind: 'internal', code: err.code, params: { ...err.params } } : undefined
}
