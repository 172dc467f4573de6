/**
 * A paged list of the service as one read: the first page when a screen opens, every page on
 * demand (with progress and cancel in main), and whether what is shown is the whole list.
 */
import { reactive } from 'vue'
import type { PagedEndpointName, PagedInput, PagedItem } from '@shared/endpoints/table'
import type { AccountApi } from '../../data/account-api'
import { createRead, type Read } from './read'
import { whenIdleAfterPaint } from '../after-next-paint'

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
  /**
   * Resolves once the stored list's parts have stopped coming (the last came, or the carriage was
   * stopped); at once when none are coming.
   */
  carried(): Promise<void>
}

/** What a list read knows besides its rows: whether they are the whole list, and when a stored copy was read. */
interface ListReadMarks {
  complete: boolean
  asOf: string | undefined
}
type OwnSteps<T> = Pick<ListRead<T>, 'load' | 'loadFirst' | 'loadAll' | 'retry' | 'ensureFirst' | 'ensureAll'> &
  Partial<Pick<ListRead<T>, 'carried'>>

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
    /** `stop` ends any work of the read's own (a stored list still coming) before a cancel, reset or replace. */
    listRead(own: OwnSteps<T>, stop: () => void = () => {}): ListRead<T> {
      return {
        state: read.state,
        get complete() {
          return marks.complete
        },
        get asOf() {
          return marks.asOf
        },
        // A read whose stored copy comes whole: nothing to wait for.
        carried: () => Promise.resolve(),
        ...own,
        cancel() {
          stop()
          read.cancel()
        },
        reset() {
          stop()
          marks.complete = false
          read.reset()
        },
        replace(data) {
          stop()
          read.replace(data)
        },
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
  /** The stored list's carriage in parts: stopped by a fresh read, a cancel (the account was left), a reset. */
  let carriage: AbortController | undefined
  /** Every page was asked for while the stored list came: the read afresh after it reads them all. */
  let allAsked = false
  const stopCarriage = () => {
    carriage?.abort()
    carriage = undefined
  }
  /** The stored list's carriage ended (whatever its outcome): what `carried` waits for. */
  let carriageEnd: Promise<unknown> = Promise.resolve()
  /** 'shown': the stored list is on screen; 'none': there is none; 'stopped': its carriage was stopped. */
  const fromStore = (): Promise<'shown' | 'none' | 'stopped'> => {
    if (storeTried || name === 'logs.list') return Promise.resolve('none')
    storeTried = true
    const carried = carryStored()
    carriageEnd = carried.catch(() => undefined)
    return carried
  }
  const carryStored = async (): Promise<'shown' | 'none' | 'stopped'> => {
    const own = new AbortController()
    carriage = own
    let superseded = false
    // The first screen paints from the first part; the whole list replaces it once every part came.
    const onFirst = (first: { items: PagedItem<N>[]; readAt: string; complete: boolean }) => {
      // Data that came another way meanwhile (a write's answer) is newer than the stored list.
      superseded = Boolean(read.state.data)
      if (superseded) own.abort()
      // Until its last part came, what is shown is not the whole list.
      else showStored({ ...first, complete: false })
    }
    // The next part is asked for once the first part's rows are painted and the window is idle: its carriage does
    // not hold that frame. Asked right after the frame's task (afterNextPaint), the ask ran ahead of the frame's
    // other work (the list's own "painted" moment came after it), and main and the store's worker cut and sent
    // the part while that frame was still being drawn, on a machine of two cores.
    const r = await api.stored(name, params, { signal: own.signal, onFirst, afterFirst: whenIdleAfterPaint })
    if (carriage === own) carriage = undefined
    if (superseded) return 'none'
    if (own.signal.aborted) return 'stopped'
    if (!r.ok || !r.value) return 'none'
    if (read.state.data && marks.asOf !== r.value.readAt) return 'none'
    showStored(r.value)
    return 'shown'
  }
  const loadFirst = async () => {
    stopCarriage()
    mode = 'first'
    const items = await read.load()
    if (items) {
      marks.complete = items.length < FIRST_PAGE_SIZE
      marks.asOf = undefined
    }
    return items
  }
  const loadAll = async () => {
    stopCarriage()
    mode = 'all'
    return readWhole(await read.loadWith(({ signal, onProgress }) => api.listAll(name, params, { signal, onProgress })))
  }
  return listRead(
    {
      load: loadFirst,
      loadFirst,
      loadAll,
      retry: () => (mode === 'all' ? loadAll() : loadFirst()),
      ensureFirst() {
        // While the stored list comes in parts, the read afresh waits for its end (below).
        if (carriage) return
        if (read.state.status === 'loading' || (read.state.status === 'done' && !marks.asOf)) return
        // Stored first, then afresh: the whole list again when the stored one was whole (or every page was asked).
        void fromStore().then((stored) => {
          if (stored === 'stopped') return
          void (allAsked || (stored === 'shown' && marks.complete) ? loadAll() : loadFirst())
        })
      },
      carried: () => carriageEnd.then(() => undefined),
      ensureAll() {
        allAsked = Boolean(carriage)
        if (carriage) return
        if (read.state.status === 'loading' && mode === 'all') return
        if (read.state.status === 'done' && marks.complete && !marks.asOf) return
        void fromStore().then((stored) => {
          if (stored !== 'stopped') void loadAll()
        })
      },
    },
    stopCarriage,
  )
}
