/**
 * State of one paged list in a store: the first page on open, every page on demand
 * (with progress and cancel), loading / error state, and a retry that repeats the
 * last read.
 */
import { markRaw, reactive } from 'vue'
import { api, newJobId, type ErrorData, type Result } from '../bridge'
import type { Progress } from '../../../shared/ipc/contract'

export const FIRST_PAGE_SIZE = 100

export interface PagedListState<T> {
  items: T[]
  loading: boolean
  loaded: boolean
  /** Every page was read (or the first page was short). */
  complete: boolean
  error: ErrorData | undefined
  progress: { loaded: number; total?: number | undefined } | undefined
  jobId: string | undefined
}

export function pagedList<T>(
  firstPage: () => Promise<Result<T[]>>,
  allPages: (jobId: string, onProgress: (p: Progress) => void) => Promise<Result<T[]>>,
) {
  const state = reactive<PagedListState<T>>({
    items: [],
    loading: false,
    loaded: false,
    complete: false,
    error: undefined,
    progress: undefined,
    jobId: undefined,
  }) as PagedListState<T>
  let last: 'first' | 'all' = 'first'
  let generation = 0

  async function settle(gen: number, r: Result<T[]>, complete: (items: T[]) => boolean) {
    if (gen !== generation) return // a newer read (or a reset) replaced this one
    state.loading = false
    state.progress = undefined
    state.jobId = undefined
    if (!r.ok) {
      state.error = r.error
      return
    }
    // Lists are replaced whole, never changed in place: no deep proxies, so sorting and
    // filtering 10,000 rows reads plain objects.
    state.items = markRaw(r.value)
    state.loaded = true
    state.complete = complete(r.value)
  }

  return {
    state,
    async loadFirst() {
      last = 'first'
      const gen = ++generation
      state.loading = true
      state.error = undefined
      await settle(gen, await firstPage(), (items) => items.length < FIRST_PAGE_SIZE)
    },
    async loadAll() {
      last = 'all'
      const gen = ++generation
      const jobId = newJobId()
      state.loading = true
      state.error = undefined
      state.jobId = jobId
      state.progress = { loaded: 0 }
      const r = await allPages(jobId, (p) => {
        if (gen === generation) state.progress = { loaded: p.loadedItems, total: p.expectedItems }
      })
      await settle(gen, r, () => true)
    },
    async cancel() {
      if (state.jobId) await api.jobs.cancel({ jobId: state.jobId })
    },
    retry() {
      return last === 'all' ? this.loadAll() : this.loadFirst()
    },
    reset() {
      generation++
      Object.assign(state, { items: [], loading: false, loaded: false, complete: false, error: undefined, progress: undefined, jobId: undefined })
    },
  }
}
