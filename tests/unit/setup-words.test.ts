/**
 * The setup scripts speak from the app's catalogue: scripts/setup-words.json holds exactly the
 * catalogue's `setup.*` texts in both languages (the scripts run before anything is installed and
 * read that copy), and every text a script asks for is there.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { setupWords } from '../../scripts/setup-words-of'

const copy = z
  .record(z.enum(['en', 'ja']), z.record(z.string(), z.string()))
  .parse(JSON.parse(readFileSync('scripts/setup-words.json', 'utf8')))

describe('the setup scripts’ words', () => {
  it('are the catalogue’s, in both languages (run npx tsx scripts/setup-words-write.ts after changing one)', () => {
    expect(copy).toEqual(setupWords())
  })

  it('hold every text a script asks for', () => {
    for (const script of ['check-node.mjs', 'fetch-electron.mjs', 'start.mjs']) {
      const asked = [...readFileSync(`scripts/${script}`, 'utf8').matchAll(/say\('([\w.]+)'/g)].map((m) => m[1]!)
      expect(asked.length, script).toBeGreaterThan(0)
      for (const key of asked) expect(Object.keys(setupWords().ja), `${script}: ${key}`).toContain(key)
    }
  })
})
