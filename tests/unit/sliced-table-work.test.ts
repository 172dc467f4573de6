/**
 * A long table's order and filter worked out in slices (src/renderer/src/lib/sliced.ts, the
 * table's sorter's `work`): on a few thousand rows, more than one of the sorter's runs, the
 * same rows in the same order as one stable sort and one filter of them, however the work is cut,
 * and a newer piece of work replaces an older one whose result is then never shown.
 */
import { describe, expect, it, vi } from 'vitest'
import { keyedRows, type KeyedRow } from '../helpers/keyed-rows'
import { createTableOrder, type SortKey } from '../../src/renderer/src/lib/table-order'
import { filterSliced, runNow, slicedRunner, STEP, type Sliced } from '../../src/renderer/src/lib/sliced'

type Row = KeyedRow

/** The plain order: one stable sort of the rows, numbers before text ascending. */
function sortedOnce(rows: readonly Row[], dir: 1 | -1): Row[] {
  return [...rows].sort((a, b) => {
    if (typeof a.key !== typeof b.key) return (typeof a.key === 'number' ? -1 : 1) * dir
    return a.key < b.key ? -dir : a.key > b.key ? dir : 0
  })
}

const ids = (rows: readonly Row[]) => rows.map((r) => r.id)

/** Runs work through a runner one step a slice, each slice its own task; resolves with the result and the slice count. */
function inSlices<T>(work: Sliced<T>): Promise<{ value: T; busySeen: boolean }> {
  return new Promise((resolve) => {
    let busySeen = false
    const runner = slicedRunner((busy) => (busySeen ||= busy), 0)
    runner.run(work, (value) => resolve({ value, busySeen }))
  })
}

describe('a long table worked out in slices', () => {
  const rows = keyedRows(9000, 5)
  const keys = rows.map((r) => r.key)

  it('orders the rows as one stable sort does, in either direction, cut into slices or not', async () => {
    for (const dir of [1, -1] as const) {
      const plain = ids(sortedOnce(rows, dir))
      expect(ids(createTableOrder<Row>()(rows, 'key', keys, dir)), `at once ${dir}`).toEqual(plain)
      const sliced = await inSlices(createTableOrder<Row>().work(rows, 'key', keys, dir))
      expect(sliced.busySeen, 'the work went on past its first slice').toBe(true)
      expect(ids(sliced.value), `in slices ${dir}`).toEqual(plain)
    }
  })

  it('orders a list too long for one native sort (its runs merged) as one stable sort does, cut into slices', async () => {
    const long = keyedRows(40_000, 9)
    const longKeys = long.map((r) => r.key)
    for (const dir of [1, -1] as const) {
      const sliced = await inSlices(createTableOrder<Row>().work(long, 'key', longKeys, dir))
      expect(ids(sliced.value), `in slices ${dir}`).toEqual(ids(sortedOnce(long, dir)))
    }
  })

  it('gives the remembered order for the other direction and after another column, sliced', async () => {
    const order = createTableOrder<Row>()
    const names = rows.map((r) => r.name)
    await inSlices(order.work(rows, 'key', keys, 1))
    await inSlices(order.work(rows, 'name', names, -1))
    const down = await inSlices(order.work(rows, 'key', keys, -1))
    expect(ids(down.value)).toEqual(ids(sortedOnce(rows, -1)))
  })

  it('filters the ordered rows as one filter does', async () => {
    const ordered = createTableOrder<Row>()(rows, 'key', keys, 1)
    const match = (r: Row) => r.name.includes('zen') || r.key === 7
    const plain = ordered.filter(match)
    expect(plain.length).toBeGreaterThan(100)
    expect(ids(runNow(filterSliced(ordered, match)))).toEqual(ids(plain))
    expect(ids((await inSlices(filterSliced(ordered, match))).value)).toEqual(ids(plain))
  })

  it('never shows the result of work a newer one replaced', async () => {
    const shown: string[] = []
    const runner = slicedRunner(() => {}, 0)
    const order = createTableOrder<Row>()
    const done = new Promise<void>((resolve) => {
      runner.run(order.work(rows, 'key', keys, 1), () => shown.push('older'))
      runner.run(
        filterSliced(rows, (r) => r.id % 2 === 0),
        (v) => {
          shown.push(`newer ${v.length}`)
          resolve()
        },
      )
    })
    await done
    // The older work's slices stopped when the newer came: a task more for it to have shown anything.
    await new Promise((r) => setTimeout(r, 0))
    expect(shown).toEqual([`newer ${rows.length / 2}`])
  })
})

describe('slices that stay short', () => {
  it("applies a long work's result in a task after its last slice, not on top of it", async () => {
    let afterLastStep = false
    function* work(): Sliced<string> {
      for (let i = 0; i < 3; i++) yield
      // Runs once the task of the last step is over: before `apply` only if that is another task.
      queueMicrotask(() => (afterLastStep = true))
      return 'done'
    }
    const applied = await new Promise<boolean>((resolve) =>
      slicedRunner(() => {}, 0).run(work(), () => resolve(afterLastStep)),
    )
    expect(applied).toBe(true)
  })

  it('takes the rows in their new order a few thousand at a time', () => {
    const plain = keyedRows(40_000, 11)
    // The rows as the sorter sees them, each row it takes counted.
    let taken = 0
    const rows = new Proxy(plain, {
      get: (target, p, receiver): unknown => {
        if (typeof p === 'string' && /^\d+$/.test(p)) taken++
        return Reflect.get(target, p, receiver)
      },
    })
    const work = createTableOrder<Row>().work(
      rows,
      'key',
      plain.map((r) => r.key),
      1,
    )
    let most = 0
    for (let i = 0; i < 10_000; i++) {
      taken = 0
      const step = work.next()
      most = Math.max(most, taken)
      if (!step.done) continue
      expect(ids(step.value)).toEqual(ids(sortedOnce(plain, 1)))
      break
    }
    expect(most).toBeLessThanOrEqual(STEP)
  })

  it('pauses inside a run of equal keys when ordering the other way', () => {
    const rows = keyedRows(20_000, 7)
    // A column whose rows all show the same value: one run of equal keys.
    const same: SortKey[] = rows.map(() => 'registrar')
    const order = createTableOrder<Row>()
    order(rows, 'key', same, 1)
    // The ascending order is remembered: the work is the descending one alone.
    const work = order.work(rows, 'key', same, -1)
    let steps = 0
    for (let i = 0; i < 1000; i++) {
      steps++
      const step = work.next()
      if (!step.done) continue
      expect(ids(step.value)).toEqual(ids(rows))
      break
    }
    // A pause every STEP rows, at least: the run's rows are looked at and then taken.
    expect(steps).toBeGreaterThan(rows.length / STEP)
  })
})

describe('the first slice, in the caller’s task', () => {
  it('runs half as long as the slices after it', async () => {
    // A clock that moves 1 ms at each step of the work: the slices' lengths in steps, whatever the machine.
    let clock = 0
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock)
    try {
      // A slice's steps run in one go: a microtask queued at its first step runs once it is over.
      const slices: number[] = []
      let inSlice = false
      function* work(): Sliced<number> {
        for (let i = 0; i < 60; i++) {
          if (!inSlice) {
            inSlice = true
            slices.push(0)
            queueMicrotask(() => (inSlice = false))
          }
          clock += 1
          slices[slices.length - 1]!++
          yield
        }
        return slices.length
      }
      await new Promise<number>((resolve) => slicedRunner(() => {}, 12).run(work(), resolve))
      expect(slices[0]).toBe(6)
      expect(slices.slice(1, 3)).toEqual([12, 12])
    } finally {
      now.mockRestore()
    }
  })
})
