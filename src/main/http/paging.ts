/**
 * Reading every page of a paged list.
 *
 * The spec does not say what `paging.max` means. We read it as the total item
 * count, which gives the number of pages to fetch concurrently after page 1. If
 * that reading is wrong (max is a page count, or an upper bound), the last page
 * we expected comes back full: then we keep reading further pages, a batch at a
 * time, until one comes back short. So no item is lost under either reading.
 *
 * A service that never ends the list is bounded: a page that repeats one already read (a
 * service that ignores `page`) ends it, as does `maxPages`; and an item that a later page repeats
 * (a list that shifted while it was read) is kept once.
 */
import { AppError } from '../app/app-error'
import type { Envelope } from './envelope'

export interface ListAllProgress {
  loadedItems: number
  loadedPages: number
  /** The item total we expect from paging.max; may grow if max was not a total. */
  expectedItems: number | undefined
}

export interface ListAllOptions {
  signal?: AbortSignal
  /** Pages in flight at once. */
  concurrency?: number
  /** Items asked for per page. */
  pageSize?: number
  /** A hard stop for a service that never sends a short page. */
  maxPages?: number
  onProgress?: (p: ListAllProgress) => void
}

const DEFAULT_PAGE_SIZE = 100
export const DEFAULT_CONCURRENCY = 4

type FetchPage = (page: number, limit: number, signal: AbortSignal) => Promise<Envelope<unknown>>

export async function listAllPages(fetchPage: FetchPage, opts: ListAllOptions = {}): Promise<unknown[]> {
  const concurrency = Math.max(1, Math.min(16, opts.concurrency ?? DEFAULT_CONCURRENCY))
  const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE
  const maxPages = opts.maxPages ?? 10_000

  // One controller for the whole listing: the caller's cancel or the first failure stops every page.
  const controller = new AbortController()
  const onCallerAbort = () => controller.abort(AppError.of('cancelled'))
  if (opts.signal?.aborted) onCallerAbort()
  opts.signal?.addEventListener('abort', onCallerAbort, { once: true })

  const pages: unknown[][] = []
  /** The first page that came back short: the list ends there, so no page after it is started. */
  let endPage = Infinity
  /** Each full page's text: a page that repeats one already read ends the list. */
  const seenPages = new Map<string, number>()
  let loadedItems = 0
  let expectedItems: number | undefined
  const report = () => opts.onProgress?.({ loadedItems, loadedPages: pages.filter(Boolean).length, expectedItems })

  const load = async (page: number, limit: number): Promise<unknown[]> => {
    const env = await fetchPage(page, limit, controller.signal)
    if (!Array.isArray(env.results)) {
      throw AppError.of('malformed-response', { code: 'http.notAList', params: { page }, requestId: env.requestId })
    }
    const results: unknown[] = env.results
    const text = JSON.stringify(results)
    const repeats = results.length > 0 && seenPages.has(text) && seenPages.get(text) !== page
    if (repeats) {
      // The service answered an earlier page again: the list has ended before this page.
      endPage = Math.min(endPage, page - 1)
      return []
    }
    seenPages.set(text, page)
    pages[page - 1] = results
    if (results.length < limit) endPage = Math.min(endPage, page)
    loadedItems += results.length
    report()
    return results
  }

  /** Fetches pages from..to (inclusive) with at most `concurrency` in flight. */
  const loadRange = async (from: number, to: number, limit: number) => {
    let next = from
    const worker = async () => {
      while (next <= to && next <= endPage && !controller.signal.aborted) {
        const page = next++
        await load(page, limit)
      }
    }
    const workers = Array.from({ length: Math.min(concurrency, to - from + 1) }, worker)
    try {
      await Promise.all(workers)
    } catch (err) {
      controller.abort(err)
      throw err
    }
    if (controller.signal.aborted) throw abortReason(controller.signal)
  }

  try {
    const first = await fetchPage(1, pageSize, controller.signal)
    if (!Array.isArray(first.results)) {
      throw AppError.of('malformed-response', { code: 'http.notAList', params: { page: 1 }, requestId: first.requestId })
    }
    pages[0] = first.results
    seenPages.set(JSON.stringify(first.results), 1)
    loadedItems = first.results.length
    // The service may cap the page size below what we asked for; its own limit is what counts.
    const limit = first.paging && first.paging.limit > 0 ? Math.min(first.paging.limit, pageSize) : pageSize
    expectedItems = first.paging ? Math.max(first.paging.max, loadedItems) : undefined
    report()
    const firstResults: unknown[] = first.results
    if (firstResults.length < limit || firstResults.length === 0) return firstResults

    let lastLoaded = 1
    const expectedPages = Math.min(maxPages, expectedItems !== undefined ? Math.ceil(expectedItems / limit) : 1)
    // When max fills its last page exactly, that page will come back full, and only the page
    // after it can tell whether max was the total. Ask for that one page in the same run, not
    // in a round of its own afterwards.
    const probe = expectedItems !== undefined && expectedItems % limit === 0 && expectedPages < maxPages ? 1 : 0
    if (expectedPages + probe > 1) {
      await loadRange(2, expectedPages + probe, limit)
      lastLoaded = Math.min(expectedPages + probe, endPage)
    }
    // Past what max promised: keep going, a batch at a time, while the last page is full.
    while (endPage === Infinity && lastLoaded < maxPages) {
      const to = Math.min(maxPages, lastLoaded + concurrency)
      expectedItems = Math.max(expectedItems ?? 0, to * limit)
      await loadRange(lastLoaded + 1, to, limit)
      lastLoaded = Math.min(to, endPage)
    }
    // A short (or empty) page ends the list; a page after it (fetched in the same batch) belongs to no one.
    pages.length = Math.min(pages.length, lastLoaded)
    return onceEach(pages.flat())
  } finally {
    opts.signal?.removeEventListener('abort', onCallerAbort)
  }
}

/** The items in order, an item a later page repeated (the same text) kept once. */
function onceEach(items: unknown[]): unknown[] {
  const seen = new Set<string>()
  return items.filter((it) => {
    const text = JSON.stringify(it)
    if (seen.has(text)) return false
    seen.add(text)
    return true
  })
}

function abortReason(signal: AbortSignal): AppError {
  const reason: unknown = signal.reason
  return reason instanceof AppError ? reason : AppError.of('cancelled')
}
