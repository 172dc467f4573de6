/**
 * The window's first script, as built (npm test builds before the suites): the entry chunk and
 * every chunk it imports statically. It stays small, so the first screen paints at once, and no
 * validation library rides in it: zod (about 25 KB gzip) belongs to the screens that validate
 * forms, loaded with them. zod marks every error class with the name "ZodError", which survives
 * minification.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gz, initialChunks } from '../../support/bundle-chunks'

const renderer = resolve('out/renderer')

function firstScript(): string[] {
  const html = join(renderer, 'index.html')
  if (!existsSync(html)) throw new Error('No build in out/: run `npm run build` first (npm test does).')
  const entry = /<script[^>]+src="\.?\/?([^"]+\.js)"/.exec(readFileSync(html, 'utf8'))?.[1]
  if (!entry) throw new Error('out/renderer/index.html names no script')
  return initialChunks(join(renderer, entry))
}

describe("the window's first script", () => {
  it('is at most 60 KB gzip', () => {
    const total = firstScript().reduce((n, f) => n + gz(f), 0)
    expect(total).toBeGreaterThan(10 * 1024)
    expect(total).toBeLessThanOrEqual(60 * 1024)
  })

  it('holds no validation library', () => {
    const withZod = firstScript().filter((f) => readFileSync(f, 'utf8').includes('ZodError'))
    expect(withZod).toEqual([])
    // The marker is real: a chunk loaded later (the forms' schemas) carries it.
    const assets = join(renderer, 'assets')
    const later = readdirSync(assets).filter(
      (f) => f.endsWith('.js') && readFileSync(join(assets, f), 'utf8').includes('ZodError'),
    )
    expect(later.length).toBeGreaterThan(0)
  })
})
