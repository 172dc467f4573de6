/**
 * Bulk work over many items: a bounded number of requests at a time, progress, and a
 * result per item (done, or failed with message and request ID). Nothing is retried here;
 * the API client never retries a write either.
 */
import { reactive } from 'vue'
import type { ErrorData, Result } from '../bridge'

export type BulkResult = { item: string; ok: true; message: string } | { item: string; ok: false; error: ErrorData }

export function bulkRunner() {
  const state = reactive({ running: false, done: 0, total: 0, results: [] as BulkResult[], cancelled: false })

  async function run<T>(items: string[], op: (item: string) => Promise<Result<T>>, describe: (value: T) => string, concurrency = 3) {
    if (state.running) return
    Object.assign(state, { running: true, done: 0, total: items.length, results: [], cancelled: false })
    const results: BulkResult[] = new Array(items.length)
    let next = 0
    const worker = async () => {
      while (next < items.length && !state.cancelled) {
        const i = next++
        const item = items[i] as string
        const r = await op(item)
        results[i] = r.ok ? { item, ok: true, message: describe(r.value) } : { item, ok: false, error: r.error }
        state.done++
      }
    }
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
    } finally {
      state.results = results.filter(Boolean)
      state.running = false
    }
  }

  return {
    state,
    run,
    /** Stops starting new items; those in flight finish and are reported. */
    stop() {
      state.cancelled = true
    },
  }
}
