/**
 * A stored list carried to the window in parts (issue 54): one message of 100,000 rows blocks the
 * window's main thread for its copy, parts (store/list-parts.ts) do not. A stored list's parts are
 * cut where it is kept, in the store's worker (store/list-parts.ts), so main takes in only a part;
 * a list read afresh from the service is in main already, and its later parts are cut from it here.
 */
import type { StoredListName } from '@shared/portfolio'
import { createListParts, type ListPart, type WholeList } from '../store/list-parts'

type ReadList<T> = (
  name: StoredListName,
  accountId: string,
  params: Readonly<Record<string, unknown>>,
) => Promise<WholeList<T> | null>
/** One part of a stored list, cut by the store (store/list-parts.ts); null when the list was never read. */
type ReadPart<T> = (
  name: StoredListName,
  accountId: string,
  params: Readonly<Record<string, unknown>>,
  part: number,
) => Promise<ListPart<T> | null>

interface StoredPartAsk {
  name: StoredListName
  accountId: string
  params: Readonly<Record<string, unknown>>
  /** Absent: the whole list as its only part. */
  part?: number | undefined
}

/**
 * A list read afresh (from the service, and stored by that read): its first part is of that read,
 * its later parts are asked as a stored list's are and sliced from what is kept here. Should it be
 * gone from here, they read what that read stored, whose readAt is the same.
 */
type FreshRead<T> = () => Promise<WholeList<T>>

type StoredPartReader<T> = (ask: StoredPartAsk, fresh?: FreshRead<T>) => Promise<ListPart<T> | null>

/**
 * `readPart`: a stored list's part as the store cuts it. Without it (bench/stored-parts-main.ts's
 * side of before), the whole list is read here and its parts cut here.
 */
export function createStoredParts<T>(read: ReadList<T>, readPart?: ReadPart<T>): StoredPartReader<T> {
  const kept = createListParts<T>()
  return async ({ name, accountId, params, part }, fresh) => {
    if (part === undefined) {
      const whole = await (fresh ? fresh() : read(name, accountId, params))
      return whole ? { ...whole, part: 0, parts: 1 } : null
    }
    const { limit: _l, page: _p, ...own } = params
    const key = JSON.stringify([accountId, name, own])
    if (part === 0 && fresh) {
      const list = await fresh()
      return kept.part(key, 0, () => list)
    }
    if (part > 0 && kept.has(key)) return kept.part(key, part, () => undefined)
    kept.drop(key)
    if (readPart) return readPart(name, accountId, params, part)
    const list = await read(name, accountId, params)
    return kept.part(key, part, () => list)
  }
}
