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

/** A row of the domain list's kind: fields shown as they are, some missing. */
interface Domain {
  id: number
  name?: string
  registrar?: string
  expires: string | number
}

/** Text that orders differently by code unit than by a collation: Japanese, full-width, case, accents, ties. */
function domainsOf(n: number, seed: number): Domain[] {
  let s = seed
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648
  const of = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!
  const names = [
    'あおぞら',
    'アオゾラ',
    '青空',
    'さくら',
    'サクラ',
    '桜',
    'ｓａｋｕｒａ',
    'sakura',
    'Sakura',
    'éclair',
    'eclair',
    'Zen',
    'zen',
    '',
  ]
  return Array.from({ length: n }, (_v, id) => ({
    id,
    // Half the names repeat whole (ties kept in the rows' order), the other half with a suffix.
    name: next() < 0.5 ? of(names) : `${of(names)}${of(['.jp', '.com', '.co.jp', '-1', '-10', '-9'])}`,
    ...(next() < 0.9 ? { registrar: of(['お名前', 'ムームー', 'Gandi', 'gandi', 'GANDI']) } : {}),
    expires: next() < 0.5 ? of(['2027-01-01', '2026-12-31', '2027-01-01']) : Math.floor(next() * 5),
  }))
}

describe('a short list sorted as rows by a field shown as it is', () => {
  const fieldOf =
    (key: 'name' | 'registrar' | 'expires') =>
    (row: Domain): SortKey | undefined => {
      const v = row[key]
      return typeof v === 'string' || typeof v === 'number' ? v : undefined
    }
  const byId = (rows: readonly Domain[]) => rows.map((r) => r.id)
  /** The table's keys: a missing value is '' (as DataTable's sortable makes it). */
  const keysOf = (rows: readonly Domain[], key: 'name' | 'registrar' | 'expires') =>
    rows.map((r) => fieldOf(key)(r) ?? '')

  it('gives the order of the positions by their keys: ties, Japanese, full-width, case, either direction', () => {
    const rows = domainsOf(3000, 3)
    // The names all text: sorted as rows (the reader called in the comparisons, not only to check the keys).
    let reads = 0
    const counted = (row: Domain) => (reads++, fieldOf('name')(row))
    const keys = keysOf(rows, 'name')
    const direct = createTableOrder<Domain>()
    const asc = direct(rows, 'name', keys, 1, counted)
    expect(reads).toBeGreaterThan(2 * rows.length)
    const byPositions = createTableOrder<Domain>()
    expect(byId(asc)).toEqual(byId(byPositions(rows, 'name', keys, 1)))
    expect(byId(direct(rows, 'name', keys, -1, counted))).toEqual(byId(byPositions(rows, 'name', keys, -1)))
    // And the order of one stable sort by code units, which a collation (localeCompare) would not give.
    const once = [...rows].sort((a, b) => (a.name! < b.name! ? -1 : a.name! > b.name! ? 1 : 0))
    expect(byId(asc)).toEqual(byId(once))
    const collated = [...rows].sort((a, b) => a.name!.localeCompare(b.name!, 'ja'))
    expect(byId(asc)).not.toEqual(byId(collated))
  })

  it('gives the same order where the keys are not the fields as they are: missing values, text and numbers mixed', () => {
    const rows = domainsOf(3000, 4)
    for (const key of ['registrar', 'expires'] as const) {
      const keys = keysOf(rows, key)
      for (const dir of [1, -1] as const) {
        const direct = createTableOrder<Domain>()(rows, key, keys, dir, fieldOf(key))
        expect(byId(direct), `${key} ${dir}`).toEqual(byId(createTableOrder<Domain>()(rows, key, keys, dir)))
        expect(byId(direct), `${key} ${dir}`).toEqual(ids(sortedOnce(rows.map(asRow(keys)), (r) => r.key, dir)))
      }
    }
  })

  it('sorts numbers as rows too, ties in the rows order, after another column and back', () => {
    const rows = domainsOf(2000, 5).map((d, i) => ({ ...d, expires: (i * 7919) % 40 }))
    const keys = keysOf(rows, 'expires')
    const order = createTableOrder<Domain>()
    const names = keysOf(rows, 'name')
    for (const [column, dir] of [
      ['expires', 1],
      ['name', -1],
      ['expires', -1],
      ['expires', 1],
    ] as const) {
      const k = column === 'expires' ? keys : names
      const got = order(rows, column, k, dir, fieldOf(column))
      expect(byId(got), `${column} ${dir}`).toEqual(ids(sortedOnce(rows.map(asRow(k)), (r) => r.key, dir)))
    }
  })
})

/** A domain as a Row of the tests above: its id and its key in the column sorted by. */
const asRow =
  (keys: readonly SortKey[]) =>
  (d: Domain, i: number): Row => ({ id: d.id, key: keys[i]!, other: '' })
