/**
 * Jobs: every write to the service runs as a job in the main process. Its account, operation and
 * every parameter are fixed when it is prepared; the user confirms what was prepared; then main
 * sends each item, journals each outcome, and reports the job as a JobView. Plain types, shared
 * by main and the renderer.
 */
import type { ErrorData } from '../errors'
import type { WriteEndpointName } from '../endpoints/names'
import type { ServiceKeptFinding } from '../service/service-kept'

export const JOB_PURPOSES = ['edit', 'restore', 'bulk-dns', 'cli'] as const
export type JobPurpose = (typeof JOB_PURPOSES)[number]

export type JobStatus = 'prepared' | 'running' | 'paused' | 'stopping' | 'stopped' | 'done' | 'interrupted'

/**
 * - pending: not sent yet; skipped: never sent (the job was stopped or interrupted)
 * - sending: on its way; done / failed: the service answered
 * - unknown: sent, but the answer was lost (time-out, broken connection): it may have been done.
 *   Nothing is sent again for the same target until the user says so, knowing the risk.
 */
export type ItemState = 'pending' | 'sending' | 'done' | 'failed' | 'unknown' | 'skipped'

export const TERMINAL_ITEM_STATES: readonly ItemState[] = ['done', 'failed', 'unknown', 'skipped']
const RUNNING_JOB_STATUSES: readonly JobStatus[] = ['running', 'paused', 'stopping']

/** What an item will change, shown in the confirmation: for an extension, the date before and after. */
export type ItemEffect = {
  from?: string | undefined
  to?: string | undefined
  /** The current state could not be read; the confirmation says so. */
  unreadable?: boolean | undefined
}

/**
 * Why a look in the service's log settles nothing: the job has no baseline (the log's newest entry
 * could not be read when it started, so an earlier identical request cannot be told apart), two
 * entries after the baseline match, the baseline was not reached in the pages read, or the log
 * did not come newest first, or another send of the same target (a colleague's, another job's)
 * left with no request id known, so a matching entry may be its request, not this item's.
 */
export const LOG_UNDECIDED = ['noBaseline', 'several', 'baselineNotReached', 'order', 'others'] as const
export type LogUndecided = (typeof LOG_UNDECIDED)[number]

/** What the service's own request log says about an item whose outcome was unknown. */
export type LogCheck = {
  status: 'checking' | 'received' | 'not-found' | 'undecided' | 'failed'
  /** For 'undecided': why. */
  reason?: LogUndecided | undefined
  checkedAt: string
  /** The entry that matched: its request ID, time and the answer the service logged. */
  entry?: { request_id: string; datetime: string; response: string } | undefined
  error?: ErrorData | undefined
}

export type JobItemView = {
  /** What the item acts on (a domain name, kind:webid...): one write per target at a time. */
  target: string
  /** How the item is shown (a domain name, a server name). */
  label: string
  params: Record<string, unknown>
  state: ItemState
  effect?: ItemEffect | undefined
  /**
   * What the item was confirmed against, where its operation names a state (a renewal or an
   * extension: the expiry date the confirmation showed). Checked under its hold before it is
   * sent: a send of the same target that ended from this same state means it was already done.
   */
  basis?: string | undefined
  /** The service's answer (its `results`), for done items. */
  result?: unknown
  /** Where what the service answered it kept differs from what was sent (see shared/service/service-kept.ts). */
  serviceKept?: ServiceKeptFinding[] | undefined
  error?: ErrorData | undefined
  requestId?: string | undefined
  sentAt?: string | undefined
  /**
   * The request as it left: method, path, and a hash of its body (what the service's log is
   * searched for after a lost answer, even after a restart, without the body on disk).
   */
  sent?: { method: string; path: string; bodyHash: string } | undefined
  /** False when the journal left parameters out (a transfer code, a password, contacts): such an item cannot be sent again from its record. */
  paramsKept?: boolean | undefined
  log?: LogCheck | undefined
  /** The outcome came from the service's log, not from its answer. */
  resolvedFromLog?: boolean | undefined
  /** A zone save over the safety rule, sent with the user's own confirmation of it. */
  overRule?: boolean | undefined
}

export type JobView = {
  id: string
  accountId: string
  accountName: string
  operation: WriteEndpointName
  /**
   * The job starts only with the user's confirmation: the operation costs money, changes ownership
   * or cannot be undone, or the account confirms every write (its write safety level).
   */
  confirm: boolean
  /** The confirmation asks for the account's name to be typed (main checks what was typed). */
  confirmByName?: boolean | undefined
  purpose?: JobPurpose | undefined
  status: JobStatus
  createdAt: string
  startedAt?: string | undefined
  endedAt?: string | undefined
  concurrency: number
  /**
   * The request ID of the service log's newest entry when the job started: a log check counts only
   * what came after it. null: the log could not be read then, so no log check can settle an item.
   */
  logBaseline?: string | null | undefined
  /**
   * The write ledger's mark when the job was prepared, taken before what it is confirmed against
   * was read (jobs/ledger/write-ledger.ts): a send of one of its targets that ended after it is
   * one its confirmation did not see, so the item is not sent.
   */
  mark?: string | undefined
  items: JobItemView[]
  /** Team mode (issue 37): the member and the workstation that made the job; the local ledger never sets it. */
  by?: { member: string; workstation: string } | undefined
  /** The job's waits out of the service's rate limit, while it runs (not journaled: gone after a restart). */
  rateLimit?: RateLimitWaits | undefined
}

/** How long a job waited for the service's rate limit: each block counted once, whatever the concurrency. */
type RateLimitWaits = {
  waits: number
  waitedMs: number
  /** While waiting: about when the wait ends (ISO time). */
  waitingUntil?: string | undefined
}

/**
 * Whether an item was not sent because its target was already acted on after its confirmation
 * (by a colleague, another job, the command line: main's jobs/preconditions.ts): its intent was
 * done elsewhere, which a summary counts apart from failures.
 */
export const isDoneElsewhere = (it: Pick<JobItemView, 'state' | 'error'>): boolean =>
  it.state === 'skipped' &&
  it.error !== undefined &&
  (it.error.code.startsWith('job.already') || it.error.code === 'job.changedSinceConfirmed')

/** The counts a progress bar and a summary need; `doneElsewhere` are among the skipped. */
export function jobCounts(
  job: Pick<JobView, 'items'>,
): Record<ItemState, number> & { total: number; finished: number; doneElsewhere: number } {
  const counts = {
    pending: 0,
    sending: 0,
    done: 0,
    failed: 0,
    unknown: 0,
    skipped: 0,
    total: job.items.length,
    finished: 0,
    doneElsewhere: 0,
  }
  for (const item of job.items) {
    counts[item.state]++
    if (isDoneElsewhere(item)) counts.doneElsewhere++
  }
  counts.finished = counts.done + counts.failed + counts.unknown + counts.skipped
  return counts
}

export const isJobRunning = (job: Pick<JobView, 'status'>): boolean => RUNNING_JOB_STATUSES.includes(job.status)

/** Items whose outcome is still unknown: the user must look before anything is sent again for them. */
export const unknownItemCount = (job: Pick<JobView, 'items'>): number =>
  job.items.filter((it) => it.state === 'unknown').length

/** The zone a save was planned from: main sends nothing if the service holds anything else when it is sent. */
export interface ZoneGuard {
  records: string
  ttl?: number | undefined
  ns_type?: string | undefined
}

/** What the renderer sends to prepare a job: the operation and, per item, its parameters. */
export type JobRequest = {
  accountId: string
  operation: WriteEndpointName
  items: {
    params: Record<string, unknown>
    label?: string | undefined
    /**
     * For a zone save: the records the change was planned from. Main reads the zone again just
     * before sending and sends nothing for this item if it differs (`dns.changedSincePlan`).
     * Required for every zone save: without it main cannot apply the safety rule.
     */
    guard?: ZoneGuard | undefined
    /** A zone save over the safety rule (shared/dns/zone-safety) that the user confirmed on its own. */
    overRule?: boolean | undefined
  }[]
  /** Why the job was made, for its history: an edit, a restore from a snapshot, a bulk DNS change. */
  purpose?: JobPurpose | undefined
  concurrency?: number | undefined
  /** Send even though an earlier send to these targets has an unknown outcome (the user was told the risk). */
  secondSend?: boolean | undefined
  /**
   * Leave out the items whose target another send holds (on its way, or of unknown outcome)
   * instead of refusing the whole job: the job goes on around them, and prepare says which were
   * left out and who holds each (LeftOutItem). Without it, one held target refuses the job.
   */
  skipBusy?: boolean | undefined
}

/**
 * An item a job left out at prepare because another send held its target (JobRequest.skipBusy):
 * its place in the request, its label, and the refusal it would have met (job.targetBusy or
 * job.targetUnknown; in team mode job.targetBusyBy / job.targetUnknownBy, whose parameters name
 * the member, the workstation and since when).
 */
export type LeftOutItem = { index: number; label: string; error: ErrorData }
