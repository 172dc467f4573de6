/**
 * One process at a time uses a data folder's journal and job runner: the app for as long as it
 * runs, the `hosting-admin` command for as long as one command runs. The runner's start reads
 * the journal and settles every job it finds running as cut off, and rewrites the journal, so a
 * second process starting beside a running one would mark the first one's writes as interrupted
 * and make its later journal lines vanish (they go to the file the rewrite replaced).
 *
 * The lock is the operating system's: an exclusive SQLite transaction kept open on `in-use.db`
 * for the life of the holder (an fcntl lock on Unix, LockFileEx on Windows). The kernel frees it
 * when the holder ends however it ends (a crash, kill -9), so a dead holder never blocks anyone
 * and a reused process id means nothing; two starters never both get it, as they did when a
 * stale lock file was taken over by whoever looked first. Node has no flock of its own; libsql
 * (SQLite, a Node-API binary the store already loads) has, without a new native dependency.
 *
 * Beside it, `in-use.lock` (0600) says who holds it (pid, host, kind, since, and the app's door
 * for the command, cli-server.ts), written only once the lock is taken. The OS lock is the
 * truth: a holder file nobody's lock stands behind is stale and is ignored.
 *
 * POSIX locks belong to the process and go as soon as it closes ANY descriptor of the file: in a
 * process that holds the lock, `in-use.db` is opened by SQLite alone (SQLite keeps its own
 * descriptors open while it holds a lock), never by plain fs calls.
 */
import { existsSync } from 'node:fs'
import { chmod, open, realpath, rename, unlink } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'libsql'
import { codeOf, holderOf, lockFileOf, runs, type LockHolder } from './lock-holder'

export { lockFileOf, type LockHolder }
/** The file whose OS lock is the folder's lock (empty: only its lock matters). */
export const lockDatabaseOf = (dir: string) => join(dir, 'in-use.db')

/** Why a journal may not be written by this lock's services: another services instance of this process is its writer, or the lock was let go. */
const NOT_THE_WRITER = 'EBUSY'

export type DataLock = {
  release(): Promise<void>
  /**
   * Undefined while this lock's services may write the folder's journal (this process holds the
   * OS lock and this is the taking that got it); otherwise a code saying why not.
   */
  notWriterReason(): string | undefined
  /** Writes the app's door into the holder file, once it listens (cli-server.ts). False when it could not be written. */
  advertiseDoor(door: { socket: string; token: string }): Promise<boolean>
}
/** `reentered`: this process held it already (services opened twice, as tests do). */
export type LockAttempt =
  { ok: true; lock: DataLock; unkept?: string; reentered?: boolean } | { ok: false; heldBy: LockHolder }

/** The locks this process holds, by folder: the OS lock cannot tell this process's takings apart. */
type HeldHere = { db: Database.Database; holder: LockHolder; holderFile: string; released: boolean }
const heldHere = new Map<string, HeldHere>()

/** One key per folder whatever path names it (a link, a trailing slash). */
async function keyOf(dir: string): Promise<string> {
  return realpath(dir).catch(() => resolve(dir))
}

/**
 * Whether another process holds the folder's OS lock: a read needs SQLite's shared lock, which
 * an exclusive holder refuses at once. Never asked for a folder this process holds.
 */
function lockedElsewhere(dir: string): boolean {
  // No lock file, no holder; and SQLite would make one (libsql opens it even when told the file must exist).
  if (!existsSync(lockDatabaseOf(dir))) return false
  let db: Database.Database | undefined
  try {
    db = new Database(lockDatabaseOf(dir), { readonly: true, fileMustExist: true, timeout: 0 })
    db.prepare('SELECT count(*) FROM sqlite_master').get()
    return false
  } catch (err) {
    return codeOf(err).startsWith('SQLITE_BUSY')
  } finally {
    db?.close()
  }
}

/** Who holds a data folder now: the holder whose OS lock stands, else undefined. */
export async function currentHolder(dir: string): Promise<LockHolder | undefined> {
  const here = heldHere.get(await keyOf(dir))
  if (here && !here.released) return here.holder
  if (!lockedElsewhere(dir)) return undefined
  const holder = await holderOf(lockFileOf(dir))
  // Held, and the file names a process that runs: the holder (a file older than the lock, of a
  // crashed holder whose pid was reused, lasts only until the new holder writes its own).
  return holder && holder.host === hostname() && runs(holder.pid) ? holder : undefined
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
  /**
   * A door already listening, written into the holder file (which only the user can read) with
   * the lock. The app itself advertises its door once it listens (DataLock.advertiseDoor).
   */
  door?: { socket: string; token: string }
}

/**
 * Takes the folder's lock. This process's own lock counts as free (services opened again in
 * one process, as the tests do: `reentered`, and that taking may not write the journal); a
 * holder of another machine (a shared folder) counts as holding it.
 */
export async function acquireDataLock(
  dir: string,
  who: LockHolder['who'],
  opts: LockWaitOptions = {},
): Promise<LockAttempt> {
  const until = Date.now() + (opts.waitForCliMs ?? 10_000)
  for (;;) {
    const attempt = await tryDataLock(dir, who, opts.now ?? (() => new Date()), opts.door)
    if (attempt.ok || Date.now() >= until) return attempt
    // A holder not known yet (pid 0) is one that has just taken the lock and writes its file now.
    if (attempt.heldBy.who !== 'cli' && attempt.heldBy.pid !== 0) return attempt
    if (attempt.heldBy.pid !== 0) opts.onWait?.(attempt.heldBy)
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 100))
  }
}

/** Tries for the OS lock a few times: two starters at one instant may each refuse the other once. */
const TAKE_TRIES = 4
const TAKE_PAUSE_MS = 15

async function tryDataLock(
  dir: string,
  who: LockHolder['who'],
  now: () => Date,
  door: LockWaitOptions['door'],
): Promise<LockAttempt> {
  const key = await keyOf(dir)
  const here = heldHere.get(key)
  if (here && !here.released) return { ok: true, lock: reenteredLock(), reentered: true }
  const dbFile = lockDatabaseOf(dir)
  // Made by us, for the user alone, before SQLite opens it (SQLite would make it 0644); it is
  // closed again before the lock is taken, so closing it cannot drop the lock.
  try {
    await (await open(dbFile, 'a', 0o600)).close()
    await chmod(dbFile, 0o600)
  } catch (err) {
    // A folder the lock cannot be made in (read-only, full) cannot hold a journal line either,
    // so this process sends no write at all (the journal comes first): it runs unlocked.
    return unlockedRun(codeOf(err))
  }
  let db: Database.Database | undefined
  for (let attempt = 0; attempt < TAKE_TRIES && !db; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, TAKE_PAUSE_MS + Math.floor(Math.random() * TAKE_PAUSE_MS)))
    const taken = takeOsLock(dbFile)
    if (taken.ok) db = taken.db
    else if (!taken.busy) return unlockedRun(taken.code)
  }
  if (!db) {
    const holder = await holderOf(lockFileOf(dir))
    // The file is the holder's only if it names a process that runs; otherwise the holder has not written it yet.
    return {
      ok: false,
      heldBy:
        holder && (holder.host !== hostname() || runs(holder.pid))
          ? holder
          : { pid: 0, host: hostname(), who: 'app', since: '' },
    }
  }
  const held: HeldHere = {
    db,
    holder: { pid: process.pid, host: hostname(), who, since: now().toISOString(), ...door },
    holderFile: lockFileOf(dir),
    released: false,
  }
  heldHere.set(key, held)
  const lock: DataLock = {
    release: async () => {
      if (held.released) return
      held.released = true
      heldHere.delete(key)
      // The file first, while the lock still stands: a file written by the next holder is never removed.
      await unlink(held.holderFile).catch(() => undefined)
      closeOsLock(held.db)
    },
    notWriterReason: () => (held.released ? NOT_THE_WRITER : unkept),
    advertiseDoor: async (d) => {
      if (held.released) return false
      held.holder = { ...held.holder, socket: d.socket, token: d.token }
      return (await writeHolder(held)) === undefined
    },
  }
  // Kept holding the OS lock even when the file cannot be written (a full disk): the journal
  // cannot be written either, so nothing is sent, and no other process starts on a folder
  // whose holder it could not be told about.
  const unkept = await writeHolder(held)
  return unkept ? { ok: true, lock, unkept } : { ok: true, lock }
}

function takeOsLock(file: string): { ok: true; db: Database.Database } | { ok: false; busy: boolean; code: string } {
  let db: Database.Database | undefined
  try {
    db = new Database(file, { timeout: 0 })
    // No rollback journal beside it: nothing is ever written, only the lock matters.
    db.exec('PRAGMA journal_mode=OFF')
    db.exec('BEGIN EXCLUSIVE')
    return { ok: true, db }
  } catch (err) {
    db?.close()
    const code = codeOf(err)
    return { ok: false, busy: code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'), code }
  }
}

function closeOsLock(db: Database.Database): void {
  try {
    db.exec('ROLLBACK')
  } catch {
    // Nothing to roll back: closing lets the lock go all the same.
  }
  db.close()
}

/** Written whole or not at all: a reader never sees half a holder. Returns the failure's code, if any. */
async function writeHolder(held: HeldHere): Promise<string | undefined> {
  const tmp = `${held.holderFile}.${process.pid}.tmp`
  try {
    const handle = await open(tmp, 'w', 0o600)
    try {
      await handle.chmod(0o600)
      await handle.writeFile(JSON.stringify(held.holder))
    } finally {
      await handle.close()
    }
    await rename(tmp, held.holderFile)
    return undefined
  } catch (err) {
    await unlink(tmp).catch(() => undefined)
    return codeOf(err)
  }
}

function unlockedRun(code: string): LockAttempt {
  return {
    ok: true,
    lock: { release: async () => undefined, notWriterReason: () => code, advertiseDoor: async () => false },
    unkept: code,
  }
}

/**
 * This process's lock taken again: its services read the folder, but its journal has one writer,
 * the services that took the lock (two writers would lose each other's lines to a rewrite).
 */
function reenteredLock(): DataLock {
  return { release: async () => undefined, notWriterReason: () => NOT_THE_WRITER, advertiseDoor: async () => false }
}
