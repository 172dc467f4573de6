import { describe, expect, it } from 'vitest'
import { chipCounts } from '../../src/renderer/src/components/chip-counts'

describe('chipCounts', () => {
  it('counts the items of each value, and names no value that has none', () => {
    const rows: { s: 'bad' | 'warn' | 'info' }[] = [{ s: 'bad' }, { s: 'warn' }, { s: 'bad' }, { s: 'bad' }]
    const counts = chipCounts(rows, (r) => r.s)
    expect([...counts]).toEqual([
      ['bad', 3],
      ['warn', 1],
    ])
    expect(counts.has('info')).toBe(false)
  })

  it('counts nothing in no items', () => {
    expect(chipCounts([], (r: { s: string }) => r.s).size).toBe(0)
  })
})
