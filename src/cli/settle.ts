/**
 * hosting-admin team settle: the writes of unknown outcome this data folder can read (its own
 * earlier ones, other processes', in team mode colleagues') looked up in the service's request log,
 * as the app does when it starts. Other commands never do it at their start: a short-lived command
 * would settle colleagues' jobs each time it ran, and end before most of its looks. Each item is
 * looked at once, then again while the log may lag (as the app's schedule does), within --timeout;
 * what each look settled is said, item by item.
 */
import type { AccountView } from '@shared/accounts'
import type { ErrorData } from '@shared/errors'
import type { JobItemView, JobView, LogUndecided } from '@shared/jobs'
import { EXIT, Failed, pause, type Context } from './context'

/** When the items still not found are looked at again (the log may lag behind the request). */
const LOOKS_AFTER_MS = [0, 1_000, 5_000, 20_000]

type Look = 'received' | 'not-found' | 'undecided' | 'failed'
/** How an item stands after the looks: settled (done, failed), or still unknown and why. */
type Outcome = 'done' | 'failed' | 'not-found' | 'undecided' | 'unread' | 'not-looked'

interface Open {
  jobId: string
  index: number
  label: string
  account: string
  by: JobView['by']
  look?: Look
}

/** An item of unknown outcome the log has not settled: its job, place, and what it is. */
function unknownItems(jobs: readonly JobView[], accountIds: ReadonlySet<string>): Open[] {
  return jobs
    .filter((j) => accountIds.has(j.accountId))
    .flatMap((j) =>
      j.items.flatMap((it, index) =>
        it.state === 'unknown' && it.log?.status !== 'received'
          ? [{ jobId: j.id, index, label: it.label, account: j.accountName, by: j.by }]
          : [],
      ),
    )
}

async function jobList(c: Context): Promise<JobView[]> {
  const r = await c.session.call('jobs.list', {})
  if (!r.ok) throw new Failed(r.error)
  return r.value
}

export async function settleUnknown(
  c: Context,
  accounts: readonly AccountView[],
  opts: { timeoutMs: number },
): Promise<number> {
  const items = unknownItems(await jobList(c), new Set(accounts.map((a) => a.id)))
  if (items.length === 0) {
    if (c.json) c.io.out(JSON.stringify({ items: [], settled: 0, unknown: 0 }))
    else c.io.out(c.say.t('cli.settle.none'))
    return EXIT.done
  }
  c.io.err(c.say.t('cli.settle.looking', { count: items.length }))
  const deadline = Date.now() + opts.timeoutMs
  for (const after of LOOKS_AFTER_MS) {
    const again = items.filter((it) => it.look === undefined || it.look === 'not-found' || it.look === 'failed')
    if (again.length === 0 || Date.now() + after > deadline) break
    if (!(await pause(after, c.io.signal))) break
    // One at a time: each look reads up to ten pages of the account's log.
    for (const it of again) {
      if (Date.now() > deadline || c.io.signal?.aborted) break
      const r = await c.session.call('jobs.checkLog', { jobId: it.jobId, index: it.index })
      it.look = r.ok ? r.value : 'failed'
    }
  }
  // How each item stands now, as the runner settled it (done or failed from the log, or still unknown and why).
  const now = new Map((await jobList(c)).map((j) => [j.id, j]))
  const rows = items.map((it) => {
    const item = now.get(it.jobId)?.items[it.index]
    const log = item?.log
    return {
      ...it,
      state: item?.state ?? 'unknown',
      outcome: outcomeOf(item, it.look),
      reason: log?.reason,
      error: log?.status === 'failed' ? log.error : undefined,
    }
  })
  const settled = rows.filter((r) => r.state !== 'unknown').length
  const unknown = rows.length - settled
  if (c.json) {
    const out = rows.map((r) => ({
      job: r.jobId,
      index: r.index,
      target: r.label,
      account: r.account,
      ...(r.by ? { by: r.by } : {}),
      state: r.state,
      outcome: r.outcome,
      ...(r.reason ? { reason: r.reason } : {}),
    }))
    c.io.out(JSON.stringify({ items: out, settled, unknown }))
  } else {
    for (const r of rows) {
      const by = r.by
        ? c.say.t('cli.settle.by', { member: r.by.member, workstation: r.by.workstation })
        : c.say.t('cli.settle.here')
      c.io.out(`${r.label}\t${r.account}\t${by}\t${outcomeWords(c, r.outcome, r.reason, r.error)}`)
    }
    c.io.out(c.say.t('cli.settle.summary', { settled, unknown }))
  }
  return unknown > 0 ? EXIT.unknown : EXIT.done
}

function outcomeOf(item: JobItemView | undefined, look: Look | undefined): Outcome {
  if (item?.state === 'done' || item?.state === 'failed') return item.state
  if (look === undefined) return 'not-looked'
  if (item?.log?.status === 'undecided') return 'undecided'
  return item?.log?.status === 'failed' ? 'unread' : 'not-found'
}

function outcomeWords(
  c: Context,
  outcome: Outcome,
  reason: LogUndecided | undefined,
  error: ErrorData | undefined,
): string {
  switch (outcome) {
    case 'done':
      return c.say.t('cli.settle.done')
    case 'failed':
      return c.say.t('cli.settle.failed')
    case 'undecided':
      return reason ? c.say.t(`jobs.undecided.${reason}`) : c.say.t('cli.settle.notFound')
    case 'unread':
      return c.say.t('cli.settle.unread', { reason: error ? c.say.error(error) : '' })
    case 'not-looked':
      return c.say.t('cli.settle.notLooked')
    case 'not-found':
      return c.say.t('cli.settle.notFound')
  }
}
