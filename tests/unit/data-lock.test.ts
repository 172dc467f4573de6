/**
 * The data folder's lock on a real folder, held by real processes: one process at a time, its
 * own lock free to it (but its journal written by the first taking only), a holder killed with
 * kill -9 leaves the folder free at once, a holder file nobody's lock stands behind (a dead
 * holder, a torn file, a live but unrelated process) is stale, and a folder it cannot be
 * written in runs unlocked.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  acquireDataLock,
  currentHolder,
  lockDatabaseOf,
  lockFileOf,
  type DataLock,
} from '../../src/main/base/data-lock'
import { Journal } from '../../src/main/jobs/ledger/journal-file'
import { startLockChild, type LockChild } from '../helpers/child-processes'

const folder = () => mkdtempSync(join(tmpdir(), 'data-lock-'))
const holder = (pid: number) => JSON.stringify({ pid, host: hostname(), who: 'app', since: '2026-11-25T00:00:00.000Z' })

const children: LockChild[] = []
const child = async (dir: string, who: 'app' | 'cli') => {
  const c = await startLockChild(dir, who)
  children.push(c)
  return c
}
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.kill9()))
})

describe('the data folder lock', () => {
  it('is written with the holder, taken again by its own process, and removed on release', async () => {
    const dir = folder()
    const first = await acquireDataLock(dir, 'cli')
    expect(first.ok).toBe(true)
    expect(JSON.parse(readFileSync(lockFileOf(dir), 'utf8'))).toMatchObject({ pid: process.pid, who: 'cli' })
    expect(statSync(lockFileOf(dir)).mode & 0o777).toBe(0o600)
    expect(statSync(lockDatabaseOf(dir)).mode & 0o777).toBe(0o600)
    const again = await acquireDataLock(dir, 'app')
    expect(again).toMatchObject({ ok: true, reentered: true })
    if (first.ok) await first.lock.release()
    expect(existsSync(lockFileOf(dir))).toBe(false)
  })

  it('is refused while another running process holds it, and says who', async () => {
    const dir = folder()
    const other = await child(dir, 'app')
    expect(await other.ask('take', 'took')).toMatchObject({ ok: true })
    expect(await acquireDataLock(dir, 'cli')).toMatchObject({ ok: false, heldBy: { pid: other.pid, who: 'app' } })
    expect(await currentHolder(dir)).toMatchObject({ pid: other.pid, who: 'app' })
  })

  it('is waited for while the command line holds it, and taken once it lets go; the app is not waited for', async () => {
    const dir = folder()
    const cli = await child(dir, 'cli')
    expect(await cli.ask('take', 'took')).toMatchObject({ ok: true })
    let waits = 0
    // The command ends while the app waits: its lock goes.
    const taken = await acquireDataLock(dir, 'app', {
      waitForCliMs: 60_000,
      pollMs: 10,
      onWait: () => waits++ === 0 && cli.process.stdin!.write('release\n'),
    })
    expect(taken.ok).toBe(true)
    expect(waits).toBeGreaterThanOrEqual(1)
    if (taken.ok) await taken.lock.release()
    const app = await child(dir, 'app')
    expect(await app.ask('take', 'took')).toMatchObject({ ok: true })
    let waitedForApp = 0
    expect(await acquireDataLock(dir, 'cli', { waitForCliMs: 60_000, onWait: () => waitedForApp++ })).toMatchObject({
      ok: false,
      heldBy: { who: 'app', pid: app.pid },
    })
    // Not waited for: refused at once, without one wait (a command holder is waited for, above).
    expect(waitedForApp).toBe(0)
  })

  it('is free the moment its holder is killed (kill -9): no file to delete, whatever the file says', async () => {
    const dir = folder()
    const crashed = await child(dir, 'app')
    expect(await crashed.ask('take', 'took')).toMatchObject({ ok: true })
    await crashed.kill9()
    // The crash left its holder file behind; the kernel let its lock go.
    expect(JSON.parse(readFileSync(lockFileOf(dir), 'utf8'))).toMatchObject({ pid: crashed.pid })
    expect(await currentHolder(dir)).toBeUndefined()
    const next = await child(dir, 'cli')
    expect(await next.ask('take', 'took')).toMatchObject({ ok: true })
    expect(JSON.parse(readFileSync(lockFileOf(dir), 'utf8'))).toMatchObject({ pid: next.pid, who: 'cli' })
  })

  it('is not blocked by a holder file naming a process that runs but holds no lock (a reused pid)', async () => {
    const dir = folder()
    const unrelated = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    try {
      for (const pid of [unrelated.pid!, process.ppid]) {
        writeFileSync(lockFileOf(dir), holder(pid))
        expect(await currentHolder(dir)).toBeUndefined()
        const taken = await acquireDataLock(dir, 'cli', { waitForCliMs: 0 })
        expect(taken.ok).toBe(true)
        expect(JSON.parse(readFileSync(lockFileOf(dir), 'utf8'))).toMatchObject({ pid: process.pid })
        if (taken.ok) await taken.lock.release()
      }
    } finally {
      unrelated.kill()
    }
  })

  it('is taken over from a holder that no longer runs, or from a torn file', async () => {
    const dir = folder()
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
    await new Promise((r) => gone.on('exit', r))
    writeFileSync(lockFileOf(dir), holder(gone.pid!))
    const taken = await acquireDataLock(dir, 'cli')
    expect(taken.ok).toBe(true)
    expect(JSON.parse(readFileSync(lockFileOf(dir), 'utf8'))).toMatchObject({ pid: process.pid })
    if (taken.ok) await taken.lock.release()
    const torn = folder()
    writeFileSync(lockFileOf(torn), '{"pid": 12')
    const tornTaken = await acquireDataLock(torn, 'cli')
    expect(tornTaken.ok).toBe(true)
    if (tornTaken.ok) await tornTaken.lock.release()
  })

  it('is asked about without being made: a folder never held has no holder and gets no file', async () => {
    const dir = folder()
    expect(await currentHolder(dir)).toBeUndefined()
    expect(readdirSync(dir)).toEqual([])
  })

  it('runs unlocked where the lock cannot be written (no journal there either), saying why', async () => {
    // A file where the folder should be: refused whoever runs the test (root included, which a read-only mode would not stop).
    const file = join(folder(), 'not-a-folder')
    writeFileSync(file, '')
    const r = await acquireDataLock(file, 'app')
    expect(r).toMatchObject({ ok: true, unkept: 'ENOTDIR' })
    if (r.ok) expect(r.lock.notWriterReason()).toBe('ENOTDIR')
  })
})

describe('the journal of a held folder', () => {
  const job = (id: string) => ({
    t: 'job' as const,
    job: {
      id,
      accountId: 'a',
      accountName: 'A',
      operation: 'domains.dns.set' as const,
      confirm: false,
      status: 'done' as const,
      createdAt: '2026-11-25T00:00:00.000Z',
      concurrency: 1,
      items: [],
    },
  })
  const taken = async (dir: string): Promise<{ lock: DataLock; reentered: boolean }> => {
    const r = await acquireDataLock(dir, 'app')
    if (!r.ok) throw new Error('held elsewhere')
    return { lock: r.lock, reentered: r.reentered ?? false }
  }

  it('is written by the first taking only: services opened again in the process neither append to it nor rewrite it', async () => {
    const dir = folder()
    const file = join(dir, 'journal.jsonl')
    const first = await taken(dir)
    const second = await taken(dir)
    expect(second.reentered).toBe(true)
    const writer = new Journal(file, first.lock)
    const other = new Journal(file, second.lock)
    await writer.append(job('one'))
    await expect(other.compact([])).rejects.toMatchObject({ code: 'EBUSY' })
    await expect(other.append(job('two'))).rejects.toMatchObject({ code: 'EBUSY' })
    await writer.append(job('three'))
    expect((await new Journal(file, first.lock).load()).map((j) => j.id)).toEqual(['one', 'three'])
    // Let go: not even its first taker writes it any more.
    await writer.close()
    await first.lock.release()
    await expect(writer.append(job('four'))).rejects.toMatchObject({ code: 'EBUSY' })
  })
})
