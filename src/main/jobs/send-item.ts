/**
 * One item of a job, sent: the steps every write takes, in their order, and why each comes where
 * it does.
 *
 *   claim         the target's hold (waiting out another send on its way): one send per target
 *   precondition  what the item was confirmed against still holds, under the hold: nothing done
 *                 to the target since by anyone the ledger records; where the ledger cannot tell,
 *                 the service asked (preconditions.ts)
 *   history       told before the send (a zone snapshotted, its guard read afresh: a zone save's
 *                 own precondition)
 *   journal       the item journaled as sending, with its hold checked still current and its
 *                 precondition checked again in the same durable step: nothing leaves unjournaled,
 *                 and a hold lost meanwhile (a process frozen past its lease) sends nothing
 *   send          the request, never repeated (the client repeats only a 429 the service did not act on)
 *   read back     what the service kept, while the target is still held
 *   end           the outcome journaled and the hold let go in one step; history told. It trails: the
 *                 worker's next item is claimed (and its history told) meanwhile, and waits for it only
 *                 right before its own journal step (see SendTrail); where the ledger writes both
 *                 in one step (team mode), the end is written with that journal step
 *
 * A worker claims its next item while this one's request is on its way (SendTrail.claimNext): in
 * team mode a claim is a round trip and a durable commit of its own, which then rides beside the
 * service's answer instead of before the next journal step. The claim is only the hold and a first
 * reading of the precondition; the precondition is checked again under it in the journal step,
 * right before that item's send, as ever.
 *
 * The runner keeps the job's view and its internals and hands its own steps over as `ItemSteps`.
 */
import type { EndpointParams, WriteEndpointName } from '@shared/endpoints/table'
import type { ErrorData } from '@shared/errors'
import type { ItemState, JobItemView, JobView, ZoneGuard } from '@shared/jobs'
import { answerNotKept, notReadBack } from '@shared/service/service-kept'
import { toErrorData } from '../base/app-error'
import type { ApiClient } from '../http'
import { heldError } from './held-by'
import type { BodyMac } from './ledger/body-mac'
import { itemRecord, jobSecrets, type JournalRecord } from './ledger/journal-record'
import { ledgerErrorData } from './ledger/ledger-error'
import { systemReason } from './ledger/journal-start'
import type { ClaimResult, EndStep, SendPrecondition, TargetLease, TargetRef, WriteLedger } from './ledger/write-ledger'
import { serviceKeptFindingsOf } from './operations'
import { isOutcomeUnknown } from './outcome'
import { alreadyDoneError, checkedByLedger, preconditionOf, unsureError, verifyAtService } from './preconditions'
import { readBack } from './read-back'
import type { WriteObserver } from './write-history'
import { CarriedEnd } from './carried-end'

/** What the runner keeps of a job beside its view, as far as sending an item needs it. */
export interface ItemInternals {
  params: EndpointParams<WriteEndpointName>[]
  guards: (ZoneGuard | undefined)[]
  secondSend: boolean
  stopRequested: boolean
  halted?: ErrorData | undefined
  journalFailure?: { reason: string; ledger?: ErrorData | undefined } | undefined
  controller: AbortController
}

export type LetGo = {
  lease: TargetLease
  outcome: 'free' | 'unknown'
  /** Journals the end's record instead of the ledger's end (a CarriedEnd's). */
  journal?: ((record: JournalRecord) => Promise<void>) | undefined
}

/**
 * One worker's last send's end, still being journaled (true once journaled, false when it could
 * not be). A worker's next item does not wait for it to be claimed, its precondition read and
 * its history told: in team mode the claim is a round trip of its own, which then rides beside
 * the end's durable commit instead of after it. It waits for it right before its own journal
 * step, so nothing leaves while an earlier end of the worker is unwritten (a journal that could
 * not be written stops the job before its next send, as when the end was waited for at once).
 * The end itself is unchanged: record and release in one durable step, the lease held until then.
 */
export interface SendTrail {
  ending?: Promise<boolean> | undefined
  /**
   * On a ledger that writes an end and a journal step in one (endThenBeginSend), the end itself,
   * carried to the next item's journal step (carried-end.ts): one durable step where there were
   * two in turn. `ending` still settles when it is written.
   */
  carry?: CarriedEnd | undefined
  /** How long an end waits to be carried (CarriedEnd's default where undefined). */
  carryMs?: number | undefined
  /** Told once this item's request may leave (journaled as sending): the worker claims its next item meanwhile. */
  claimNext?: (() => void) | undefined
}

/** The hold of item i's target, claimed (ClaimResult), or undefined: the ledger is away (the job stops). */
export type ItemClaim = Promise<ClaimResult | undefined>

/** The runner's own steps, as one item's send uses them. */
export interface ItemSteps {
  ledger: WriteLedger
  bodyMac: BodyMac
  now(): Date
  closed(): boolean
  observe<T>(fn: (o: WriteObserver) => Promise<T> | T): Promise<T | undefined>
  /** Records an item's change (view, journal, windows); with letGo, a send's end. False: the journal could not be written. */
  settle(
    job: JobView,
    i: number,
    change: Partial<JobItemView> & { state: ItemState },
    int?: ItemInternals,
    letGo?: LetGo,
  ): Promise<boolean>
  /** A ledger step failed (its store away): the job stops; undefined for "nothing sent". Other failures are thrown on. */
  ledgerLost(int: ItemInternals, err: unknown): undefined
  /** A journal line that could not be written (logged by the owner). */
  onJournalError(err: unknown): void
  /** Why items were not sent when the journal could not be written. */
  journalError(failure: ItemInternals['journalFailure']): ErrorData
  rateLimitWait(job: JobView, int: ItemInternals, waitMs: number): void
  scheduleLogChecks(job: JobView, i: number): void
  /** Shows the item's state now (no journal line: the send has not begun). */
  emit(job: JobView): void
}

/**
 * Sends item i. 'busy': its target was held by another send on its way and this was not `lastTry`:
 * nothing was done, the runner tries it again once the job's other items are through (two
 * workstations renewing the same domains then meet as "already renewed by", not as "busy").
 */
export async function sendItem(
  steps: ItemSteps,
  client: ApiClient,
  job: JobView,
  int: ItemInternals,
  i: number,
  opts: { lastTry: boolean; trail?: SendTrail; claimed?: ItemClaim } = { lastTry: true },
): Promise<'busy' | undefined> {
  const it = job.items[i]
  const params = int.params[i]
  if (!it || !params) {
    await letAheadGo(steps, int, opts.claimed)
    return undefined
  }
  const { ledger } = steps
  const precondition = preconditionFor(job, it)

  // 1. The hold (claimed ahead by the worker, or now). Another send of the target on its way may be
  // the one that does this item's work (which the precondition then says): tried again later, once.
  // An unknown outcome refuses at once.
  const claim = await (opts.claimed ?? claimItem(steps, job, int, i, opts.lastTry))
  if (!claim) return undefined
  if (!claim.ok) {
    if (claim.heldBy.state === 'sending' && !opts.lastTry) return 'busy'
    await steps.settle(job, i, { state: 'failed', error: heldError(claim.heldBy, it.label) })
    return undefined
  }
  const lease = claim.lease
  const letGo = () => ledger.release(lease, 'free').catch((err: unknown) => steps.ledgerLost(int, err))

  // 2. What it was confirmed against, under the hold.
  if (checkedByLedger(job.operation)) {
    const verdict = await ledger.precondition(lease, precondition).catch((err: unknown) => steps.ledgerLost(int, err))
    if (!verdict) {
      await letGo()
      return
    }
    // A second send over an unknown outcome, asked for knowing the risk, is not refused for that risk.
    const knowingly = !verdict.holds && 'unsure' in verdict && verdict.unsure === 'unsettled' && int.secondSend
    if (!verdict.holds && !knowingly) {
      let refusal: ErrorData | undefined
      if ('moved' in verdict) refusal = alreadyDoneError(job.operation, it.label, verdict.moved)
      else {
        // The ledger cannot tell: the service, where it shows what the item was confirmed against.
        const asked = await verifyAtService(client, job.operation, params, it, int.controller.signal)
        if (!asked) refusal = unsureError(it.label, verdict.unsure)
        else if (!asked.holds) refusal = asked.error
      }
      if (refusal) {
        await letGo()
        await steps.settle(job, i, { state: 'skipped', error: refusal })
        return
      }
    }
  }

  // 3. History first (a zone's snapshot, and its guard, read afresh), while the target is held and
  // before the item is journaled as on its way: one refused here was never sent.
  const refused = await steps.observe((o) => o.beforeSend(job, i, params, client, int.guards[i]))
  if (refused) {
    await letGo()
    await steps.settle(job, i, { state: 'failed', error: refused })
    return
  }

  // 4. Journaled before it leaves, with how the service's log will show it (after a crash, an item
  // that was sending is an unknown outcome), the hold and the precondition checked in the same step.
  const request = client.describeRequest(job.operation, params)
  // Without its key the body cannot be journaled as the log will show it: not sent.
  const bodyHash = await steps.bodyMac.of(request.body).catch(() => undefined)
  if (bodyHash === undefined) {
    await letGo()
    await steps.settle(job, i, { state: 'failed', error: { kind: 'internal', code: 'job.journalKeyUnavailable' } }, int)
    return
  }
  const sent = { method: request.method, path: request.path, bodyHash }
  // The worker's last send's end, journaled first (or in the same step, carried): one that could
  // not be stops the job before this send.
  const trail = opts.trail ?? {}
  const carry = trail.carry
  trail.carry = undefined
  const carried = carry?.take()
  if (!carried && trail.ending && !(await trail.ending)) {
    await letGo()
    return
  }
  const begun = await beginSend(
    steps,
    job,
    int,
    i,
    lease,
    { state: 'sending', sentAt: steps.now().toISOString(), sent },
    precondition,
    carry && carried ? { carry, end: carried } : undefined,
  )
  if (begun !== 'sent') return
  trail.claimNext?.()

  // 5. The send, the read-back and the end (which trails: see SendTrail; a send let go free is
  // carried to the worker's next journal step where the ledger writes both in one).
  const ended = (change: Partial<JobItemView> & { state: ItemState }, outcome: LetGo['outcome']) => {
    const carry =
      outcome === 'free' && opts.trail && ledger.endThenBeginSend
        ? new CarriedEnd(ledger, lease, job, trail.carryMs)
        : undefined
    if (carry) trail.carry = carry
    return steps.settle(job, i, change, undefined, {
      lease,
      outcome,
      journal: carry ? (record) => carry.journal(record) : undefined,
    })
  }
  const thenHistory = async (journaled: Promise<boolean>) => {
    const ok = await journaled
    await steps.observe((o) => o.ended(job, i, { fromLog: false }))
    return ok
  }
  try {
    const env = await client.sendParsed(job.operation, params, {
      signal: int.controller.signal,
      onRateLimitWait: (ms) => steps.rateLimitWait(job, int, ms),
    })
    // Read back while the target is still held: what the service kept, not what its answer repeats.
    const back = await readBack(client, job.operation, params, int.controller.signal)
    const result = back && 'kept' in back ? back.kept : env.results
    const serviceKept = back && 'error' in back ? [notReadBack()] : serviceKeptFindingsOf(job.operation, params, result)
    // Done as of now (settle sets it at once, then journals its end with the hold let go, in one
    // step); history is told meanwhile: it reads the item, set here, and nothing the journal
    // writes, so neither waits for the other.
    const journaled = ended(
      { state: 'done', result, requestId: env.requestId, ...(serviceKept.length > 0 ? { serviceKept } : {}) },
      'free',
    )
    trail.ending = Promise.all([journaled, steps.observe((o) => o.ended(job, i, { fromLog: false }))]).then(
      ([ok]) => ok,
    )
  } catch (err) {
    const error = toErrorData(err)
    if (error.code === 'http.answerNotKept') {
      // The service answered success with more than can be kept: done, its answer not kept.
      trail.ending = thenHistory(
        ended({ state: 'done', requestId: error.requestId, serviceKept: [answerNotKept()] }, 'free'),
      )
    } else if (isOutcomeUnknown(error)) {
      const journaled = ended({ state: 'unknown', error, requestId: error.requestId }, 'unknown')
      trail.ending = thenHistory(journaled).then((ok) => {
        if (!steps.closed()) steps.scheduleLogChecks(job, i)
        return ok
      })
    } else trail.ending = thenHistory(ended({ state: 'failed', error, requestId: error.requestId }, 'free'))
  }
  // Without a worker's trail (a caller sending one item), the end is waited for here.
  if (!opts.trail) await trail.ending
}

/**
 * How long the last try of an item waits for another send of its target that is on its way (a
 * colleague's renewal of the same domain, paced by the service's rate limit) to end, looking every
 * LOOK_MS: about what a paced send takes. Past it, the item is refused naming the holder.
 */
const LAST_TRY_WAIT_MS = 3_000
const LOOK_MS = 100

/** What item i was confirmed against: a zone save's precondition is its guard (read afresh by history, step 3), not the ledger's record. */
const preconditionFor = (job: JobView, it: JobItemView): SendPrecondition =>
  checkedByLedger(job.operation) ? preconditionOf(job, it) : { since: undefined }

/** Claims item i's target (step 1 of sendItem), on its own: a worker claims its next item while its last one is sent. */
export function claimItem(steps: ItemSteps, job: JobView, int: ItemInternals, i: number, lastTry: boolean): ItemClaim {
  const it = job.items[i]
  if (!it) return Promise.resolve(undefined)
  const ref: TargetRef = { accountId: job.accountId, operation: job.operation, target: it.target }
  return claimOnce(
    steps,
    int,
    ref,
    { jobId: job.id, index: i },
    { overUnknown: int.secondSend, precondition: preconditionFor(job, it) },
    lastTry,
  )
}

/** A hold claimed ahead for an item that is not sent after all (the job paused, stopped or closed): let go free, nothing done. */
export async function letAheadGo(steps: ItemSteps, int: ItemInternals, claimed: ItemClaim | undefined): Promise<void> {
  const claim = await claimed
  if (claim?.ok) await steps.ledger.release(claim.lease, 'free').catch((err: unknown) => steps.ledgerLost(int, err))
}

/** Claims the target; on the last try, a send on its way is waited for a moment (LAST_TRY_WAIT_MS). Undefined: the ledger is away. */
async function claimOnce(
  steps: ItemSteps,
  int: ItemInternals,
  ref: TargetRef,
  owner: { jobId: string; index: number },
  opts: { overUnknown: boolean; precondition: SendPrecondition },
  lastTry: boolean,
): Promise<ClaimResult | undefined> {
  const until = Date.now() + (lastTry ? LAST_TRY_WAIT_MS : 0)
  for (;;) {
    const claim = await steps.ledger.claim(ref, owner, opts).catch((err: unknown) => steps.ledgerLost(int, err))
    if (
      !claim ||
      claim.ok ||
      claim.heldBy.state !== 'sending' ||
      Date.now() >= until ||
      int.stopRequested ||
      steps.closed()
    )
      return claim
    await new Promise((resolve) => setTimeout(resolve, LOOK_MS))
  }
}

/**
 * Step 4: the item journaled as sending, its hold and its precondition checked in the same step.
 * 'sent' when the request may leave; otherwise the item has been settled (and its hold let go) saying why.
 */
async function beginSend(
  steps: ItemSteps,
  job: JobView,
  int: ItemInternals,
  i: number,
  lease: TargetLease,
  change: Partial<JobItemView> & { state: 'sending' },
  precondition: SendPrecondition,
  carried?: { carry: CarriedEnd; end: EndStep },
): Promise<'sent' | 'not-sent'> {
  const it = job.items[i]
  if (!it) {
    carried?.carry.putBack()
    return 'not-sent'
  }
  Object.assign(it, change)
  const record = itemRecord(job.id, i, it, jobSecrets(job))
  const { ledger } = steps
  const step =
    carried && ledger.endThenBeginSend
      ? ledger.endThenBeginSend(carried.end, record, lease, precondition)
      : ledger.beginSend(record, lease, precondition)
  const begun = await step.catch((err: unknown) => ({ failed: err }))
  // The worker's last end was written with this step (or not, with it): its own settle is told.
  carried?.carry.taken('failed' in begun ? { err: begun.failed } : undefined)
  if ('failed' in begun) {
    // Not journaled (the journal file or the ledger's store away): never sent; the job sends nothing more.
    int.journalFailure ??= { reason: systemReason(begun.failed), ledger: ledgerErrorData(begun.failed) }
    int.stopRequested = true
    steps.onJournalError(begun.failed)
    await steps.ledger.release(lease, 'free').catch(() => undefined)
    Object.assign(it, { state: 'pending', sentAt: undefined, sent: undefined })
    await steps.settle(job, i, { state: 'skipped', error: steps.journalError(int.journalFailure) })
    return 'not-sent'
  }
  if (begun.ok) {
    steps.emit(job)
    return 'sent'
  }
  Object.assign(it, { state: 'pending', sentAt: undefined, sent: undefined })
  if ('moved' in begun) {
    await steps.ledger.release(lease, 'free').catch((err: unknown) => steps.ledgerLost(int, err))
    await steps.settle(job, i, { state: 'skipped', error: alreadyDoneError(job.operation, it.label, begun.moved) })
    return 'not-sent'
  }
  // Its fencing number is no longer the target's (frozen past its lease): it never leaves.
  await steps.settle(
    job,
    i,
    { state: 'failed', error: { kind: 'busy', code: 'job.holdLost', params: { targets: it.label } } },
    int,
  )
  return 'not-sent'
}
