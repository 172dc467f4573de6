/**
 * Main's log when the console it prints to goes away (the terminal closed, the reader of a pipe
 * ended): every line still reaches the file, nothing more is printed, and a failed print is not
 * an uncaught exception, which main's handler logged to the console again, failing again, for
 * ever at full CPU (found as test hosts left running at 100 % after their runner was killed).
 */
import { fork } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('the log with its console gone', () => {
  it('keeps every line in its file, stops printing, and raises nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-gone-'))
    dirs.push(dir)
    const child = fork(resolve('tests/helpers/console-gone-child.ts'), [dir], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    const exited = new Promise<number | null>((r) => child.once('exit', r))
    try {
      await new Promise<void>((r) => child.once('message', () => r()))
      // The console's reader ends: both pipes closed before the child writes to them.
      child.stdout?.destroy()
      child.stderr?.destroy()
      const done = new Promise<'done'>((r) => child.once('message', () => r('done')))
      child.send('go')
      // Bounded: without the fix the child never gets here, busy logging its own failures.
      const outcome = await Promise.race([
        done,
        exited.then(() => 'exited' as const),
        new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), 30_000)),
      ])
      expect(outcome).toBe('done')
      expect(await exited).toBe(0)
      const lines = readFileSync(join(dir, 'main.log'), 'utf8').split('\n').filter(Boolean)
      expect(lines.filter((l) => l.includes('test.line'))).toHaveLength(5)
      expect(lines.filter((l) => l.includes('test.failure'))).toHaveLength(5)
      expect(lines.filter((l) => l.includes('main.uncaught'))).toEqual([])
    } finally {
      child.kill('SIGKILL')
    }
  }, 60_000)
})
