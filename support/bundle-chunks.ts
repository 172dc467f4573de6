/**
 * The renderer's first script as the built output has it: the entry chunk with every chunk it
 * imports statically, and their gzip sizes. Measured by the bench (bench/bundle-size.ts) and held
 * to its target by a test (tests/integration/first-script.test.ts).
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'

/** The entry chunk and its static imports (`import ... from "./x.js"`, `import "./x.js"`), not `import("./x.js")`. */
export function initialChunks(entry: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.\/[^"']+\.js)["']/g))
      visit(join(dirname(file), m[1]!))
  }
  visit(entry)
  return [...seen]
}

export const gz = (file: string): number => gzipSync(readFileSync(file), { level: 9 }).length
