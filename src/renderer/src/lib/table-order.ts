/**
 * The order of a table's rows by one column, remembered per column while the rows stay the same:
 * sorting 100,000 rows again for each click held the window's thread for 60 to 90 ms (issue 54),
 * where the other direction, or a column sorted before, is a pass or two over the rows. The keys are
 * worked out again on every call (what a column shows may change without the rows changing: a
 * detail list arriving) and compared with the remembered ones; only equal keys reuse an order.
 */
import { runNow, STEP, type Sliced } from './sliced'

export type SortKey = string | number

/** Numbers before text, then ascending; equal keys are equal. */
function compare(a: SortKey, b: SortKey): number {
  if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1
  return a < b ? -1 : a > b ? 1 : 0
}

function* sameKeys(a: readonly SortKey[], b: readonly SortKey[]): Sliced<boolean> {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return false
    if (i % STEP === STEP - 1) yield
  }
  return true
}

/** Rows sorted apart before their runs are merged: short enough for the native sort to take a few milliseconds. */
const RUN = 2048

/**
 * Up to this many rows are sorted by one native sort, one step of a few milliseconds: the merges'
 * code is cold in a window that just opened, and ran two to four times as long as the native sort
 * of 10,000 rows before the domain list's first paint (issue 54).
 */
export const ONE_SORT_UP_TO = 16_384

/**
 * The rows' positions in the ascending order of their keys, stable (equal keys keep the rows'
 * order): the order of one Array.prototype.sort, worked out as a merge sort whose runs and merges
 * pause every STEP rows.
 */
function* ascendingOrder(keys: readonly SortKey[]): Sliced<number[]> {
  const n = keys.length
  // A loop, not Array.from({ length: n }), whose generic path is several times slower at 100,000 rows.
  let from: number[] = []
  for (let i = 0; i < n; i++) from.push(i)
  // Each run by the native sort, the position breaking ties: stable whatever the engine's sort is.
  const byKey = (a: number, b: number) => compare(keys[a]!, keys[b]!) || a - b
  if (n <= ONE_SORT_UP_TO) {
    from.sort(byKey)
    yield
    return from
  }
  for (let start = 0; start < n; start += RUN) {
    const run = from.slice(start, start + RUN).sort(byKey)
    for (let i = 0; i < run.length; i++) from[start + i] = run[i]!
    yield
  }
  let to: number[] = new Array<number>(n)
  let moved = 0
  for (let width = RUN; width < n; width *= 2) {
    for (let left = 0; left < n; left += 2 * width) {
      const mid = Math.min(left + width, n)
      const end = Math.min(left + 2 * width, n)
      let i = left
      let j = mid
      let k = left
      // The left run's row first on equal keys: the merge keeps the order stable.
      while (i < mid && j < end) {
        to[k++] = compare(keys[from[j]!]!, keys[from[i]!]!) < 0 ? from[j++]! : from[i++]!
        if (++moved % STEP === 0) yield
      }
      while (i < mid) to[k++] = from[i++]!
      while (j < end) to[k++] = from[j++]!
    }
    ;[from, to] = [to, from]
    yield
  }
  return from
}

/**
 * The descending order from the ascending one: its runs of equal keys last to first, each run's
 * rows kept in their order (as a stable sort the other way round leaves them). It pauses every
 * STEP rows, inside a run too: a column whose rows all show the same value is one run.
 */
function* descending<Row>(rows: readonly Row[], keys: readonly SortKey[]): Sliced<Row[]> {
  const out: Row[] = []
  let end = rows.length - 1
  let steps = 0
  while (end >= 0) {
    let start = end
    while (start > 0 && compare(keys[start - 1]!, keys[end]!) === 0) {
      start--
      if (++steps % STEP === 0) yield
    }
    for (let i = start; i <= end; i++) {
      out.push(rows[i]!)
      if (++steps % STEP === 0) yield
    }
    end = start - 1
  }
  return out
}

/**
 * `from`'s items at `positions`, pausing every STEP items: the rows and their keys in the order
 * found, two passes over 100,000 rows that were one step, the longest of the work (issue 54).
 */
function* pick<T>(from: readonly T[], positions: readonly number[]): Sliced<T[]> {
  const out: T[] = []
  for (let i = 0; i < positions.length; i++) {
    out.push(from[positions[i]!]!)
    if (i % STEP === STEP - 1) yield
  }
  return out
}

/**
 * A row's own value of the column sorted by, when the column shows a field of the row: given, a
 * short list whose keys are those values as they are, all text or all numbers, is sorted as rows
 * by them, as one stable native sort, not as positions by their keys (issue 54: the positions'
 * sort, its comparisons of mixed kinds and the rows picked after it took some 20% longer over
 * 10,000 domain names in a fresh V8, 9.5 against 7.9 ms keys included, between the list's arrival
 * and its first paint). Same order either way.
 */
export type FieldOf<Row> = (row: Row) => SortKey | undefined

/** A table's sorter: the rows in a column's order, at once or as work in slices (the same order). */
export interface TableOrder<Row> {
  (rows: readonly Row[], column: string, keys: readonly SortKey[], dir: 1 | -1, fieldOf?: FieldOf<Row>): readonly Row[]
  work(
    rows: readonly Row[],
    column: string,
    keys: readonly SortKey[],
    dir: 1 | -1,
    fieldOf?: FieldOf<Row>,
  ): Sliced<readonly Row[]>
}

/**
 * The rows in the ascending order of their keys, sorted as rows by `fieldOf` when each key is its
 * row's value as it is and the keys are all text or all numbers (no NaN): numbers before text then
 * never applies, and the native sort is stable, as the positions' order breaks ties. Undefined
 * when the keys are not so (the positions' sort then orders them).
 */
function ascendingRows<Row>(rows: readonly Row[], keys: readonly SortKey[], fieldOf: FieldOf<Row>): Row[] | undefined {
  const kind = typeof keys[0]
  // A callback per key, not a loop of this function's own: run once per list, such a loop over 10,000
  // rows had V8 compile this whole function on the stack (on-stack replacement), by Maglev and then
  // TurboFan (3.8 and 6.4 ms of it in two of three rounds, --trace-opt), on a thread of the window's own
  // beside its main thread between the domain list's arrival and its first paint (issue 54), mostly
  // after the loop had ended. The callback is compiled by Maglev as the small function it is.
  if (!keys.every((key, i) => typeof key === kind && key === fieldOf(rows[i]!))) return undefined
  return [...rows].sort((a, b) => {
    const x = fieldOf(a)!
    const y = fieldOf(b)!
    return x < y ? -1 : x > y ? 1 : 0
  })
}

/** The rows' values (each verified to be its key: see ascendingRows), pausing every STEP rows. */
function* valuesOf<Row>(rows: readonly Row[], fieldOf: FieldOf<Row>): Sliced<SortKey[]> {
  const out: SortKey[] = []
  for (let i = 0; i < rows.length; i++) {
    out.push(fieldOf(rows[i]!) ?? '')
    if (i % STEP === STEP - 1) yield
  }
  return out
}

/**
 * A sorter for one table: the rows in a column's order (ascending when `dir` is 1), stable (equal
 * keys keep the rows' order), numbers before text ascending and after it descending. The array
 * answered is the sorter's: not to be changed. Work left unfinished (newer work replaced it)
 * remembers nothing.
 */
export function createTableOrder<Row>(): TableOrder<Row> {
  let rowsOf: readonly Row[] | undefined
  interface Known {
    keys: readonly SortKey[]
    ascending: Row[]
    /** The keys in the ascending order, worked out when the descending order is first asked for. */
    keysInOrder: () => Sliced<readonly SortKey[]>
    descending?: Row[]
  }
  const byColumn = new Map<string, Known>()
  function* work(
    rows: readonly Row[],
    column: string,
    keys: readonly SortKey[],
    dir: 1 | -1,
    fieldOf?: FieldOf<Row>,
  ): Sliced<readonly Row[]> {
    if (rows !== rowsOf) {
      rowsOf = rows
      byColumn.clear()
    }
    let known = byColumn.get(column)
    if (!known || !(yield* sameKeys(known.keys, keys))) {
      const direct = fieldOf && keys.length <= ONE_SORT_UP_TO ? ascendingRows(rows, keys, fieldOf) : undefined
      if (direct && fieldOf) {
        yield
        // Each key is its row's value: the rows' values in their order are the keys in it.
        known = { keys, ascending: direct, keysInOrder: () => valuesOf(direct, fieldOf) }
      } else {
        const order = yield* ascendingOrder(keys)
        known = { keys, ascending: yield* pick(rows, order), keysInOrder: () => pick(keys, order) }
      }
      byColumn.set(column, known)
    }
    if (dir === 1) return known.ascending
    // The keys in the ascending order only for the descending one, when first asked for: a pass over
    // every row less before a long list's first paint, which is in the ascending order (issue 54).
    known.descending ??= yield* descending(known.ascending, yield* known.keysInOrder())
    return known.descending
  }
  return Object.assign(
    (rows: readonly Row[], column: string, keys: readonly SortKey[], dir: 1 | -1, fieldOf?: FieldOf<Row>) =>
      runNow(work(rows, column, keys, dir, fieldOf)),
    { work },
  )
}

/** A long table's sort keys, worked out in slices and remembered (see createSortKeys). */
export type SortKeysWork<Row> = (
  rows: readonly Row[],
  column: object,
  keyOf: (row: Row) => SortKey,
  version: unknown,
) => Sliced<readonly SortKey[]>

/**
 * Each row's key in a column, as work that pauses every STEP rows, remembered per column (the
 * column's own object) while the rows and `version` (whatever else the keys depend on) stay the
 * same. At 100,000 rows the keys were worked out all at once in the task that brought the list
 * or the click that sorted it, some 8 to 15 ms of it before the sort's first slice: the click's
 * task was about twice as long as in slices (issue 54); and sorting by a column again worked its
 * keys out again. Work left unfinished remembers nothing.
 */
export function createSortKeys<Row>(): SortKeysWork<Row> {
  let rowsOf: readonly Row[] | undefined
  let versionOf: unknown
  const byColumn = new Map<object, readonly SortKey[]>()
  return function* keys(rows, column, keyOf, version) {
    if (rows !== rowsOf || !Object.is(version, versionOf)) {
      rowsOf = rows
      versionOf = version
      byColumn.clear()
    }
    const known = byColumn.get(column)
    if (known) return known
    const out: SortKey[] = []
    for (let i = 0; i < rows.length; i++) {
      out.push(keyOf(rows[i]!))
      if (i % STEP === STEP - 1) yield
    }
    byColumn.set(column, out)
    return out
  }
}
