/**
 * Write jobs change in main; the windows that asked (`jobs.watch`) hear about it. Changes of one
 * job are sent at most every 100 ms (a bulk job of a thousand items changes thousands of times),
 * and at once when it ends.
 */
import { isJobRunning, type JobView } from '@shared/jobs'
import type { Sender } from './channel'

const EVERY_MS = 100

export class JobEvents {
  private readonly watchers = new Map<string, Sender>()
  private readonly waiting = new Map<string, NodeJS.Timeout>()

  watch(sender: Sender): void {
    this.watchers.set(sender.key, sender)
  }

  changed(job: JobView): void {
    if (!isJobRunning(job)) {
      clearTimeout(this.waiting.get(job.id))
      this.waiting.delete(job.id)
      this.send(job)
      return
    }
    if (this.waiting.has(job.id)) return
    this.waiting.set(
      job.id,
      setTimeout(() => {
        this.waiting.delete(job.id)
        this.send(job)
      }, EVERY_MS),
    )
  }

  private send(job: JobView): void {
    for (const [key, w] of this.watchers) {
      if (!w.sendJob(job)) this.watchers.delete(key)
    }
  }

  close(): void {
    for (const t of this.waiting.values()) clearTimeout(t)
    this.waiting.clear()
  }
}
