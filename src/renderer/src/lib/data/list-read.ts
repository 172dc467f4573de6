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

/** What a list read knows besides its rows: whether they are the whole list, and when a stored copy was read. */
interface ListReadMarks {
  complete: boolean
  asOf: string | undefined
}
type OwnSteps<T> = Pick<ListRead<T>, 'load' | 'loadFirst' | 'loadAll' | 'retry' | 'ensureFirst' | 'ensureAll'>

/**
 * What every list read does the same whatever it reads (a paged list, the WHOIS privacy flags): it shows a
 * stored copy with its time, marks a fresh read in full as whole, and answers as a ListRead around its own
 * steps for reading.
 */
export function listReadParts<T>(read: Read<T[]>, onFullRead: (() => void) | undefined) {
  const initial: ListReadMarks = { complete: false, asOf: undefined }
  const marks = reactive(initial)
  return {
    marks,
    showStored(stored: { items: T[]; complete: boolean; readAt?: string | null }) {
      read.replace(stored.items)
      marks.complete = stored.complete
      marks.asOf = stored.readAt ?? undefined
    },
    /** After a fresh read of every row (main kept it, and noted what changed outside this app). */
    readWhole(items: T[] | undefined) {
      if (items) {
        marks.complete = true
        marks.asOf = undefined
        onFullRead?.()
      }
      return items
    },
    listRead(own: OwnSteps<T>): ListRead<T> {
      return {
        state: read.state,
        get complete() {
          return marks.complete
        },
        get asOf() {
          return marks.asOf
        },
        ...own,
        cancel: read.cancel,
        reset() {
          marks.complete = false
          read.reset()
        },
        replace: read.replace,
      }
    },
  }
}

export function createListRead<N extends PagedEndpointName>(
  api: AccountApi,
  name: N,
  params: PagedInput<N>,
  /** After every page was read afresh (main kept it, and noted what changed outside this app). */
  onFullRead?: () => void,
): ListRead<PagedItem<N>> {
  const read = createRead<PagedItem<N>[]>(({ signal }) => api.firstPage(name, params, FIRST_PAGE_SIZE, { signal }))
  const { marks, showStored, readWhole, listRead } = listReadParts(read, onFullRead)
  // Which read a retry repeats: the first page, or every page.
  let mode: 'first' | 'all' = 'first'
  /**
   * The list as stored at its last full read, shown at once (instant start); the refresh that
   * follows replaces it, and a refresh that fails leaves it on screen, marked with its time.
   */
  let storeTried = false
  const fromStore = async (): Promise<boolean> => {
    if (storeTried || name === 'logs.list') return false
    storeTried = true
    const r = await api.stored(name, params)
    if (!r.ok || !r.value || read.state.data) return false
    showStored(r.value)
    return true
  }
  const loadFirst = async () => {
    mode = 'first'
    const items = await read.load()
    if (items) {
      marks.complete = items.length < FIRST_PAGE_SIZE
      marks.asOf = undefined
    }
    return items
  }
  const loadAll = async () => {
    mode = 'all'
    return readWhole(await read.loadWith(({ signal, onProgress }) => api.listAll(name, params, { signal, onProgress })))
  }
  return listRead({
    load: loadFirst,
    loadFirst,
    loadAll,
    retry: () => (mode === 'all' ? loadAll() : loadFirst()),
    ensureFirst() {
      if (read.state.status === 'loading' || (read.state.status === 'done' && !marks.asOf)) return
      // Stored first, then afresh: the whole list again when the stored one was whole.
      void fromStore().then((shown) => (shown && marks.complete ? loadAll() : loadFirst()))
    },
    ensureAll() {
      if (read.state.status === 'loading' && mode === 'all') return
      if (read.state.status === 'done' && marks.complete && !marks.asOf) return
      void fromStore().then(() => loadAll())
    },
  })
}
