import { ref } from 'vue'
import type { ErrorData, Result } from '../data/bridge'

/**
 * Runs a write at most once at a time: a second click while the first is in flight
 * does nothing, so a double click never sends two requests. Keeps the error for display.
 */
export function useAction<A extends unknown[], T>(fn: (...args: A) => Promise<Result<T>>) {
  const busy = ref(false)
  const error = ref<ErrorData | undefined>()
  async function run(...args: A): Promise<T | undefined> {
    if (busy.value) return undefined
    busy.value = true
    error.value = undefined
    try {
      const r = await fn(...args)
      if (!r.ok) {
        error.value = r.error
        return undefined
      }
      return r.value
    } finally {
      busy.value = false
    }
  }
  return { run, busy, error }
}
