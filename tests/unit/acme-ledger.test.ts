/**
 * The ACME hooks' record of the lines they added, on a real folder: hooks of several certbot
 * runs at once (the app open, so no data-folder lock between them) note and forget their lines
 * at the same moment, and none is lost; a line noted by an earlier version's one list is found.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { forget, noteAdded, wasAdded } from '../../src/cli/acme-ledger'

const lineOf = (i: number) => ({ accountId: 'a1', domain: 'example.com', line: `txt _acme-challenge value-${i}` })

describe('the ACME ledger', () => {
  it('twenty hooks noting at once: every line is kept; twenty forgetting at once: none is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acme-ledger-'))
    const all = Array.from({ length: 20 }, (_, i) => lineOf(i))
    await Promise.all(all.map((l) => noteAdded(dir, { ...l, at: new Date().toISOString() })))
    expect(await Promise.all(all.map((l) => wasAdded(dir, l)))).toEqual(all.map(() => true))
    await Promise.all(all.slice(0, 10).map((l) => forget(dir, l)))
    expect(await Promise.all(all.map((l) => wasAdded(dir, l)))).toEqual(all.map((_, i) => i >= 10))
    await Promise.all(all.map((l) => forget(dir, l)))
    expect(readdirSync(join(dir, 'acme-added'))).toEqual([])
  })

  it('a line an earlier version noted in acme-added.json is found, and forgotten there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acme-ledger-'))
    writeFileSync(
      join(dir, 'acme-added.json'),
      JSON.stringify({
        version: 1,
        added: [
          { ...lineOf(1), at: '2026-01-01T00:00:00Z' },
          { ...lineOf(2), at: '2026-01-01T00:00:00Z' },
        ],
      }),
    )
    expect(await wasAdded(dir, lineOf(1))).toBe(true)
    await forget(dir, lineOf(1))
    expect(await wasAdded(dir, lineOf(1))).toBe(false)
    expect(await wasAdded(dir, lineOf(2))).toBe(true)
  })
})
