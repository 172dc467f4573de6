/**
 * A refresh of one account's portfolio: every account-wide list the screens, drift and
 * reminders rely on, read in full and kept in the store (which notes what changed outside this
 * app). Two lists are read at a time, each a few pages at a time: a list's first page no longer
 * waits for the previous list's last one. A list is written while the next one is read (the
 * store works in its own thread), and a list waits for the previous write of its lane, so at
 * most one read list per lane is held in memory. A list that fails is reported; the others are
 * kept.
 */
import type { ApiClient } from '../http'
import type { ErrorData } from '@shared/errors'
import type { PortfolioStoreAsync } from '../store/store-async'
import type { StoredListName } from '@shared/portfolio'
import type { PagedItem } from '@shared/endpoints/table'
import { toErrorData } from '../base/app-error'
import { REFRESHED_LISTS } from '../store/lists'

/** A list a refresh reads: its `refresh` in LIST_SPECS (lists.ts) says which. */
type RefreshedList = StoredListName

export interface AccountRefresh {
  /** Lists read and kept. */
  read: number
  /** Changes from outside this app that the refresh recorded. */
  drift: number
  failed: { list: RefreshedList; error: ErrorData }[]
}

export interface RefreshOptions {
  signal?: AbortSignal | undefined
  now?: () => Date
  /** Lists read at the same time (each with the client's own concurrency). */
  listsAtOnce?: number
  pageSize?: number
  onList?: (done: number, total: number) => void
}

export async function refreshAccount(
  client: ApiClient,
  store: Pick<PortfolioStoreAsync, 'putList'>,
  accountId: string,
  opts: RefreshOptions = {},
): Promise<AccountRefresh> {
  const now = opts.now ?? (() => new Date())
  const result: AccountRefresh = { read: 0, drift: 0, failed: [] }
  let next = 0
  let done = 0
  const finished = (name: RefreshedList, err?: unknown) => {
    if (err !== undefined) result.failed.push({ list: name, error: toErrorData(err) })
    opts.onList?.(++done, REFRESHED_LISTS.length)
  }
  const write = async (name: RefreshedList, items: PagedItem<RefreshedList>[], readAt: string) => {
    try {
      // Awaited first: `result.drift += await …` would read the sum before the wait, and the other
      // list written meanwhile would lose its count.
      // Checked once, by the client against the endpoint table: kept as typed, not checked again.
      const kept = await store.putList(accountId, name, {}, items, readAt)
      result.drift += kept.drift
      result.read++
      finished(name)
    } catch (err) {
      finished(name, err)
    }
  }
  const lane = async () => {
    let writing: Promise<void> = Promise.resolve()
    while (next < REFRESHED_LISTS.length && !opts.signal?.aborted) {
      const name = REFRESHED_LISTS[next++]
      if (!name) continue
      let items: PagedItem<RefreshedList>[]
      try {
        items = await client.listAll(
          name,
          {},
          { signal: opts.signal, ...(opts.pageSize ? { pageSize: opts.pageSize } : {}) },
        )
      } catch (err) {
        finished(name, err)
        continue
      }
      const readAt = now().toISOString()
      await writing
      writing = write(name, items, readAt)
    }
    await writing
  }
  await Promise.all(Array.from({ length: Math.max(1, opts.listsAtOnce ?? 2) }, lane))
  return result
}
