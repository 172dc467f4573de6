/**
 * A prepared zone save waiting for its confirmation holds what it will send and the zone it was
 * planned from, once: not a copy for sending and another for the view (a bulk change of 24 large
 * zones held them twice over). Measured in a process of its own, after full garbage collections.
 */
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

describe('a prepared bulk zone save', () => {
  it('holds its records once until it is started or discarded, and nothing after a discard', () => {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', resolve('tests/helpers/prepared-memory-child.ts')],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    )
    const m = z
      .object({ sentChars: z.number(), held: z.number(), afterDiscard: z.number() })
      .parse(JSON.parse(out.trim().split('\n').at(-1) ?? ''))
    // One byte per character (ASCII strings); twice over is 1.5 or more.
    expect(m.held / m.sentChars).toBeLessThan(1.25)
    expect(m.afterDiscard / m.sentChars).toBeLessThan(0.1)
  }, 120_000)
})
