/**
 * An item whose outcome is unknown, settled from the service's request log (log-check.ts reads
 * the log): when it is looked at again, and what a look settles. The runner keeps the view, the
 * journal and the holds; it hands them over here as the few operations a check needs.
 */
import { parseEndpointParams, type WriteEndpointName } from '@shared/endpoints/table'
import type { ItemState, JobItemView, JobView } from '@shared/jobs'
import { AppError, toErrorData } from '../base/app-error'
import type { ApiClient } from '../http'
import type { BodyMac } from './ledger/body-mac'
import type { SettleEvidence } from './ledger/write-ledger'
import { findInLog, loggedAnswer } from './log-check'

export type LogCheckStatus = 'received' | 'not-found' | 'undecided' | 'failed'

/** What a check needs of the runner. */
export interface LogCheckContext {
  client(accountId: string): Promise<ApiClient>
  /** How the sent body was journaled (body-mac.ts), to know it again in the log. */
  bodyMac: BodyMac
  now(): Date
  /** Records an item's change: in the view, in the journal, to the windows. */
  settle(job: JobView, i: number, change: Partial<JobItemView> & { state: ItemState }): Promise<boolean>
  /** The item's target is no longer held as unknown: its outcome is known now, from the log's entry of its request. */
  releaseTarget(job: JobView, it: JobItemView, evidence: SettleEvidence): Promise<void>
  /** The other sends of the item's target since the job started (their requests are never this item's). */
  otherSends(job: JobView, i: number): Promise<{ requestIds: string[]; withoutId: number }>
  /** Tells history the item ended, settled from the log. */
  endedFromLog(job: JobView, i: number): Promise<void>
}

/**
 * Reads the service's log for an item whose outcome is unknown. Found, and the ledger knows of no
 * other send of the target it could be: the outcome is the answer the service logged. Not found: it stays unknown (the log may be late, or in another
 * clock), and only the user can decide to send it again.
 */
export async function checkItemLog(ctx: LogCheckContext, job: JobView, i: number): Promise<LogCheckStatus> {
  const it = job.items[i]
  if (!it || it.state !== 'unknown') return 'received'
  const checkedAt = ctx.now().toISOString()
  try {
    const client = await ctx.client(job.accountId)
    // The parameters may come from the journal on disk: validated again before use.
    const sent = it.sent ?? (await describeAgain(client, ctx.bodyMac, job.operation, it.params))
    const others = await ctx.otherSends(job, i)
    let search = await findInLog(client, { ...sent, baselineId: job.logBaseline ?? undefined, others }, ctx.bodyMac)
    // A colleague's job (team mode) was journaled under their workstation's body key, which this
    // one does not hold: its body is made again from the journaled parameters, under ours.
    if ('notFound' in search && job.by && it.sent) {
      const again = await describeAgain(client, ctx.bodyMac, job.operation, it.params).catch(() => undefined)
      if (again)
        search = await findInLog(client, { ...again, baselineId: job.logBaseline ?? undefined, others }, ctx.bodyMac)
    }
    if ('undecided' in search) {
      await ctx.settle(job, i, { state: 'unknown', log: { status: 'undecided', reason: search.undecided, checkedAt } })
      return 'undecided'
    }
    if ('notFound' in search) {
      await ctx.settle(job, i, { state: 'unknown', log: { status: 'not-found', checkedAt } })
      return 'not-found'
    }
    const entry = search.found
    // The logged answer is the service's text: it may repeat the key (as a refused token), which goes no further.
    const response = client.withoutKey(entry.response)
    const log = {
      status: 'received' as const,
      checkedAt,
      entry: { request_id: entry.request_id, datetime: entry.datetime, response: response.slice(0, 4000) },
    }
    const answer = loggedAnswer(response)
    await ctx.releaseTarget(job, it, {
      how: answer.ok ? 'done' : 'failed',
      requestId: entry.request_id,
      datetime: entry.datetime,
    })
    await ctx.settle(job, i, {
      state: answer.ok ? 'done' : 'failed',
      log,
      resolvedFromLog: true,
      requestId: entry.request_id,
      ...(answer.ok ? { result: answer.results } : { error: { ...answer.error, requestId: entry.request_id } }),
    })
    await ctx.endedFromLog(job, i)
    return 'received'
  } catch (err) {
    await ctx.settle(job, i, { state: 'unknown', log: { status: 'failed', checkedAt, error: toErrorData(err) } })
    return 'failed'
  }
}

/** How an item journaled before its request was (an older journal) left, made again from its parameters, validated again first. */
async function describeAgain(
  client: ApiClient,
  bodyMac: BodyMac,
  operation: WriteEndpointName,
  journaled: Record<string, unknown>,
): Promise<NonNullable<JobItemView['sent']>> {
  const params = parseEndpointParams(operation, journaled)
  if (!params.ok) throw AppError.invalid('ipc.invalidPayload', params.issues)
  const described = client.describeRequest(operation, params.value)
  return { method: described.method, path: described.path, bodyHash: await bodyMac.of(described.body) }
}

/** The looks after an unknown outcome, spaced out (the log may lag behind the request); all cancelled at close. */
export class LogCheckSchedule {
  private readonly timers = new Set<NodeJS.Timeout>()
  private closed = false

  constructor(private readonly delaysMs: readonly number[] = [1_000, 5_000, 20_000]) {}

  /** Looks with `check` after each delay in turn, until a look settles it or the attempts run out. */
  schedule(check: () => Promise<LogCheckStatus>): void {
    let attempt = 0
    const next = () => {
      if (this.closed || attempt >= this.delaysMs.length) return
      const t = setTimeout(() => {
        this.timers.delete(t)
        attempt++
        void check()
          .catch(() => undefined)
          .then((status) => {
            // The log may lag: look again until it shows the request or the attempts run out. An
            // undecided look (no baseline, several matches) would stay undecided.
            if (status && status !== 'received' && status !== 'undecided') next()
          })
      }, this.delaysMs[attempt])
      this.timers.add(t)
    }
    next()
  }

  close(): void {
    this.closed = true
    for (const t of this.timers) clearTimeout(t)
  }
}
