/**
 * A stored list carried to the window in parts (issue 54): one message of 100,000 rows blocks the
 * window's main thread for its copy, parts of STORED_PART_SIZE do not. The first part reads the list
 * from the store and keeps it here; later parts slice what is kept, so every part of one carriage is
 * of the same list, read from the store's worker once. A part whose list is no longer kept reads it
 * again: its readAt then tells the window whether it still belongs with the parts it has.
 */
import { STORED_PART_SIZE, STORED_PARTS_MAX, type StoredListName } from '@shared/portfolio'

/**
 * Lists kept between parts: a few windows' carriages at once (the domain list and its four detail
 * lists read together, issue 54), never every list of every account.
 */
const KEPT_MAX = 8

/** A list as kept, whatever its items are (a stored list's rows, or what main sends of them: the WHOIS flags). */
interface KeptList<T> {
  items: T[]
  readAt: string
  complete: boolean
  skipped: number
}
type ReadList<T> = (
  name: StoredListName,
  accountId: string,
  params: Readonly<Record<string, unknown>>,
) => Promise<KeptList<T> | null>

export interface StoredPartAsk {
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
export type FreshRead<T> = () => Promise<KeptList<T>>

export type StoredPartReader<T> = (
  ask: StoredPartAsk,
  fresh?: FreshRead<T>,
) => Promise<(KeptList<T> & { part: number; parts: number }) | null>

export function createStoredParts<T>(read: ReadList<T>): StoredPartReader<T> {
  const kept = new Map<string, KeptList<T>>()
  const keep = (key: string, list: KeptList<T>) => {
    kept.delete(key)
    kept.set(key, list)
    for (const oldest of kept.keys()) {
      if (kept.size <= KEPT_MAX) break
      kept.delete(oldest)
    }
  }
  return async ({ name, accountId, params, part }, fresh) => {
    if (part === undefined) {
      const whole = await (fresh ? fresh() : read(name, accountId, params))
      return whole ? { ...whole, part: 0, parts: 1 } : null
    }
    const { limit: _l, page: _p, ...own } = params
    const key = JSON.stringify([accountId, name, own])
    let list = part === 0 ? undefined : kept.get(key)
    if (!list) {
      const readNow = await (fresh && part === 0 ? fresh() : read(name, accountId, params))
      if (!readNow) {
        kept.delete(key)
        return null
      }
      list = readNow
      keep(key, list)
    }
    const parts = Math.min(STORED_PARTS_MAX, Math.max(1, Math.ceil(list.items.length / STORED_PART_SIZE)))
    // The last part of the list (or the last the window can ask for) holds all that is left.
    const end = part >= parts - 1 ? list.items.length : (part + 1) * STORED_PART_SIZE
    const items = list.items.slice(part * STORED_PART_SIZE, end)
    if (part >= parts - 1) kept.delete(key)
    return { readAt: list.readAt, complete: list.complete, skipped: list.skipped, items, part, parts }
  }
}
