/**
 * How a kept list is cut into the parts it is carried to the window in (store/list-parts.ts): a list of
 * STORED_PART_SIZE or fewer in one part, a longer one in a small first part (what the first paint draws
 * from) and then parts of STORED_PART_SIZE, the parts together the whole list in its order.
 */
import { describe, expect, it } from 'vitest'
import { STORED_FIRST_PART_SIZE, STORED_PART_SIZE, STORED_PARTS_MAX } from '@shared/portfolio'
import { createListParts, type WholeList } from '../../src/main/store/list-parts'

const listOf = (n: number): WholeList<number> => ({
  items: Array.from({ length: n }, (_, i) => i),
  readAt: '2026-11-30T00:00:00.000Z',
  complete: true,
  skipped: 0,
})

/** Every part of the list, asked one after another from the first, as the window asks. */
function allParts(list: WholeList<number>) {
  const parts = createListParts<number>()
  const first = parts.part('k', 0, () => list)
  if (!first) throw new Error('no first part')
  const rest = Array.from({ length: first.parts - 1 }, (_, i) => parts.part('k', i + 1, () => undefined))
  return [first, ...rest].map((p) => {
    if (!p) throw new Error('a part did not come')
    return p
  })
}

describe('a kept list cut in parts', () => {
  it.each([0, 1, STORED_PART_SIZE])('of %i items is one part, the whole list', (n) => {
    const parts = allParts(listOf(n))
    expect(parts.map((p) => [p.part, p.parts, p.items.length])).toEqual([[0, 1, n]])
  })

  it('longer: a first part of STORED_FIRST_PART_SIZE, then parts of STORED_PART_SIZE, the last what is left', () => {
    expect(STORED_FIRST_PART_SIZE).toBeLessThan(STORED_PART_SIZE)
    const sizes = (n: number) => allParts(listOf(n)).map((p) => p.items.length)
    const F = STORED_FIRST_PART_SIZE
    const S = STORED_PART_SIZE
    expect(sizes(S + 1)).toEqual([F, S + 1 - F])
    expect(sizes(F + S)).toEqual([F, S])
    expect(sizes(F + S + 1)).toEqual([F, S, 1])
    expect(sizes(4500)).toEqual([F, S, 4500 - F - S])
    expect(sizes(100_000)).toEqual([F, ...Array<number>(49).fill(S), 100_000 - F - 49 * S])
  })

  it.each([STORED_PART_SIZE + 1, 4500, 10_000, 100_001])('of %i items: its parts are the whole list in order', (n) => {
    const list = listOf(n)
    const parts = allParts(list)
    expect(parts.every((p, i) => p.part === i && p.parts === parts.length)).toBe(true)
    expect(parts.flatMap((p) => p.items)).toEqual(list.items)
  })

  it('is never more than STORED_PARTS_MAX parts: the last then holds all that is left', () => {
    const n = STORED_FIRST_PART_SIZE + STORED_PARTS_MAX * STORED_PART_SIZE + 7
    const parts = allParts(listOf(n))
    expect(parts).toHaveLength(STORED_PARTS_MAX)
    expect(parts.at(-1)!.items.length).toBe(2 * STORED_PART_SIZE + 7)
    expect(parts.reduce((sum, p) => sum + p.items.length, 0)).toBe(n)
  })

  it('answers no items for a part past the last, whether the list is of one part or more', () => {
    for (const n of [10, STORED_PART_SIZE, 4500]) {
      const list = listOf(n)
      const parts = createListParts<number>()
      const count = parts.part('k', 0, () => list)!.parts
      expect(parts.part('k', count + 1, () => list)?.items).toEqual([])
    }
  })
})
