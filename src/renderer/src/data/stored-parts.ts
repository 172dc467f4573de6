/**
 * A stored list carried from main in parts (issue 54): one message of 100,000 rows blocks the
 * window's main thread for its copy, a part (store/list-parts.ts) does not. The first part is handed
 * over at once (the first screen paints from it); the rest follow one message at a time, the event
 * loop free between them (a paint, a key), and the whole list is handed back once at the end.
 */
import { STORED_PARTS_MAX } from '@shared/portfolio'
import type { Result } from '@shared/ipc/contract'

/** A list as carried: its items, when they were read, whether every page of it was read. */
export interface CarriedList<T> {
  items: T[]
  readAt: string
  complete: boolean
}
export interface CarriedPart<T> extends CarriedList<T> {
  part: number
  parts: number
}

export interface CarryOptions<T> {
  /** Aborted: the carriage stops before its next part (the account was left, a fresh read came). */
  signal?: AbortSignal | undefined
  /** The first part, before the others are asked for (only when the list has more than one part). */
  onFirst?: ((first: CarriedList<T>) => void) | undefined
  /**
   * Waited for after the first part was handed over, before the next is asked for (a task when not given): in
   * the window, the paint of the first part's rows, so that the next part's carriage does not hold that frame.
   */
  afterFirst?: (() => Promise<void>) | undefined
}

/**
 * What main says of a part besides its items, checked at the boundary (the items are main's, read with
 * their schema). By hand, not with zod: this module is in the window's first script, which holds no
 * validation library (its size; tests/integration/first-script.test.ts).
 */
const isPartNumber = (v: number, min: number) => Number.isInteger(v) && v >= min && v <= STORED_PARTS_MAX
function partHeadOk(p: { part: unknown; parts: unknown; readAt: unknown; complete: unknown; items: unknown }) {
  return (
    typeof p.part === 'number' &&
    isPartNumber(p.part, 0) &&
    typeof p.parts === 'number' &&
    isPartNumber(p.parts, 1) &&
    typeof p.readAt === 'string' &&
    typeof p.complete === 'boolean' &&
    Array.isArray(p.items)
  )
}

/** A list whose parts are of different lists (it was kept again while carried) is carried again, this often. */
const RESTARTS_MAX = 2

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

export async function carryInParts<T>(
  ask: (part: number) => Promise<Result<CarriedPart<T> | null>>,
  opts: CarryOptions<T> = {},
): Promise<Result<CarriedList<T> | null>> {
  const none: Result<CarriedList<T> | null> = { ok: true, value: null }
  for (let attempt = 0; attempt <= RESTARTS_MAX; attempt++) {
    const first = await ask(0)
    if (!first.ok || !first.value) return first
    if (opts.signal?.aborted) return none
    // A part that does not say what it is: as if nothing were stored (the fresh read follows).
    if (!partHeadOk(first.value) || first.value.part !== 0) return none
    const { readAt, complete, parts } = first.value
    if (parts === 1) return { ok: true, value: { items: first.value.items, readAt, complete } }
    opts.onFirst?.({ items: first.value.items, readAt, complete })
    const items = first.value.items.slice()
    let same = true
    // Bounded by the part count main gave (itself bounded by the payload's schema).
    for (let part = 1; part < parts && same; part++) {
      await (part === 1 && opts.afterFirst ? opts.afterFirst() : nextTask())
      if (opts.signal?.aborted) return none
      const r = await ask(part)
      if (!r.ok) return r
      if (opts.signal?.aborted) return none
      if (!r.value || !partHeadOk(r.value) || r.value.part !== part) return none
      same = r.value.readAt === readAt && r.value.parts === parts
      if (same) for (const item of r.value.items) items.push(item)
    }
    if (same) return { ok: true, value: { items, readAt, complete } }
  }
  return none
}

/**
 * A list read afresh in main, carried in parts as a stored list is (issue 54: a detail list of 10,000
 * rows in one message was the window's longest task while the domain list scrolled). The first part's
 * ask has main read the list (with progress, cancelled in main by the caller's signal); the others
 * slice what that read kept. A carriage that could not end (its parts gone from main) reads it whole.
 */
export async function readInParts<T>(
  ask: (part: number) => Promise<Result<CarriedPart<T> | null>>,
  whole: () => Promise<Result<T[]>>,
  signal?: AbortSignal,
): Promise<Result<T[]>> {
  const r = await carryInParts(ask, { signal })
  if (!r.ok) return r
  if (r.value) return { ok: true, value: r.value.items }
  // Stopped between parts: as a read stopped in main answers.
  if (signal?.aborted) return { ok: false, error: { kind: 'cancelled', code: 'error.cancelled' } }
  return whole()
}
