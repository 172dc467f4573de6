/**
 * What the app loads before its first screen, from the built output (npm run build first):
 * the renderer's entry script and every chunk it imports statically, gzip-compressed; and the
 * preload and main bundles as built. Targets: initial renderer JS <= 60 KB gzip, preload <= 12 KB
 * (tests/integration/first-script.test.ts holds the first to that, and keeps validation out of it).
 */
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { BenchResult } from './report'
import { gz, initialChunks } from '../support/bundle-chunks'

const OUT = resolve('out')
const KB = 1024

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`

export async function benchBundleSize(): Promise<BenchResult> {
  const html = join(OUT, 'renderer', 'index.html')
  if (!existsSync(html)) throw new Error('No build in out/: run `npm run build` first.')
  const entrySrc = /<script[^>]+src="\.?\/?([^"]+\.js)"/.exec(readFileSync(html, 'utf8'))?.[1]
  if (!entrySrc) throw new Error('out/renderer/index.html names no script')
  const chunks = initialChunks(join(OUT, 'renderer', entrySrc))
  const initialRaw = chunks.reduce((n, f) => n + statSync(f).size, 0)
  const initialGz = chunks.reduce((n, f) => n + gz(f), 0)
  const allJs = readdirSync(join(OUT, 'renderer', 'assets')).filter((f) => f.endsWith('.js'))
  const preload = statSync(join(OUT, 'preload', 'index.cjs')).size
  const main = statSync(join(OUT, 'main', 'index.js')).size
  return {
    name: 'built bundles',
    lines: [
      `initial renderer JS:  ${kb(initialGz)} gzip (${kb(initialRaw)} minified, ${chunks.length} file${chunks.length === 1 ? '' : 's'})  (target <= 60 KB gzip)`,
      `renderer JS in all:   ${allJs.length} files, the rest loaded with the screens that need them`,
      `preload:              ${kb(preload)}  (target <= 12 KB)`,
      `main:                 ${kb(main)} (the sandbox in its own chunk, loaded with the demo account)`,
    ],
    ok: initialGz <= 60 * KB && preload <= 12 * KB,
  }
}
