/**
 * One process at a time uses a data folder's journal and job runner: the app for as long as it
 * runs, the `hosting-admin` command for as long as one command runs. The runner's start reads
 * the journal and settles every job it finds running as cut off, so a second process starting
 * beside a running one would mark the first one's writes as interrupted and rewrite the journal
 * under it. The lock is a file made with O_EXCL (`in-use.lock`: the holder's pid, host and
 * kind); a lock whose holder no longer runs on this machine is taken over.
 */
import { open, readFile, unlink } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'

/** The app also writes where the command reaches it (cli-server.ts) and the token it asks for. */
export type LockHolder = { pid: number; host: string; who: 'app' | 'cli'; since: string; socket?: string | undefined; token?: string | undefined }
const holderSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  who: z.enum(['app', 'cli']),
  since: z.string(),
  socket: z.string().max(500).optional(),
  token: z.string().max(200).optional(),
})

export const lockFileOf = (dir: string) => join(dir, 'in-use.lock')

export type DataLock = { release(): Promise<void> }
/** `reentered`: this process held it already (services opened twice, as tests do). */
export type LockAttempt = { ok: true; lock: DataLock; unkept?: string; reentered?: boolean } | { ok: false; heldBy: LockHolder }

/** Whether a process of this machine runs (EPERM: it runs as another user). */
function runs(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return typeof err === 'object' && err !== null && 'code' in err && err.code === 'EPERM'
  }
}

/** Who holds a data folder now: a holder that runs on this machine, else undefined. */
export async function currentHolder(dir: string): Promise<LockHolder | undefined> {
  const holder = await holderOf(lockFileOf(dir))
  return holder && holder.host === hostname() && runs(holder.pid) ? holder : undefined
}

async function holderOf(file: string): Promise<LockHolder | undefined> {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(await readFile(file, 'utf8')))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

export interface LockWaitOptions {
  /**
   * How long to wait for a lock the command line holds: its commands hold it for one short read
   * or save (an updater or an ACME hook lets it go while it waits), so a start that meets one
   * waits for it instead of failing. The app holds it for as long as it runs: never waited for.
   */
  waitForCliMs?: number
  pollMs?: number
  now?: () => Date
  /** Told each time the lock is found held by the command line and waited for. */
  onWait?: (holder: LockHolder) => void
  /** The app's door for the command (written into the lock file, which only the user can read). */
  door?: { socket: string; token: string }
}

/**
 * Takes the folder's lock. This process's own lock counts as free (services opened again in
 * one process, as the tests do); a holder of another machine (a shared folder) counts as
 * holding it.
 */
export async function acquireDataLock(dir: string, who: LockHolder['who'], opts: LockWaitOptions = {}): Promise<LockAttempt> {
  const until = Date.now() + (opts.waitForCliMs ?? 10_000)
  for (;;) {
    const attempt = await tryDataLock(dir, who, opts.now ?? (() => new Date()), opts.door)
    if (attempt.ok || attempt.heldBy.who !== 'cli' || Date.now() >= until) return attempt
    opts.onWait?.(attempt.heldBy)
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 100))
  }
}

async function tryDataLock(dir: string, who: LockHolder['who'], now: () => Date, door: LockWaitOptions['door']): Promise<LockAttempt> {
  const file = lockFileOf(dir)
  const me: LockHolder = { pid: process.pid, host: hostname(), who, since: now().toISOString(), ...door }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600)
      try {
        await handle.writeFile(JSON.stringify(me))
      } finally {
        await handle.close()
      }
      return { ok: true, lock: { release: () => releaseIfMine(file) } }
    } catch (err) {
      const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'unknown'
      // A folder the lock cannot be written in (read-only, full) cannot hold a journal line either,
      // so this process sends no write at all (the journal comes first): it runs unlocked.
      if (code !== 'EEXIST') return { ok: true, lock: { release: async () => undefined }, unkept: code }
    }
    const holder = await holderOf(file)
    if (holder && holder.host === me.host && holder.pid === me.pid) return { ok: true, lock: { release: async () => undefined }, reentered: true }
    if (holder && (holder.host !== me.host || runs(holder.pid))) return { ok: false, heldBy: holder }
    // Its holder is gone (a crash, a kill) or the file is torn: taken over.
    await unlink(file).catch(() => undefined)
  }
  const holder = await holderOf(file)
  return { ok: false, heldBy: holder ?? { pid: 0, host: me.host, who: 'app', since: '' } }
}

async function releaseIfMine(file: string): Promise<void> {
  const holder = await holderOf(file)
  if (holder && holder.pid === process.pid && holder.host === hostname()) await unlink(file).catch(() => undefined)
}
