/**
 * What a process of the command decided to wait (asked-waits.boot.mjs records it): the waits
 * a run asked for, in milliseconds, in order.
 */
import { mkdtempSync, readFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BOOT = fileURLToPath(new URL('./asked-waits.boot.mjs', import.meta.url))

/** The environment that records a run's waits, and the reading of them once it has ended. */
export function recordWaits(): { env: NodeJS.ProcessEnv; asked(): number[] } {
  const file = join(mkdtempSync(join(tmpdir(), 'asked-waits-')), 'waits.txt')
  return {
    env: { NODE_OPTIONS: `--import ${BOOT}`, HOSTING_ADMIN_TEST_WAITS: file },
    asked: () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : []),
  }
}
