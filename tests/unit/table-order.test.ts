/**
 * The table's order by a column, remembered per column (src/renderer/src/lib/table-order.ts):
 * the same rows in the same order as one stable sort of them each time, whichever column and
 * direction came before, and sorted again when a column's keys change under the same rows.
 */
import { describe, expect, it } from 'vitest'
import { createTableOrder, type SortKey } from '../../src/renderer/src/lib/table-order'

interface Row {
  id: number
  key: SortKey
  other: SortKey
}

/** The table's order as it was worked out before it was remembered: one stable sort per click. */
function sortedOnce(rows: readonly Row[], keyOf: (r: Row) => SortKey, dir: 1 | -1): Row[] {
  return [...rows].sort((a, b) => {
    const [x, y] = [keyOf(a), keyOf(b)]
    if (typeof x !== typeof y) return (typeof x === 'number' ? -1 : 1) * dir
    return x < y ? -dir : x > y ? dir : 0
  })
}

/** Rows with many equal keys, numbers and text mixed (a seeded generator: the same rows each run). */
function rowsOf(n: number, seed: number): Row[] {
  let s = seed
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648
  const keyOf = (): SortKey =>
    next() < 0.3 ? Math.floor(next() * 20) : ['', 'b', 'a', 'c', 'aa', 'B'][Math.floor(next() * 6)]!
  return Array.from({ length: n }, (_v, id) => ({ id, key: keyOf(), other: keyOf() }))
}

const ids = (rows: readonly Row[]) => rows.map((r) => r.id)

describe('a table ordered by a column', () => {
  it('gives the order of one stable sort, in either direction, after any other column or direction', () => {
    const rows = rowsOf(500, 7)
    const order = createTableOrder<Row>()
    const clicks: ['key' | 'other', 1 | -1][] = [
      ['key', 1],
      ['key', -1],
      ['other', -1],
      ['key', -1],
      ['key', 1],
      ['other', 1],
      ['other', -1],
    ]
    for (const [column, dir] of clicks) {
      const got = order(
        rows,
        column,
        rows.map((r) => r[column]),
        dir,
      )
      expect(ids(got), `${column} ${dir}`).toEqual(ids(sortedOnce(rows, (r) => r[column], dir)))
    }
  })

  it('sorts again when the keys of a column change under the same rows, and for new rows', () => {
    const rows = rowsOf(200, 11)
    const order = createTableOrder<Row>()
    expect(
      ids(
        order(
          rows,
          'key',
          rows.map((r) => r.key),
          1,
        ),
      ),
    ).toEqual(ids(sortedOnce(rows, (r) => r.key, 1)))
    // A detail list arrived: the column shows other values for the same rows.
    const shown = new Map(rows.map((r) => [r.id, r.other]))
    const keys = rows.map((r) => shown.get(r.id) ?? '')
    expect(ids(order(rows, 'key', keys, -1))).toEqual(ids(sortedOnce(rows, (r) => r.other, -1)))
    const fresh = rowsOf(200, 12)
    expect(
      ids(
        order(
          fresh,
          'key',
          fresh.map((r) => r.key),
          1,
        ),
      ),
    ).toEqual(ids(sortedOnce(fresh, (r) => r.key, 1)))
  })
})
