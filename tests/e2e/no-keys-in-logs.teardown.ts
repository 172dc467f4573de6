/**
 * After the whole end-to-end run: the app's log of every test holds no key. Checked against
 * every key any test's app was told of (typed in, read from the keychain, the sandboxes' own),
 * and against the shape of the sandbox and demo keys, should one have reached a log unannounced.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { expect, test } from '@playwright/test'
import { E2E_LOG_ROOT } from './harness'

const KEY_SHAPES = [/sbx_(?:full|ro)_[0-9a-f]{32}/, /demo_[0-9a-f]{48}/]

test('no log of the run holds an API key', () => {
  const runs = existsSync(E2E_LOG_ROOT) ? readdirSync(E2E_LOG_ROOT) : []
  expect(runs.length, 'no test wrote a log: the check would prove nothing').toBeGreaterThan(0)
  const keys = new Set<string>()
  let lines = 0
  const logs: { file: string; text: string }[] = []
  for (const run of runs) {
    const dir = join(E2E_LOG_ROOT, run)
    const keysFile = join(dir, 'keys.json')
    if (existsSync(keysFile)) for (const k of z.array(z.string()).parse(JSON.parse(readFileSync(keysFile, 'utf8')))) keys.add(k)
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.log'))) {
      const text = readFileSync(join(dir, f), 'utf8')
      lines += text.split('\n').filter(Boolean).length
      logs.push({ file: join(run, f), text })
    }
  }
  expect(keys.size, 'no key was recorded: the check would prove nothing').toBeGreaterThan(0)
  expect(lines).toBeGreaterThan(0)
  for (const { file, text } of logs) {
    for (const key of keys) expect(text.includes(key), `${file} holds a key`).toBe(false)
    for (const shape of KEY_SHAPES) expect(shape.test(text), `${file} holds something shaped like a key`).toBe(false)
  }
})
