/**
 * A paged list of the service as one read: the first page when a screen opens, every page on
 * demand (with progress and cancel in main), and whether what is shown is the whole list.
 */
import { reactive } from 'vue'
import type { PagedEndpointName, PagedInput, PagedItem } from '@shared/endpoints/table'
import type { AccountApi } from '../../data/account-api'
import { createRead, type Read } from './read'

const FIRST_PAGE_SIZE = 100

export interface ListRead<T> extends Read<T[]> {
  /** Every page was read (or the first page was short). */
  readonly complete: boolean
  /** When what is shown was read, while it comes from the portfolio store (undefined once read afresh). */
  readonly asOf: string | undefined
  loadFirst(): Promise<T[] | undefined>
  loadAll(): Promise<T[] | undefined>
  /** Reads the first page unless the list is read or being read (a failed read is tried again). */
  ensureFirst(): void
  /** Reads every page unless they are read or being read. */
  ensureAll(): void
}

export function createListRead<N extends PagedEndpointName>(
  api: AccountApi,
  name: N,
  params: PagedInput<N>,
  /** After every page was read afresh (main kept it, and noted what changed outside this app). */
  onFullRead?: () => void,
): ListRead<PagedItem<N>> {
  const read = createRead<PagedItem<N>[]>(({ signal }) => api.firstPage(name, params, FIRST_PAGE_SIZE, { signal }))
  const initial: { complete: boolean; mode: 'first' | 'all'; asOf: string | undefined } = {
    complete: false,
    mode: 'first',
    asOf: undefined,
  }
  const extra = reactive(initial)
  /**
   * The list as stored at its last full read, shown at once (instant start); the refresh that
   * follows replaces it, and a refresh that fails leaves it on screen, marked with its time.
   */
  let storeTried = false
  /** The stored list's carriage in parts: stopped by a fresh read, a cancel (the account was left), a reset. */
  let carriage: AbortController | undefined
  /** Every page was asked for while the stored list came: the read afresh after it reads them all. */
  let allAsked = false
  const stopCarriage = () => {
    carriage?.abort()
    carriage = undefined
  }
  const showStored = (list: { items: PagedItem<N>[]; readAt: string; complete: boolean }, whole: boolean) => {
    read.replace(list.items)
    // Until its last part came, what is shown is not the whole list.
    extra.complete = whole && list.complete
    extra.asOf = list.readAt
  }
  /** 'shown': the stored list is on screen; 'none': there is none; 'stopped': its carriage was stopped. */
  const fromStore = async (): Promise<'shown' | 'none' | 'stopped'> => {
    if (storeTried || name === 'logs.list') return 'none'
    storeTried = true
    const own = new AbortController()
    carriage = own
    let superseded = false
    // The first screen paints from the first part; the whole list replaces it once every part came.
    const onFirst = (first: { items: PagedItem<N>[]; readAt: string; complete: boolean }) => {
      // Data that came another way meanwhile (a write's answer) is newer than the stored list.
      superseded = Boolean(read.state.data)
      if (superseded) own.abort()
      else showStored(first, false)
    }
    const r = await api.stored(name, params, { signal: own.signal, onFirst })
    if (carriage === own) carriage = undefined
    if (superseded) return 'none'
    if (own.signal.aborted) return 'stopped'
    if (!r.ok || !r.value) return 'none'
    if (read.state.data && extra.asOf !== r.value.readAt) return 'none'
    showStored(r.value, true)
    return 'shown'
  }
  const loadFirst = async () => {
    stopCarriage()
    extra.mode = 'first'
    const items = await read.load()
    if (items) {
      extra.complete = items.length < FIRST_PAGE_SIZE
      extra.asOf = undefined
    }
    return items
  }
  const loadAll = async () => {
    stopCarriage()
    extra.mode = 'all'
    const items = await read.loadWith(({ signal, onProgress }) => api.listAll(name, params, { signal, onProgress }))
    if (items) {
      extra.complete = true
      extra.asOf = undefined
      onFullRead?.()
    }
    return items
  }
  return {
    state: read.state,
    get complete() {
      return extra.complete
    },
    get asOf() {
      return extra.asOf
    },
    load: loadFirst,
    loadFirst,
    loadAll,
    retry: () => (extra.mode === 'all' ? loadAll() : loadFirst()),
    ensureFirst() {
      // While the stored list comes in parts, the read afresh waits for its end (below).
      if (carriage) return
      if (read.state.status === 'loading' || (read.state.status === 'done' && !extra.asOf)) return
      // Stored first, then afresh: the whole list again when the stored one was whole (or every page was asked).
      void fromStore().then((stored) => {
        if (stored === 'stopped') return
        void (allAsked || (stored === 'shown' && extra.complete) ? loadAll() : loadFirst())
      })
    },
    ensureAll() {
      allAsked = Boolean(carriage)
      if (carriage) return
      if (read.state.status === 'loading' && extra.mode === 'all') return
      if (read.state.status === 'done' && extra.complete && !extra.asOf) return
      void fromStore().then((stored) => {
        if (stored !== 'stopped') void loadAll()
      })
    },
    cancel() {
      stopCarriage()
      read.cancel()
    },
    reset() {
      stopCarriage()
      extra.complete = false
      read.reset()
    },
    replace(data) {
      stopCarriage()
      read.replace(data)
    },
  }
}
