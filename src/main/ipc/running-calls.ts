/**
 * Calls the renderer may cancel, by the job id it gave them. Starting a call with an id
 * that is already running cancels the older one: a list read again replaces the read before.
 */
export class RunningCalls {
  private readonly running = new Map<string, AbortController>()

  get size(): number {
    return this.running.size
  }

  async run<T>(jobId: string | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController()
    if (jobId) {
      this.running.get(jobId)?.abort()
      this.running.set(jobId, controller)
    }
    try {
      return await work(controller.signal)
    } finally {
      if (jobId && this.running.get(jobId) === controller) this.running.delete(jobId)
    }
  }

  cancel(jobId: string): void {
    this.running.get(jobId)?.abort()
  }
}
