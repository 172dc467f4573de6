/**
 * The write ledger: the journal of every write, the per-target holds, and the record of which
 * sends ended, behind one interface so the runner works the same over the local journal file
 * (local-ledger.ts) and a shared database. Types only: the runner talks to the journal, the holds
 * and the preconditions through nothing else, and never names which ledger it has. A step the
 * ledger cannot take now throws LedgerUnavailable (ledger-error.ts): nothing is sent then.
 */
import type { WriteEndpointName } from '@shared/endpoints/table'
import type { JobView } from '@shared/jobs'
import type { JournalRecord } from './journal-record'

/** One send's target, as the runner keys it today (account / operation / target). */
export interface TargetRef {
  accountId: string
  operation: WriteEndpointName
  /** The item's target key (JobItemView.target). */
  target: string
}

/** Who holds a target now: a send on its way, or a send whose outcome is unknown (blocks until settled). */
export interface TargetHolder {
  jobId: string
  index: number
  state: 'sending' | 'unknown'
  /** ISO time the hold began. */
  since: string
  /** Shared ledger: the member and the workstation that hold it (undefined for this process's own local holds). */
  member?: string | undefined
  workstation?: string | undefined
}

/** A hold on one target for one send. `fence` is the lease's fencing number (0 in the local ledger). */
export interface TargetLease {
  ref: TargetRef
  jobId: string
  index: number
  fence: number
}

export type ClaimResult = { ok: true; lease: TargetLease } | { ok: false; heldBy: TargetHolder }

/**
 * A point in the ledger's record of ended sends, taken when a job is prepared and before what it
 * is confirmed against is read from the service: a send of the same target that ends after it is
 * one the confirmation did not see. Opaque to the runner (a counter, a database sequence).
 */
export type LedgerMark = string

/**
 * What an item was confirmed against, checked under its hold right before it is sent: nothing
 * done to its target since the job's mark, by anyone the ledger records (another job of this
 * process, the command line, a colleague), and, where the operation has one, the state it was
 * confirmed against (`basis`: a renewal's expiry date) not already acted on by another send.
 */
export interface SendPrecondition {
  /** The ledger's mark when the job was prepared; undefined when none could be taken (the ledger cannot tell). */
  since: LedgerMark | undefined
  /** The state the confirmation showed, where the operation names one (a renewal's expiry date before it). */
  basis?: string | undefined
}

/** A send of the target that ended done after the mark (or from the same basis): who, where, when. */
export interface EarlierSend {
  jobId: string
  index: number
  /** ISO time it ended. */
  at: string
  /** Shared ledger: who and where; undefined for this data folder's own jobs. */
  member?: string | undefined
  workstation?: string | undefined
  /** Local ledger: the job came from the command line (else from the window). */
  fromCommandLine?: boolean | undefined
}

/**
 * Why a ledger cannot tell whether the precondition holds: the job has no mark; the local journal
 * was changed outside the app, so its record of earlier sends is not vouched for; a send of the
 * target since the mark was settled without evidence of its outcome (sent again over an unknown).
 */
export type UnsureWhy = 'noMark' | 'journalChanged' | 'unsettled'

export type PreconditionVerdict =
  { holds: true } | { holds: false; moved: EarlierSend } | { holds: false; unsure: UnsureWhy }

/** Right before the send: sent (journaled, lease current, precondition holding), or why nothing is. */
export type BeginSend = { ok: true } | { ok: false; lost: true } | { ok: false; moved: EarlierSend }

/** A send's end as it waits to be written: its item record, the lease it lets go, its job. */
export interface EndStep {
  record: JournalRecord
  lease: TargetLease
  job: JobView
}

/** How a send ended, as the record of ended sends keeps it (only `done` moves a precondition). */
export type SendEnd = 'done' | 'failed' | 'not-sent'

/** What settles an unknown outcome: the service's log entry of the item's own request. */
export interface SettleEvidence {
  how: 'done' | 'failed'
  requestId: string
  /** The entry's time as the service's log gives it. */
  datetime?: string | undefined
}

/** A worker's last send's end, then its next item's journal step: WriteLedger.endThenBeginSend's arguments. */
export type EndThenBeginSend = [last: EndStep, record: JournalRecord, lease: TargetLease, p: SendPrecondition]

export interface WriteLedger {
  readonly kind: 'local' | 'team'
  /** Where the journal is, for messages (job.journalUnwritable's `path`): a file, or the shared database's name. */
  readonly where: string

  // --- the journal ---
  /** Every job as journaled, oldest first. */
  load(): Promise<JobView[]>
  /** Lines/rows that could not be read back at load (counted, never fatal). */
  readonly unreadableLines: number
  /**
   * Where the last load found the journal changed outside the app (local: a line edited, moved,
   * removed or cut, or the file replaced; its MAC chain broken at `line`), undefined when it is as
   * written. The jobs load() gave then hold as unknown every item the journal no longer vouches for.
   */
  readonly changedOutside?: { line: number } | undefined
  /**
   * Whether a job the last load() read is being run by another process now (a colleague's,
   * seen alive within a lease's life, or the command line's beside this window on this
   * workstation, while its process runs), so a process starting must not take it for one a quit
   * cut off. Absent: one data folder, one journal of this machine's own jobs.
   */
  runsElsewhere?(jobId: string): boolean
  /** Keeps the journal as read aside before a rewrite would drop unreadable lines; returns where. */
  keepAside(now: Date): Promise<string>
  /** Appends one record durably (a line flushed to disk; a committed row). Throws when it cannot: nothing may be sent then. */
  append(record: JournalRecord): Promise<void>
  /** Rewrites the journal with only these jobs (local: after a restart / an account removed; shared: may be a no-op). */
  compact(jobs: JobView[]): Promise<void>
  close(): Promise<void>

  // --- the per-target holds ---
  /**
   * Takes the target for one send (state 'sending'). Refused with who holds it when another send holds it, or when its
   * last send's outcome is unknown unless `overUnknown` (the user asked for a second send knowing the risk). The
   * send's precondition: its basis is kept with the hold (for the preconditions of later sends); a shared ledger may
   * check it in the same step (precondition() then answers from it).
   */
  claim(
    ref: TargetRef,
    owner: { jobId: string; index: number },
    opts?: { overUnknown?: boolean; precondition?: SendPrecondition | undefined },
  ): Promise<ClaimResult>
  /** Whether what the item was confirmed against still holds (asked under its lease, before history is told of the send). */
  precondition(lease: TargetLease, p: SendPrecondition): Promise<PreconditionVerdict>
  /**
   * The last step before the request leaves: the item's "sending" record journaled, with its lease
   * checked still current and its precondition checked again in the same durable step (shared:
   * one committed statement; nothing is journaled when either fails). Throws as append does.
   */
  beginSend(record: JournalRecord, lease: TargetLease, p: SendPrecondition): Promise<BeginSend>
  /**
   * Whether the lease still holds (shared: a committed check that the lease's fencing number is
   * current and unexpired). False: send nothing. Local: always true.
   */
  stillHeld(lease: TargetLease): Promise<boolean>
  /** A hold let go without a send ending ('free': never sent) or kept as unknown. */
  release(lease: TargetLease, outcome: 'free' | 'unknown'): Promise<void>
  /**
   * A send's end in one step: its item's record appended (as append) and its hold let go (as
   * release); `job` is the job the item is of. The record's state (done, failed, unknown) is what
   * the record of ended sends keeps. Shared: one statement with the team's history row of the
   * change (history says who), and nothing at all when the lease is no longer this send's (a
   * process woken past its lease writes no state for an item it no longer holds). Throws as
   * append does; the hold then runs out as after a failed release.
   */
  end(record: JournalRecord, lease: TargetLease, outcome: 'free' | 'unknown', job: JobView): Promise<void>
  /**
   * A shared ledger's one step for a worker's last send's end (as end, its hold let go 'free') and
   * its next item's journal step (as beginSend), committed together: one round trip and one durable
   * commit where the two apart take two in turn. The end is written whatever the journal step
   * answers; nothing of either when it throws. Absent: end and beginSend apart (send-item.ts SendTrail).
   */
  endThenBeginSend?(...step: EndThenBeginSend): Promise<BeginSend>
  /**
   * An unknown outcome was settled from the service's log: the target is free again, the send
   * recorded as the log entry shows it (done or failed, with that entry's request id). Without the
   * evidence (an account removed here) only this process's own hold goes: a shared ledger keeps
   * the team's unknown outcome until someone settles it with the log's evidence.
   */
  settle(ref: TargetRef, evidence?: SettleEvidence): Promise<void>
  /** Who holds the target now, if anyone. */
  holderOf(ref: TargetRef): Promise<TargetHolder | undefined>
  /** Who holds each of these targets now, in their order (prepare's checks of a whole job; shared: one query). */
  holdersOf(refs: readonly TargetRef[]): Promise<Array<TargetHolder | undefined>>
  /** Targets held as unknown at start (local: rebuilt from load(); shared: from the database). */
  unknownTargets(): Promise<Array<{ ref: TargetRef; holder: TargetHolder }>>

  // --- the record of ended sends ---
  /** The mark a job prepared now carries (taken before what it is confirmed against is read). */
  mark(): Promise<LedgerMark>
  /**
   * The other sends of this target the ledger recorded since `sinceIso` (a log check must not take
   * another item's request, a colleague's, for this item's): the request ids of those that got an
   * answer, and how many left with none known (on their way, unknown, sent again over an unknown).
   */
  otherSends(
    ref: TargetRef,
    owner: { jobId: string; index: number },
    sinceIso: string,
  ): Promise<{ requestIds: string[]; withoutId: number }>
}
