/**
 * The local write ledger: the journal file (journal-file.ts, with its data-lock check and its MAC
 * chain), the per-target holds of this process, in memory, and the record of which sends ended.
 * One process uses a data folder at a time (data-lock.ts; the command line reaches a running app
 * through its door), so what this process knows is all the folder's writes: the journal's, from
 * load, and this process's since.
 *
 * Holds of sends whose outcome is unknown are rebuilt from the journal at load. Ended sends are
 * too, before every mark this process gives (a job prepared now reads the service after them);
 * a send that ends after a job's mark is one that job's confirmation did not see.
 */
import { isJobRunning, type JobView } from '@shared/jobs'
import type { Journal } from './journal-file'
import type { JournalRecord } from './journal-record'
import type * as L from './write-ledger'

/** The runner keeps the last 300 jobs; holds of older ones are not rebuilt (as before the ledger). */
const JOBS_KEPT = 300

/** A send of a target that ended, as this ledger remembers it. */
interface Ended {
  /** Its place among this process's ends (0: read from the journal, before every mark). */
  seq: number
  how: L.SendEnd | 'unsure'
  basis?: string | undefined
  requestId?: string | undefined
  /** ISO time it ended (the journal's: the job's end, where the item has none). */
  at: string
  send: L.EarlierSend
}

export class LocalLedger implements L.WriteLedger {
  readonly kind = 'local' as const
  /** account / operation / target -> the send that holds it. */
  private readonly holds = new Map<string, { ref: L.TargetRef; holder: L.TargetHolder; basis?: string | undefined }>()
  /** account / operation / target -> the sends of it that ended, oldest first. */
  private readonly ended = new Map<string, Ended[]>()
  /** Targets the journal named after the line where it was changed outside the app: nothing said of them is vouched for. */
  private readonly unvouched = new Set<string>()
  private seq = 0

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

  get changedOutside(): { line: number } | undefined {
    return this.journal.changedOutside
  }

  async load(): Promise<JobView[]> {
    const jobs = await this.journal.load()
    this.holds.clear()
    this.ended.clear()
    this.unvouched.clear()
    const since = this.now().toISOString()
    for (const job of jobs.slice(-JOBS_KEPT)) {
      // A send cut off by a quit (still "sending" in a job that never ended) is an unknown outcome.
      const cutOff = isJobRunning(job) || job.status === 'prepared'
      job.items.forEach((it, index) => {
        const ref = { accountId: job.accountId, operation: job.operation, target: it.target }
        if (this.journal.unvouchedJobs.has(job.id)) this.unvouched.add(keyOf(ref))
        if (it.state === 'unknown' || (cutOff && it.state === 'sending')) {
          this.holds.set(keyOf(ref), { ref, holder: { jobId: job.id, index, state: 'unknown', since } })
        }
        if (it.state === 'done' || it.state === 'failed') {
          const at = it.log?.checkedAt ?? job.endedAt ?? job.startedAt ?? job.createdAt
          this.remember(ref, {
            seq: 0,
            how: it.state,
            basis: it.basis,
            requestId: it.requestId,
            at,
            send: { jobId: job.id, index, at, fromCommandLine: job.purpose === 'cli' },
          })
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

  claim(
    ref: L.TargetRef,
    owner: { jobId: string; index: number },
    opts?: { overUnknown?: boolean; precondition?: L.SendPrecondition | undefined },
  ): Promise<L.ClaimResult> {
    const held = this.holds.get(keyOf(ref))
    if (held && (held.holder.state === 'sending' || opts?.overUnknown !== true))
      return Promise.resolve({ ok: false, heldBy: { ...held.holder } })
    // Sent again over an unknown outcome: whether the earlier one was done, nobody can tell.
    if (held) this.remember(ref, this.endOf(held, 'unsure'))
    this.holds.set(keyOf(ref), {
      ref,
      holder: { ...owner, state: 'sending', since: this.now().toISOString() },
      basis: opts?.precondition?.basis,
    })
    return Promise.resolve({ ok: true, lease: { ref, ...owner, fence: 0 } })
  }

  precondition(lease: L.TargetLease, p: L.SendPrecondition): Promise<L.PreconditionVerdict> {
    return Promise.resolve(this.verdict(lease, p))
  }

  private verdict(lease: L.TargetLease, p: L.SendPrecondition): L.PreconditionVerdict {
    if (p.since === undefined) return { holds: false, unsure: 'noMark' }
    const since = Number(p.since)
    const others = (this.ended.get(keyOf(lease.ref)) ?? []).filter(
      (e) => e.send.jobId !== lease.jobId || e.send.index !== lease.index,
    )
    const moved = others
      .filter((e) => e.how === 'done' && (e.seq > since || (p.basis !== undefined && e.basis === p.basis)))
      .at(-1)
    if (moved) return { holds: false, moved: { ...moved.send } }
    if (others.some((e) => e.how === 'unsure' && e.seq > since)) return { holds: false, unsure: 'unsettled' }
    if (this.unvouched.has(keyOf(lease.ref))) return { holds: false, unsure: 'journalChanged' }
    return { holds: true }
  }

  /** Nothing else takes a local hold away, and nothing else ends a send of its target, while this process holds it. */
  async beginSend(record: JournalRecord, lease: L.TargetLease, p: L.SendPrecondition): Promise<L.BeginSend> {
    const v = this.verdict(lease, p)
    if (!v.holds && 'moved' in v) return { ok: false, moved: v.moved }
    await this.append(record)
    return { ok: true }
  }

  stillHeld(): Promise<boolean> {
    return Promise.resolve(true)
  }

  release(lease: L.TargetLease, outcome: 'free' | 'unknown'): Promise<void> {
    const key = keyOf(lease.ref)
    const basis = this.holds.get(key)?.basis
    if (outcome === 'free') this.holds.delete(key)
    else
      this.holds.set(key, {
        ref: lease.ref,
        holder: { jobId: lease.jobId, index: lease.index, state: 'unknown', since: this.now().toISOString() },
        basis,
      })
    return Promise.resolve()
  }

  /** The hold let go at once (in memory), the end remembered, the record journaled (the local history is the observer's). */
  async end(record: JournalRecord, lease: L.TargetLease, outcome: 'free' | 'unknown', job: JobView): Promise<void> {
    const held = this.holds.get(keyOf(lease.ref))
    await this.release(lease, outcome)
    if (record.t === 'item' && (record.state === 'done' || record.state === 'failed')) {
      const at = this.now().toISOString()
      this.remember(lease.ref, {
        seq: ++this.seq,
        how: record.state,
        basis: held?.basis,
        requestId: record.requestId,
        at,
        send: { jobId: lease.jobId, index: lease.index, at, fromCommandLine: job.purpose === 'cli' },
      })
    }
    await this.append(record)
  }

  settle(ref: L.TargetRef, evidence?: L.SettleEvidence): Promise<void> {
    const held = this.holds.get(keyOf(ref))
    this.holds.delete(keyOf(ref))
    if (held && evidence) this.remember(ref, { ...this.endOf(held, evidence.how), requestId: evidence.requestId })
    return Promise.resolve()
  }

  private endOf(held: { holder: L.TargetHolder; basis?: string | undefined }, how: L.SendEnd | 'unsure'): Ended {
    const at = this.now().toISOString()
    return {
      seq: ++this.seq,
      how,
      basis: held.basis,
      at,
      send: { jobId: held.holder.jobId, index: held.holder.index, at },
    }
  }

  private remember(ref: L.TargetRef, e: Ended): void {
    const key = keyOf(ref)
    const list = this.ended.get(key)
    if (list) list.push(e)
    else this.ended.set(key, [e])
  }

  holderOf(ref: L.TargetRef): Promise<L.TargetHolder | undefined> {
    const held = this.holds.get(keyOf(ref))
    return Promise.resolve(held ? { ...held.holder } : undefined)
  }

  holdersOf(refs: readonly L.TargetRef[]): Promise<Array<L.TargetHolder | undefined>> {
    return Promise.all(refs.map((ref) => this.holderOf(ref)))
  }

  unknownTargets(): Promise<Array<{ ref: L.TargetRef; holder: L.TargetHolder }>> {
    return Promise.resolve(
      [...this.holds.values()]
        .filter((h) => h.holder.state === 'unknown')
        .map((h) => ({ ref: h.ref, holder: { ...h.holder } })),
    )
  }

  mark(): Promise<L.LedgerMark> {
    return Promise.resolve(String(this.seq))
  }

  otherSends(
    ref: L.TargetRef,
    owner: { jobId: string; index: number },
    sinceIso: string,
  ): Promise<{ requestIds: string[]; withoutId: number }> {
    const others = (this.ended.get(keyOf(ref)) ?? []).filter(
      (e) => (e.send.jobId !== owner.jobId || e.send.index !== owner.index) && e.at >= sinceIso,
    )
    const held = this.holds.get(keyOf(ref))
    const heldByOther =
      held !== undefined && (held.holder.jobId !== owner.jobId || held.holder.index !== owner.index) ? 1 : 0
    return Promise.resolve({
      requestIds: others.flatMap((e) => e.requestId ?? []),
      withoutId: others.filter((e) => e.requestId === undefined).length + heldByOther,
    })
  }
}

function keyOf(ref: L.TargetRef): string {
  return `${ref.accountId}\u0000${ref.operation}\u0000${ref.target}`
}
