/**
 * A long table's sort keys (src/renderer/src/lib/table-order.ts, createSortKeys): worked out as
 * work in slices, so that the task that brings 100,000 rows or the click that sorts them works out
 * a slice of them and not all (issue 54), the same keys as worked out at once, and each row's key
 * worked out once while the rows and what the keys depend on stay the same.
 */
import { describe, expect, it, vi } from 'vitest'
import { keyedRows, type KeyedRow } from '../helpers/keyed-rows'
import { createSortKeys, createTableOrder } from '../../src/renderer/src/lib/table-order'
import { runNow, slicedRunner, STEP, type Sliced } from '../../src/renderer/src/lib/sliced'

type Row = KeyedRow

/** The columns as the table has them: one object each, its key worked out by a function that counts its calls. */
function counted() {
  const calls = { key: 0, name: 0 }
  return {
    calls,
    key: { column: { key: 'key' }, keyOf: (r: Row) => (calls.key++, r.key) },
    name: { column: { key: 'name' }, keyOf: (r: Row) => (calls.name++, r.name) },
  }
}

describe("a long table's sort keys", () => {
  const rows = keyedRows(40_000, 3)

  it('are the keys worked out at once, with a pause every STEP rows', () => {
    const { key } = counted()
    const work = createSortKeys<Row>()(rows, key.column, key.keyOf, undefined)
    let pauses = 0
    for (let i = 0; i < 1000; i++) {
      const step = work.next()
      if (!step.done) {
        pauses++
        continue
      }
      expect(step.value).toEqual(rows.map((r) => r.key))
      break
    }
    expect(pauses).toBe(Math.floor(rows.length / STEP))
  })

  it("work out no more than the first slice's share in the caller's task, and the order is one stable sort's", async () => {
    // A clock that moves 1 ms every STEP keys: the first slice (6 ms of a 12 ms slice) whatever the machine.
    let clock = 0
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock)
    try {
      let calls = 0
      const keyOf = (r: Row) => {
        if (++calls % STEP === 0) clock += 1
        return r.key
      }
      const keys = createSortKeys<Row>()
      const order = createTableOrder<Row>()
      function* shown(): Sliced<readonly Row[]> {
        const k = yield* keys(rows, { key: 'key' }, keyOf, undefined)
        return yield* order.work(rows, 'key', k, 1)
      }
      const done = new Promise<readonly Row[]>((resolve) => slicedRunner(() => {}, 12).run(shown(), resolve))
      const inCallersTask = calls
      expect(inCallersTask).toBeLessThanOrEqual(7 * STEP)
      const shownRows = await done
      expect(calls).toBe(rows.length)
      const plain = createTableOrder<Row>()(
        rows,
        'key',
        rows.map((r) => r.key),
        1,
      )
      expect(shownRows.map((r) => r.id)).toEqual(plain.map((r) => r.id))
    } finally {
      now.mockRestore()
    }
  })

  it("work each row's key out once across sorts by other columns, and again for new rows or a new version", () => {
    const keys = createSortKeys<Row>()
    const { calls, key, name } = counted()
    const first = runNow(keys(rows, key.column, key.keyOf, 1))
    runNow(keys(rows, name.column, name.keyOf, 1))
    expect(runNow(keys(rows, key.column, key.keyOf, 1))).toBe(first)
    expect(calls).toEqual({ key: rows.length, name: rows.length })
    // What the keys depend on besides the rows changed (a detail list came): worked out again.
    expect(runNow(keys(rows, key.column, key.keyOf, 2))).toEqual(first)
    expect(calls.key).toBe(2 * rows.length)
    const more = [...rows, ...keyedRows(10, 4)]
    expect(runNow(keys(more, key.column, key.keyOf, 2))).toHaveLength(more.length)
    expect(calls.key).toBe(3 * rows.length + 10)
    // Another object for the same column (the columns made again): its own keys.
    runNow(keys(more, { key: 'key' }, key.keyOf, 2))
    expect(calls.key).toBe(3 * rows.length + 10 + more.length)
  })

  it('remember nothing of work left unfinished', () => {
    const keys = createSortKeys<Row>()
    const { calls, key } = counted()
    const left = keys(rows, key.column, key.keyOf, undefined)
    for (let i = 0; i < 3; i++) left.next()
    expect(runNow(keys(rows, key.column, key.keyOf, undefined))).toEqual(rows.map((r) => r.key))
    expect(calls.key).toBe(3 * STEP + rows.length)
  })
})
