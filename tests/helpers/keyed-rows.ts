/**
 * Rows for the table's order tests (src/renderer/src/lib/table-order.ts): many equal keys,
 * numbers and text mixed, seeded so that each run has the same rows.
 */
import type { SortKey } from '../../src/renderer/src/lib/table-order'

export interface KeyedRow {
  id: number
  key: SortKey
  name: string
}

export function keyedRows(n: number, seed: number): KeyedRow[] {
  let s = seed
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648
  const word = () => ['aurora', 'jade', 'zen', 'b', 'a', 'c', ''][Math.floor(next() * 7)]!
  return Array.from({ length: n }, (_v, id) => ({
    id,
    key: next() < 0.3 ? Math.floor(next() * 50) : `${word()}${Math.floor(next() * 30)}`,
    name: `${word()}-${id}.com`,
  }))
}
