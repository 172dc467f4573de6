/**
 * A stored list cut into the parts it is carried to the window in (issue 54), where the list is
 * kept: in the store's worker, so main takes in one part of a 100,000-domain list at a time and
 * never the whole (taking in the whole held main's thread ~255 ms, the list promoted through its
 * young-generation collections). The first part reads the list and keeps it until its last part
 * is asked, so every part of one carriage is of the same list; a part whose list is no longer
 * kept reads it again, and its readAt tells the window whether it still belongs with the others.
 */
import { STORED_FIRST_PART_SIZE, STORED_PART_SIZE, STORED_PARTS_MAX } from '@shared/portfolio'

/** A list as kept, whatever its items are. */
export interface WholeList<T> {
  items: T[]
  readAt: string
  complete: boolean
  skipped: number
}
export type ListPart<T> = WholeList<T> & { part: number; parts: number }

/**
 * Lists kept between parts: a few windows' carriages at once (the domain list and its four detail
 * lists read together, issue 54), never every list of every account.
 */
const KEPT_MAX = 8

/**
 * How many parts a list of `length` items comes in: one when it is STORED_PART_SIZE or shorter, otherwise a
 * first part of STORED_FIRST_PART_SIZE, then parts of STORED_PART_SIZE (at most STORED_PARTS_MAX in all).
 */
function partCount(length: number): number {
  if (length <= STORED_PART_SIZE) return 1
  return Math.min(STORED_PARTS_MAX, 1 + Math.ceil((length - STORED_FIRST_PART_SIZE) / STORED_PART_SIZE))
}

/** Where part `part` starts in a list of more than one part. */
const partStart = (part: number) => (part === 0 ? 0 : STORED_FIRST_PART_SIZE + (part - 1) * STORED_PART_SIZE)

/** Part `part` of a list (see partCount); the last (or the last the window can ask for) all that is left. */
function partOf<T>(list: WholeList<T>, part: number): ListPart<T> {
  const parts = partCount(list.items.length)
  // A part past the last of a list of one part is empty, as a part past the end of a longer list is.
  const start = part === 0 ? 0 : parts === 1 ? list.items.length : partStart(part)
  const end = part >= parts - 1 ? list.items.length : partStart(part + 1)
  const items = list.items.slice(start, end)
  return { readAt: list.readAt, complete: list.complete, skipped: list.skipped, items, part, parts }
}

/**
 * The lists being carried in parts, by a key of the caller's (account, list, parameters): `part`
 * reads the list at part 0 (or when it is no longer kept) and forgets it after its last part.
 */
export function createListParts<T>() {
  const kept = new Map<string, WholeList<T>>()
  const keep = (key: string, list: WholeList<T>) => {
    kept.delete(key)
    kept.set(key, list)
    for (const oldest of kept.keys()) {
      if (kept.size <= KEPT_MAX) break
      kept.delete(oldest)
    }
  }
  return {
    /** Keeps a list read elsewhere (a fresh read from the service) for its later parts. */
    keep,
    /** Forgets a list: its next part reads it again. */
    drop: (key: string) => kept.delete(key),
    /** Forgets every list (an account removed: none of its lists is carried on; the others are read again). */
    dropAll: () => kept.clear(),
    has: (key: string) => kept.has(key),
    part(key: string, part: number, read: () => WholeList<T> | null | undefined): ListPart<T> | null {
      let list = part === 0 ? undefined : kept.get(key)
      if (!list) {
        const readNow = read()
        if (!readNow) {
          kept.delete(key)
          return null
        }
        list = readNow
        keep(key, list)
      }
      const answer = partOf(list, part)
      if (part >= answer.parts - 1) kept.delete(key)
      return answer
    },
  }
}
