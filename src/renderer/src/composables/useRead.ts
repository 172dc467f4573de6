import { ref, type Ref } from 'vue'
import type { ErrorData, Result } from '../bridge'

/** One read with loading and error state, and a load() that doubles as retry. */
export function useRead<T>(fn: () => Promise<Result<T>>) {
  const data = ref<T>() as Ref<T | undefined>
  const error = ref<ErrorData>()
  const loading = ref(false)
  async function load(): Promise<T | undefined> {
    loading.value = true
    error.value = undefined
    const r = await fn()
    loading.value = false
    if (!r.ok) {
      error.value = r.error
      return undefined
    }
    data.value = r.value
    return r.value
  }
  return { data, error, loading, load }
}
