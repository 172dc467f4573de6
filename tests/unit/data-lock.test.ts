/**
 * The data folder's lock on a real folder: one process at a time, its own lock free to it,
 * a dead holder's lock taken over, and a folder it cannot be written in run unlocked.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { acquireDataLock, lockFileOf } from '../../src/main/data-lock'

const folder = () => mkdtempSync(join(tmpdir(), 'data-lock-'))
const holder = (pid: number) => JSON.stringify({ pid, host: hostname(), who: 'app', since: '2026-11-25T00:00:00.000Z' })

describe('the data folder lock', () => {
  it('is written with the holder, taken again by its own process, and removed on release', async () => {
    const dir = folder()
    const first = await acquireDataLock(dir, 'cli')
    expect(first.ok).toBe(true)
    expect(JSON.parse(readFileSync(lockFileOf(dir), 'utf8'))).toMatchObject({ pid: process.pid, who: 'cli' })
    const again = await acquireDataLock(dir, 'app')
    expect(again.ok).toBe(true)
    if (first.ok) await first.lock.release()
    expect(existsSync(lockFileOf(dir))).toBe(false)
  })

  it('is refused while another running process holds it', async () => {
    const dir = folder()
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    try {
      writeFileSync(lockFileOf(dir), holder(other.pid!))
      expect(await acquireDataLock(dir, 'cli')).toMatchObject({ ok: false, heldBy: { pid: other.pid, who: 'app' } })
    } finally {
      other.kill()
    }
  })

  it('is waited for while the command line holds it, and taken once it lets go; the app is not waited for', async () => {
    const dir = folder()
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    try {
      writeFileSync(lockFileOf(dir), JSON.stringify({ pid: other.pid, host: hostname(), who: 'cli', since: '2026-11-25T00:00:00.000Z' }))
      let waits = 0
      // The command ends while the app waits: its lock file goes.
      const taken = await acquireDataLock(dir, 'app', { waitForCliMs: 60_000, pollMs: 10, onWait: () => waits++ === 0 && unlinkSync(lockFileOf(dir)) })
      expect(taken.ok).toBe(true)
      expect(waits).toBe(1)
      writeFileSync(lockFileOf(dir), holder(other.pid!))
      expect(await acquireDataLock(dir, 'cli', { waitForCliMs: 60_000 })).toMatchObject({ ok: false, heldBy: { who: 'app' } })
    } finally {
      other.kill()
    }
  })

  it('is taken over from a holder that no longer runs, or from a torn file', async () => {
    const dir = folder()
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
    await new Promise((r) => gone.on('exit', r))
    writeFileSync(lockFileOf(dir), holder(gone.pid!))
    expect((await acquireDataLock(dir, 'cli')).ok).toBe(true)
    expect(JSON.parse(readFileSync(lockFileOf(dir), 'utf8'))).toMatchObject({ pid: process.pid })
    const torn = folder()
    writeFileSync(lockFileOf(torn), '{"pid": 12')
    expect((await acquireDataLock(torn, 'cli')).ok).toBe(true)
  })

  it('runs unlocked where the lock cannot be written (no journal there either), saying why', async () => {
    // A file where the folder should be: refused whoever runs the test (root included, which a read-only mode would not stop).
    const file = join(folder(), 'not-a-folder')
    writeFileSync(file, '')
    expect(await acquireDataLock(file, 'app')).toMatchObject({ ok: true, unkept: 'ENOTDIR' })
  })
})
