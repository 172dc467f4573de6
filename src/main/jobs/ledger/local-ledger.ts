/**
 * The local write ledger: today's journal file (journal.ts, with its data-lock check) and the
 * per-target holds of this process, in memory. Holds of sends whose outcome is unknown are
 * rebuilt from the journal at load, as the runner read them before the ledger existed.
 */
import { isJobRunning, type JobView } from '../../../shared/jobs'
import type { Journal, JournalRecord } from '../journal'
import type { ClaimResult, TargetHolder, TargetLease, TargetRef, WriteLedger } from './write-ledger'

/** The runner keeps the last 300 jobs; holds of older ones are not rebuilt (as before the ledger). */
const JOBS_KEPT = 300

export class LocalLedger implements WriteLedger {
  readonly kind = 'local' as const
  /** account / operation / target -> the send that holds it. */
  private readonly holds = new Map<string, { ref: TargetRef; holder: TargetHolder }>()

  constructor(
    private readonly journal: Journal,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get where(): string {
    return this.journal.file
  }

  get unreadableLines(): number {
    return this.journal.unreadableLines
  }

  async load(): Promise<JobView[]> {
    const jobs = await this.journal.load()
    this.holds.clear()
    const since = this.now().toISOString()
    for (const job of jobs.slice(-JOBS_KEPT)) {
      // A send cut off by a quit (still "sending" in a job that never ended) is an unknown outcome.
      const cutOff = isJobRunning(job) || job.status === 'prepared'
      job.items.forEach((it, index) => {
        if (it.state === 'unknown' || (cutOff && it.state === 'sending')) {
          const ref = { accountId: job.accountId, operation: job.operation, target: it.target }
          this.holds.set(keyOf(ref), { ref, holder: { jobId: job.id, index, state: 'unknown', since } })
        }
      })
    }
    return jobs
  }

  keepAside(now: Date): Promise<string> {
    return this.journal.keepAside(now)
  }

  append(record: JournalRecord): Promise<void> {
    return this.journal.append(record)
  }

  compact(jobs: JobView[]): Promise<void> {
    return this.journal.compact(jobs)
  }

  close(): Promise<void> {
    return this.journal.close()
  }

  claim(ref: TargetRef, owner: { jobId: string; index: number }, opts?: { overUnknown?: boolean }): Promise<ClaimResult> {
    const held = this.holds.get(keyOf(ref))
    if (held && (held.holder.state === 'sending' || opts?.overUnknown !== true)) return Promise.resolve({ ok: false, heldBy: { ...held.holder } })
    this.holds.set(keyOf(ref), { ref, holder: { ...owner, state: 'sending', since: this.now().toISOString() } })
    return Promise.resolve({ ok: true, lease: { ref, ...owner, fence: 0 } })
  }

  /** Nothing else takes a local hold away while this process holds it. */
  stillHeld(): Promise<boolean> {
    return Promise.resolve(true)
  }

  release(lease: TargetLease, outcome: 'free' | 'unknown'): Promise<void> {
    if (outcome === 'free') this.holds.delete(keyOf(lease.ref))
    else this.holds.set(keyOf(lease.ref), { ref: lease.ref, holder: { jobId: lease.jobId, index: lease.index, state: 'unknown', since: this.now().toISOString() } })
    return Promise.resolve()
  }

  /** The hold let go at once (in memory), the record journaled: as release, then append (the local history is the observer's). */
  async end(record: JournalRecord, lease: TargetLease, outcome: 'free' | 'unknown', _job: JobView): Promise<void> {
    await this.release(lease, outcome)
    await this.append(record)
  }

  settle(ref: TargetRef): Promise<void> {
    this.holds.delete(keyOf(ref))
    return Promise.resolve()
  }

  holderOf(ref: TargetRef): Promise<TargetHolder | undefined> {
    const held = this.holds.get(keyOf(ref))
    return Promise.resolve(held ? { ...held.holder } : undefined)
  }

  holdersOf(refs: readonly TargetRef[]): Promise<Array<TargetHolder | undefined>> {
    return Promise.all(refs.map((ref) => this.holderOf(ref)))
  }

  unknownTargets(): Promise<Array<{ ref: TargetRef; holder: TargetHolder }>> {
    return Promise.resolve([...this.holds.values()].filter((h) => h.holder.state === 'unknown').map((h) => ({ ref: h.ref, holder: { ...h.holder } })))
  }
}

function keyOf(ref: TargetRef): string {
  return `${ref.accountId}\u0000${ref.operation}\u0000${ref.target}`
}
