/**
 * The one state machine of every read in the renderer: idle -> loading (with progress, and
 * "slow" after a while) -> done or error; cancel; retry. A newer load replaces an older one,
 * whose answer is then ignored. Lifecycle-free, so stores can hold one; views use useRead,
 * which also cancels when the view goes away.
 */
import { markRaw, reactive } from 'vue'
import type { ErrorData, Progress, Result } from '../../data/bridge'

export type ReadStatus = 'idle' | 'loading' | 'done' | 'error'

export interface ReadState<T> {
  status: ReadStatus
  /** The last data read; kept while a refresh loads or fails. */
  data: T | undefined
  error: ErrorData | undefined
  progress: { loaded: number; total?: number | undefined } | undefined
  /** Loading has taken longer than the slow threshold. */
  slow: boolean
}

export interface LoadContext {
  signal: AbortSignal
  onProgress: (p: Progress) => void
}

export type Loader<T> = (ctx: LoadContext) => Promise<Result<T>>

export interface Read<T> {
  readonly state: ReadState<T>
  /** Loads (again); resolves to the data, or undefined on error or when replaced. */
  load(): Promise<T | undefined>
  /** Loads with the loader of the last load (or the default one). */
  retry(): Promise<T | undefined>
  /** Stops the load in flight (in main too). */
  cancel(): void
  /** Back to idle, forgetting the data. */
  reset(): void
  /** Shows data the app got another way (the answer of a write), as if it had been read. */
  replace(data: T): void
}

const SLOW_AFTER_MS = 3000

export function createRead<T>(
  loader: Loader<T>,
  opts: { slowAfterMs?: number } = {},
): Read<T> & { loadWith(l: Loader<T>): Promise<T | undefined> } {
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- reactive() types its object as refs unwrapped, which for an open T the compiler cannot equate with T
  const state = reactive({
    status: 'idle',
    data: undefined,
    error: undefined,
    progress: undefined,
    slow: false,
  }) as ReadState<T>
  let generation = 0
  let controller: AbortController | undefined
  let last = loader

  async function loadWith(l: Loader<T>): Promise<T | undefined> {
    last = l
    const gen = ++generation
    controller?.abort()
    const own = new AbortController()
    controller = own
    state.status = 'loading'
    state.error = undefined
    state.progress = undefined
    state.slow = false
    const slowTimer = setTimeout(() => {
      if (gen === generation) state.slow = true
    }, opts.slowAfterMs ?? SLOW_AFTER_MS)
    const onProgress = (p: Progress) => {
      if (gen === generation) state.progress = { loaded: p.loadedItems, total: p.expectedItems }
    }
    let r: Result<T>
    try {
      r = await l({ signal: own.signal, onProgress })
    } finally {
      clearTimeout(slowTimer)
    }
    if (gen !== generation) return undefined
    controller = undefined
    state.progress = undefined
    state.slow = false
    if (!r.ok) {
      state.status = 'error'
      state.error = r.error
      return undefined
    }
    // Data is replaced whole, never changed in place: no deep proxies, so sorting and
    // filtering 10,000 rows reads plain objects.
    state.data = typeof r.value === 'object' && r.value !== null ? markRaw(r.value) : r.value
    state.status = 'done'
    return r.value
  }

  return {
    state,
    load: () => loadWith(loader),
    loadWith,
    retry: () => loadWith(last),
    cancel() {
      controller?.abort()
    },
    reset() {
      generation++
      controller?.abort()
      controller = undefined
      Object.assign(state, { status: 'idle', data: undefined, error: undefined, progress: undefined, slow: false })
    },
    replace(data: T) {
      generation++
      controller?.abort()
      controller = undefined
      state.data = typeof data === 'object' && data !== null ? markRaw(data) : data
      Object.assign(state, { status: 'done', error: undefined, progress: undefined, slow: false })
    },
  }
}

/** Several reads as one: all their values, or the first error. */
export async function allOk<T extends readonly unknown[]>(reads: { [K in keyof T]: Promise<Result<T[K]>> }): Promise<
  Result<T>
> {
  const results: Result<unknown>[] = await Promise.all(reads)
  const failed = results.find((r) => !r.ok)
  if (failed && !failed.ok) return failed
  // Every result is ok here, in the order of the reads, so the values have the types T names.
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- a mapped tuple type is not built from an array by any checked operation
  return { ok: true, value: results.map((r) => (r.ok ? r.value : undefined)) as unknown as T }
}
