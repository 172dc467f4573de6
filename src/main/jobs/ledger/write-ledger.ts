/**
 * The write ledger: the journal of every write and the per-target holds, behind one interface so
 * the runner works the same over the local journal file (local-ledger.ts) and a team database.
 * Types only: the runner talks to the journal and the holds through nothing else.
 */
import type { WriteEndpointName } from '../../../shared/endpoints/table'
import type { JobView } from '../../../shared/jobs'
import type { JournalRecord } from '../journal'

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
  /** Team mode: the member and the workstation that hold it (undefined for this process's own local holds). */
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

export interface WriteLedger {
  readonly kind: 'local' | 'team'
  /** Where the journal is, for messages (job.journalUnwritable's `path`): a file, or the team database's name. */
  readonly where: string

  // --- the journal ---
  /** Every job as journaled, oldest first (local: the file; team: the team's jobs). */
  load(): Promise<JobView[]>
  /** Lines/rows that could not be read back at load (counted, never fatal). */
  readonly unreadableLines: number
  /**
   * Whether a job the last load() read is being run by another process now (team: a colleague's,
   * seen alive within a lease's life, or the command line's beside this window on this
   * workstation, while its process runs), so a process starting must not take it for one a quit
   * cut off. Absent (local): one data folder, one journal of this machine's own jobs.
   */
  runsElsewhere?(jobId: string): boolean
  /** Keeps the journal as read aside before a rewrite would drop unreadable lines; returns where. */
  keepAside(now: Date): Promise<string>
  /** Appends one record durably (a line flushed to disk; a committed row). Throws when it cannot: nothing may be sent then. */
  append(record: JournalRecord): Promise<void>
  /** Rewrites the journal with only these jobs (local: after a restart / an account removed; team: may be a no-op). */
  compact(jobs: JobView[]): Promise<void>
  close(): Promise<void>

  // --- the per-target holds ---
  /**
   * Takes the target for one send (state 'sending'). Refused with who holds it when another send holds it, or when its
   * last send's outcome is unknown unless `overUnknown` (the user asked for a second send knowing the risk).
   */
  claim(ref: TargetRef, owner: { jobId: string; index: number }, opts?: { overUnknown?: boolean }): Promise<ClaimResult>
  /**
   * Called right before the request leaves, after the item was journaled as sending: whether the lease still holds
   * (team: a committed check that the lease's fencing number is current and unexpired). False: send nothing.
   * Local: always true.
   */
  stillHeld(lease: TargetLease): Promise<boolean>
  /** The send ended: 'free' releases the target; 'unknown' keeps it held as unknown (for everyone) until settled. */
  release(lease: TargetLease, outcome: 'free' | 'unknown'): Promise<void>
  /**
   * A send's end in one step: its item's record appended (as append) and its hold let go (as
   * release); `job` is the job the item is of. Team: one statement with the team's history row of
   * the change (history says who), so one round trip on every item rather than three. Throws as
   * append does; the hold then runs out (team) as after a failed release.
   */
  end(record: JournalRecord, lease: TargetLease, outcome: 'free' | 'unknown', job: JobView): Promise<void>
  /** An unknown outcome was settled (from the service's log): the target is free again. */
  settle(ref: TargetRef): Promise<void>
  /** Who holds the target now, if anyone. */
  holderOf(ref: TargetRef): Promise<TargetHolder | undefined>
  /**
   * Who holds each of these targets now, in their order (prepare's "already on its way" /
   * "outcome unknown" checks of a whole job). Team: one query, however many targets.
   */
  holdersOf(refs: readonly TargetRef[]): Promise<Array<TargetHolder | undefined>>
  /** Targets held as unknown at start (local: rebuilt from load(); team: from the database). */
  unknownTargets(): Promise<Array<{ ref: TargetRef; holder: TargetHolder }>>
}
