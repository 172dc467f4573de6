/**
 * How long a job waited out the service's rate limit: each block counted once however many of its
 * workers wait in it, and the wait's expected end while it lasts (the window says "waiting for the
 * service's rate limit"). Kept on the job's view, not in the journal.
 */
import type { JobView } from '@shared/jobs'

export class RateLimitWaits {
  /** Per job: when the current wait began (ms since the epoch). */
  private readonly since = new Map<string, number>()

  constructor(private readonly now: () => Date) {}

  /** A worker of the job waits out a block for about `waitMs`. */
  waiting(job: JobView, waitMs: number): void {
    const now = this.now().getTime()
    const waits = (job.rateLimit ??= { waits: 0, waitedMs: 0 })
    if (!this.since.has(job.id)) {
      waits.waits++
      this.since.set(job.id, now)
    }
    waits.waitingUntil = new Date(now + waitMs).toISOString()
  }

  /** An answer came (or the job ended): the wait, if one was under way, is over. */
  over(job: JobView): void {
    const from = this.since.get(job.id)
    if (from === undefined || !job.rateLimit) return
    job.rateLimit.waitedMs += Math.max(0, this.now().getTime() - from)
    job.rateLimit.waitingUntil = undefined
    this.since.delete(job.id)
  }
}
