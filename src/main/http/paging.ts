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
 * service that ignores `page`), or whose items' ids were all read already (the same items in
 * other words), ends it; a list that goes on past the most pages the first page's `paging.max`
 * allows under either reading is refused, as is one that the overall deadline cuts short. No
 * claim can raise what is read past two bounds of the app's own (a hostile `max` of 10^9 read
 * 2,290 pages, 163 MB, in 20 s): a list of more than MAX_LIST_ITEMS items is refused, at its
 * first page when `max` claims it, and a list whose answers come to more than MAX_LIST_BYTES as
 * received is refused when they do. A refused list is never kept in part. An item that a later page repeats (a list that shifted while it was read) is
 * kept once.
 */
import { AppError } from '../base/app-error'
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
  /** The most items a list may have (MAX_LIST_ITEMS): more is refused, never kept in part. */
  maxItems?: number
  /** The most bytes a list's answers may come to, as received (MAX_LIST_BYTES): more is refused. */
  maxBytes?: number
  /** How long the whole listing may take, every page and retry included. */
  deadlineMs?: number
  onProgress?: (p: ListAllProgress) => void
}

const DEFAULT_PAGE_SIZE = 100
/**
 * The most items a list may have: two and a half times the largest real account (a reseller's
 * 100,000 domains). Whatever `paging.max` claims, no more pages than these items fill are read;
 * so a hostile claim costs at most what reading such a list does (2,501 pages of small items in
 * about 9 s over loopback), where a higher bound would cost more for no real account.
 */
export const MAX_LIST_ITEMS = 250_000
/**
 * The most bytes a list's answers may come to, as received: 100,000 domains' WHOIS data (about
 * 1 KB each, contacts included) is well under it; it bounds what larger items, or answers padded
 * beside their results, can make the app read and hold within the bound on items.
 */
export const MAX_LIST_BYTES = 256 * 1024 * 1024
/** A whole listing's time: generous for the largest real account (10,000 domains are 100 pages). */
const LIST_DEADLINE_MS = 5 * 60_000
export const DEFAULT_CONCURRENCY = 4

type FetchPage = (page: number, limit: number, signal: AbortSignal) => Promise<Envelope<unknown>>

export async function listAllPages(fetchPage: FetchPage, opts: ListAllOptions = {}): Promise<unknown[]> {
  const concurrency = Math.max(1, Math.min(16, opts.concurrency ?? DEFAULT_CONCURRENCY))
  const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE
  const maxItems = opts.maxItems ?? MAX_LIST_ITEMS
  const maxBytes = opts.maxBytes ?? MAX_LIST_BYTES

  // One controller for the whole listing: the caller's cancel, the deadline or the first failure stops every page.
  const controller = new AbortController()
  const onCallerAbort = () => controller.abort(AppError.of('cancelled'))
  if (opts.signal?.aborted) onCallerAbort()
  opts.signal?.addEventListener('abort', onCallerAbort, { once: true })

  const pages: unknown[][] = []
  /** The first page that came back short: the list ends there, so no page after it is started. */
  let endPage = Infinity
  /**
   * The ids of the items read so far: a page of nothing but these ends the list (a page that repeats one
   * already read is such a page: its items' ids were all read with it).
   */
  const seenIds = new Set<string>()
  /** Whether any item's id came again: only then may two items have the same text (see onceEach). */
  let idRepeated = false
  /** Notes the ids of a page's items as read. */
  const noteIds = (ids: readonly string[]) => {
    for (const id of ids) {
      if (seenIds.has(id)) idRepeated = true
      else seenIds.add(id)
    }
  }
  /** Set when the first page's claim bounds the pages: the list may not go past them. */
  let claimedPages: number | undefined
  let loadedItems = 0
  let loadedPages = 0
  let receivedBytes = 0
  let expectedItems: number | undefined
  const report = () => opts.onProgress?.({ loadedItems, loadedPages, expectedItems })
  const deadlineMs = opts.deadlineMs ?? LIST_DEADLINE_MS
  const deadline = setTimeout(
    () =>
      controller.abort(
        AppError.of('timeout', {
          code: 'http.listDeadline',
          params: { pages: loadedPages, seconds: Math.round(deadlineMs / 1000) },
        }),
      ),
    deadlineMs,
  )

  /** Refused: the list goes on past the most items a list may have. */
  const tooLong = (pagesSoFar: number) =>
    AppError.of('malformed-response', { code: 'http.listTooLong', params: { items: maxItems, pages: pagesSoFar } })

  /** A page as it arrives: a list of items, counted against the bounds on bytes and items; its items' ids. */
  const received = (page: number, env: Envelope<unknown>): { results: unknown[]; ids: string[] } => {
    if (!Array.isArray(env.results)) {
      throw AppError.of('malformed-response', { code: 'http.notAList', params: { page }, requestId: env.requestId })
    }
    const results: unknown[] = env.results
    // The answer's size as received (a fetcher that does not say: its items' text).
    receivedBytes += env.bytes ?? JSON.stringify(results).length
    if (receivedBytes > maxBytes) {
      throw AppError.of('malformed-response', {
        code: 'http.listTooLarge',
        params: { megabytes: Math.round(maxBytes / (1024 * 1024)), pages: loadedPages + 1 },
      })
    }
    if (loadedItems + results.length > maxItems) throw tooLong(loadedPages + 1)
    return { results, ids: results.map(idOf) }
  }

  const load = async (page: number, limit: number): Promise<unknown[]> => {
    const { results, ids } = received(page, await fetchPage(page, limit, controller.signal))
    if (ids.length > 0 && ids.every((id) => seenIds.has(id))) {
      // The service answered an earlier page again (or its items again): the list has ended before this page.
      endPage = Math.min(endPage, page - 1)
      return []
    }
    noteIds(ids)
    pages[page - 1] = results
    loadedPages++
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
    const { results: firstResults, ids: firstIds } = received(1, first)
    pages[0] = firstResults
    loadedPages = 1
    noteIds(firstIds)
    loadedItems = firstResults.length
    // The service may cap the page size below what we asked for; its own limit is what counts.
    const limit = first.paging && first.paging.limit > 0 ? Math.min(first.paging.limit, pageSize) : pageSize
    expectedItems = first.paging ? Math.max(first.paging.max, loadedItems) : undefined
    report()
    if (firstResults.length < limit || firstResults.length === 0) return firstResults

    // Whatever the claim, no more pages than the most items a list may have fill, and the one
    // page after them that tells whether the list ends there.
    const ceilingPages = Math.ceil(maxItems / limit) + 1
    let maxPages = ceilingPages
    if (first.paging) {
      // A claim of more items than a list may have, under either reading (as pages, max pages of
      // items are more still): refused now, not after reading up to the bound.
      if (first.paging.max > maxItems) {
        throw AppError.of('malformed-response', {
          code: 'http.listClaimTooLong',
          params: { max: first.paging.max, items: maxItems },
        })
      }
      // The most pages the claim allows under either reading (max as a page count is the
      // larger), and the one page after an exact fill that tells the readings apart.
      claimedPages = Math.min(ceilingPages, Math.max(first.paging.max, Math.ceil(first.paging.max / limit)) + 1)
      maxPages = claimedPages
    }
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
    // Still full at the last page allowed: what was read is not all of it. Past what the first
    // page claimed, the list is not what it said; past the most items a list may have, it is
    // longer than any list the app reads.
    if (endPage === Infinity && lastLoaded >= maxPages) {
      if (claimedPages !== undefined && claimedPages < ceilingPages) {
        throw AppError.of('malformed-response', {
          code: 'http.pagingPastClaim',
          params: { max: first.paging?.max ?? 0, pages: lastLoaded },
        })
      }
      throw tooLong(lastLoaded)
    }
    // A short (or empty) page ends the list; a page after it (fetched in the same batch) belongs to no one.
    pages.length = Math.min(pages.length, lastLoaded)
    // Items of different ids differ in text: with no id read twice, no item is there twice (each item's text
    // written out again costs as much as the list's decoding: 10,000 WHOIS records are 10 MB).
    return idRepeated ? onceEach(pages.flat()) : pages.flat()
  } catch (err) {
    // The deadline's own error, rather than the cancelled page it cut short.
    throw controller.signal.aborted ? abortReason(controller.signal) : err
  } finally {
    clearTimeout(deadline)
    opts.signal?.removeEventListener('abort', onCallerAbort)
  }
}

/** What names an item in a list: its id members (domainid, serverid, hostname…), or all of it. */
function idOf(item: unknown): string {
  if (typeof item !== 'object' || item === null) return JSON.stringify(item)
  const ids = Object.entries(item).filter(
    ([k, v]) =>
      (isIdName(k) || k === 'hostname' || k === 'domainname') && (typeof v === 'string' || typeof v === 'number'),
  )
  return ids.length > 0 ? JSON.stringify(ids) : JSON.stringify(item)
}

/** A member's name that ends in "id", in either case (as /id$/i, without a regular expression's cost per member). */
function isIdName(k: string): boolean {
  const n = k.length
  // ASCII letters only: 'D' | 32 is 'd', and no other character | 32 is; the same for 'I'.
  return n >= 2 && (k.charCodeAt(n - 1) | 32) === 100 && (k.charCodeAt(n - 2) | 32) === 105
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
