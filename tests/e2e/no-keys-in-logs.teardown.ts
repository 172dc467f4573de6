/**
 * After the whole end-to-end run: the app's log of every test holds no key. Checked against
 * every key any test's app was told of (typed in, read from the keychain, the sandboxes' own),
 * and against the shape of the sandbox and demo keys, should one have reached a log unannounced.
 *
 * One pattern for all of them (each key escaped, then the shapes), one pass over each log, and
 * one assertion with every finding: the work grows with the size of the logs, not with the
 * number of logs times the number of keys.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { expect, test } from '@playwright/test'
import { E2E_LOG_ROOT } from '../../support/harness'

const KEY_SHAPES = [/sbx_(?:full|ro)_[0-9a-f]{32}/, /demo_[0-9a-f]{48}/]

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Every key as written, then every key shape: one alternation, longest keys first. */
function keyPattern(keys: Iterable<string>): RegExp {
  const literal = [...new Set(keys)]
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map(escape)
  return new RegExp([...literal, ...KEY_SHAPES.map((s) => s.source)].join('|'), 'g')
}

/** Where a log holds a key or something shaped like one: the file, the line and the key's first characters. */
function findKeys(file: string, text: string, pattern: RegExp): string[] {
  const found: string[] = []
  for (const m of text.matchAll(pattern)) {
    const line = text.slice(0, m.index).split('\n').length
    // Never the whole key in the report: enough to tell which one it was.
    found.push(`${file}:${line}: ${m[0].slice(0, 12)}…`)
  }
  return found
}

test('no log of the run holds an API key', () => {
  const runs = existsSync(E2E_LOG_ROOT) ? readdirSync(E2E_LOG_ROOT) : []
  expect(runs.length, 'no test wrote a log: the check would prove nothing').toBeGreaterThan(0)
  const keys = new Set<string>()
  let lines = 0
  const logs: { file: string; text: string }[] = []
  for (const run of runs) {
    const dir = join(E2E_LOG_ROOT, run)
    const keysFile = join(dir, 'keys.json')
    if (existsSync(keysFile))
      for (const k of z.array(z.string()).parse(JSON.parse(readFileSync(keysFile, 'utf8')))) keys.add(k)
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.log'))) {
      const text = readFileSync(join(dir, f), 'utf8')
      lines += text.split('\n').filter(Boolean).length
      logs.push({ file: join(run, f), text })
    }
  }
  expect(keys.size, 'no key was recorded: the check would prove nothing').toBeGreaterThan(0)
  expect(lines).toBeGreaterThan(0)
  const pattern = keyPattern(keys)
  const findings = logs.flatMap(({ file, text }) => findKeys(file, text, pattern))
  expect(
    findings,
    `${findings.length} keys or key-shaped strings in ${logs.length} logs (${keys.size} keys checked)`,
  ).toEqual([])
})
