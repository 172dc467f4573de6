/**
 * Calls the renderer may cancel, by the job id it gave them. Starting a call with an id
 * that is already running cancels the older one: a list read again replaces the read before.
 */
export class RunningCalls {
  private readonly running = new Map<string, AbortController>()

  get size(): number {
    return this.running.size
  }

  async run<T>(callId: string | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController()
    if (callId) {
      this.running.get(callId)?.abort()
      this.running.set(callId, controller)
    }
    try {
      return await work(controller.signal)
    } finally {
      if (callId && this.running.get(callId) === controller) this.running.delete(callId)
    }
  }

  cancel(callId: string): void {
    this.running.get(callId)?.abort()
  }
}
