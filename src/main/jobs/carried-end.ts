/**
 * A worker's last send's end, carried to its next item's journal step (send-item.ts SendTrail) on
 * a ledger that writes the two in one step (WriteLedger.endThenBeginSend: in team mode one round
 * trip and one durable commit, where apart the end's commit and then the journal step's are
 * waited for in turn). The end is written with that step, or alone when none takes it within
 * CARRY_MS or the worker stops; `written` says how it went, as the end's own write would. The
 * rules stay the end's: nothing leaves before it is written (the next send waits for the step
 * that writes both), and its hold is kept (renewed) until then.
 */
import type { JobView } from '@shared/jobs'
import type { JournalRecord } from './ledger/journal-record'
import type { EndStep, TargetLease, WriteLedger } from './ledger/write-ledger'

/** How long an end waits for its worker's next journal step (a claim and a history step away) before it is written alone. */
const CARRY_MS = 50

export class CarriedEnd {
  private step: EndStep | undefined
  private state: 'waiting' | 'taken' | 'alone' = 'waiting'
  private aloneAsked = false
  private timer: NodeJS.Timeout | undefined
  private done: (failure?: { err: unknown }) => void = () => undefined
  /** Settles when the end is written (rejects when it could not be). */
  readonly written: Promise<void>

  constructor(
    private readonly ledger: WriteLedger,
    private readonly lease: TargetLease,
    private readonly job: JobView,
    private readonly carryMs: number = CARRY_MS,
  ) {
    this.written = new Promise<void>((resolve, reject) => {
      this.done = (failure) => (failure ? reject(failure.err) : resolve())
    })
  }

  /** The end's record, as the runner hands it over to be journaled (LetGo.journal). */
  journal(record: JournalRecord): Promise<void> {
    this.step = { record, lease: this.lease, job: this.job }
    if (this.aloneAsked) this.alone()
    else this.timer = setTimeout(() => this.alone(), this.carryMs)
    return this.written
  }

  /** The end, for the next journal step to write (which then says how it went: taken()); undefined when it is written alone. */
  take(): EndStep | undefined {
    if (this.state !== 'waiting' || !this.step) return undefined
    this.state = 'taken'
    clearTimeout(this.timer)
    return this.step
  }

  /** Not taken after all (its step did not run): written alone. */
  putBack(): void {
    if (this.state !== 'taken') return
    this.state = 'waiting'
    this.alone()
  }

  /** How the step that took it went: without a failure, written. */
  taken(failure?: { err: unknown }): void {
    this.done(failure)
  }

  /** Written alone now (no journal step of the worker takes it). */
  alone(): void {
    if (this.state !== 'waiting') return
    if (!this.step) {
      this.aloneAsked = true
      return
    }
    this.state = 'alone'
    clearTimeout(this.timer)
    const s = this.step
    this.ledger.end(s.record, s.lease, 'free', s.job).then(
      () => this.done(),
      (err: unknown) => this.done({ err }),
    )
  }
}
