/**
 * The order of a table's rows by one column, remembered per column while the rows stay the same:
 * sorting 100,000 rows again for each click held the window's thread for 60 to 90 ms (issue 54),
 * where the other direction, or a column sorted before, is one pass over the rows. The keys are
 * worked out again on every call (what a column shows may change without the rows changing: a
 * detail list arriving) and compared with the remembered ones; only equal keys reuse an order.
 */
export type SortKey = string | number

/** Numbers before text, then ascending; equal keys are equal. */
function compare(a: SortKey, b: SortKey): number {
  if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1
  return a < b ? -1 : a > b ? 1 : 0
}

function sameKeys(a: readonly SortKey[], b: readonly SortKey[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * The descending order from the ascending one: its runs of equal keys last to first, each run's
 * rows kept in their order (as a stable sort the other way round leaves them).
 */
function descending<Row>(rows: readonly Row[], keys: readonly SortKey[]): Row[] {
  const out: Row[] = []
  let end = rows.length - 1
  while (end >= 0) {
    let start = end
    while (start > 0 && compare(keys[start - 1]!, keys[end]!) === 0) start--
    for (let i = start; i <= end; i++) out.push(rows[i]!)
    end = start - 1
  }
  return out
}

/**
 * A sorter for one table: the rows in a column's order (ascending when `dir` is 1), stable (equal
 * keys keep the rows' order), numbers before text ascending and after it descending. The array
 * answered is the sorter's: not to be changed.
 */
export function createTableOrder<Row>(): (
  rows: readonly Row[],
  column: string,
  keys: readonly SortKey[],
  dir: 1 | -1,
) => readonly Row[] {
  let rowsOf: readonly Row[] | undefined
  interface Known {
    keys: readonly SortKey[]
    ascending: Row[]
    /** The keys in the ascending order, for the descending one. */
    ascendingKeys: SortKey[]
    descending?: Row[]
  }
  const byColumn = new Map<string, Known>()
  return (rows, column, keys, dir) => {
    if (rows !== rowsOf) {
      rowsOf = rows
      byColumn.clear()
    }
    let known = byColumn.get(column)
    if (!known || !sameKeys(known.keys, keys)) {
      // Array.prototype.sort is stable: equal keys keep the rows' order.
      const keyed = rows.map((row, i) => ({ row, k: keys[i]! }))
      keyed.sort((a, b) => compare(a.k, b.k))
      known = { keys, ascending: keyed.map((x) => x.row), ascendingKeys: keyed.map((x) => x.k) }
      byColumn.set(column, known)
    }
    return dir === 1 ? known.ascending : (known.descending ??= descending(known.ascending, known.ascendingKeys))
  }
}
