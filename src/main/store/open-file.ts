/**
 * Opening the store's file. A file that is not a usable store (not a database, damaged,
 * another program's database, a folder in its place) is moved aside as
 * `<file>.corrupt-<timestamp>`, never overwritten, and a new store is made; the store is a
 * copy of what the service holds, so nothing is lost that the next read does not bring back.
 * When no file can be used at all (a permission, a full disk, a newer app's schema), this run
 * keeps its store in memory and says so: the app works, it only paints from the service.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, renameSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'
import { openConnection, type Connection } from './database'
import { SCHEMA_VERSION, isOurs, migrate, schemaVersion } from './migrations'
import { MovedAsideReason, StoreProblem } from './types'

const IN_MEMORY = ':memory:'

type Attempt =
  | { ok: true; conn: Connection }
  | { ok: false; reason: MovedAsideReason }
  | { ok: false; reason: 'newer'; version: number }
  | { ok: false; reason: 'unavailable'; detail: string }

const quickCheckRow = z.object({ quick_check: z.string() })

/**
 * The connection's page cache while it writes, in KiB (SQLite's default is 2,000). A list of 100,000 domains written in
 * one transaction touches its rows, their key index and the search indexes far beyond 2 MB of pages, spilled and read
 * back within the write: at 64 MB the longest write of the 100,000-domain bench took 8.6-9.6 s against 11.3-11.4 s
 * (two pairs, alternately; issue 54), the 10,000-domain case's 1.09-1.14 s against 0.80-1.20 s. Single runs swing with
 * the machine's disk and load (7.4-13.3 s at 64 MB over ten later runs), so judge a change here by alternate pairs.
 * Only while it writes (database.ts gives SQLite's own size back as each write ends): kept at 64 MB for reads too, the
 * pages read from ten accounts of 10,000 stayed in main's memory, 269-318 MB resident after the ten-accounts bench's
 * rounds against 204-248 MB now, and 303-308 against 241-264 MB at 100,000 domains, the longest write unchanged within
 * its swing (7.9 and 5.9 s against 7.8 and 6.7 s; two pairs, alternately).
 */
const WRITE_CACHE_KIB = 65536

/** SQLite's word for what went wrong, from a libsql error (a code, or an open failure's numeric one). */
function sqliteCode(err: unknown): string {
  if (typeof err !== 'object' || err === null) return 'unknown'
  const code: unknown = Reflect.get(err, 'code')
  if (typeof code === 'string' && code !== '') return code
  const message: unknown = Reflect.get(err, 'message')
  // An open that fails reports "ConnectionFailed(... : 14)": 14 is SQLITE_CANTOPEN.
  if (typeof message === 'string' && /:\s*14\D*$/.test(message)) return 'SQLITE_CANTOPEN'
  return 'unknown'
}

/** Only what says the file itself is unusable moves it aside; a busy, locked or full disk does not. */
function failure(err: unknown): Attempt {
  const code = sqliteCode(err)
  if (code === 'SQLITE_NOTADB') return { ok: false, reason: 'notADatabase' }
  if (code.startsWith('SQLITE_CORRUPT')) return { ok: false, reason: 'damaged' }
  if (code.startsWith('SQLITE_CANTOPEN')) return { ok: false, reason: 'unreadable' }
  return { ok: false, reason: 'unavailable', detail: code }
}

/**
 * The file made, or kept, readable by the user only before SQLite opens it (SQLite gives its
 * -wal and -shm files the same permissions): it holds WHOIS contacts and every zone.
 */
function userOnly(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    const path = file + suffix
    if (existsSync(path)) chmodSync(path, 0o600)
    else if (suffix === '') closeSync(openSync(path, 'a', 0o600))
  }
}

function attempt(file: string, integrityCheck: boolean): Attempt {
  let conn: Connection
  try {
    userOnly(file)
    conn = openConnection(file, { writeCacheKib: WRITE_CACHE_KIB })
  } catch (err) {
    return failure(err)
  }
  const fail = (a: Attempt): Attempt => {
    conn.close()
    return a
  }
  try {
    if (integrityCheck) {
      const rows = conn.all(quickCheckRow, 'PRAGMA quick_check')
      if (rows.length !== 1 || rows[0]?.quick_check !== 'ok') return fail({ ok: false, reason: 'damaged' })
    }
    // Read only until here: a file that is not ours, or is a newer version's, is left as it was.
    if (!isOurs(conn)) return fail({ ok: false, reason: 'foreign' })
    const version = schemaVersion(conn)
    if (version > SCHEMA_VERSION) return fail({ ok: false, reason: 'newer', version })
    // WAL: readers (a second window's connection, an export) never wait for a list being written.
    conn.exec('PRAGMA journal_mode = WAL')
    // A WAL grown by a large refresh is cut back after its checkpoint instead of staying that size.
    conn.exec('PRAGMA journal_size_limit = 8388608')
    migrate(conn)
    // A cache of the service: a power cut may lose the last list written, never corrupt the file.
    conn.exec('PRAGMA synchronous = NORMAL')
    return { ok: true, conn }
  } catch (err) {
    return fail(failure(err))
  }
}

function inMemory(): Connection {
  const conn = openConnection(IN_MEMORY)
  migrate(conn)
  return conn
}

export interface Opened {
  conn: Connection
  file: string
  problem: StoreProblem | undefined
}

export function openStoreFile(file: string, opts: { now: () => Date; integrityCheck: boolean }): Opened {
  if (file === IN_MEMORY) return { conn: inMemory(), file, problem: undefined }
  const unavailable = (reason: string): Opened => ({
    conn: inMemory(),
    file: IN_MEMORY,
    problem: { code: 'store.unavailable', params: { path: file, reason } },
  })
  try {
    mkdirSync(dirname(file), { recursive: true })
  } catch (err) {
    return unavailable(errnoCode(err))
  }
  const first = attempt(file, opts.integrityCheck)
  if (first.ok) return { conn: first.conn, file, problem: undefined }
  if (first.reason === 'newer') {
    return {
      conn: inMemory(),
      file: IN_MEMORY,
      problem: { code: 'store.newerSchema', params: { version: first.version, supported: SCHEMA_VERSION } },
    }
  }
  if (first.reason === 'unavailable') return unavailable(first.detail)

  const stamp = opts.now().toISOString().replace(/[:.]/g, '-')
  const movedTo = `${file}.corrupt-${stamp}`
  try {
    renameSync(file, movedTo)
    // Its journal files go with it: a new file must not pick up the old one's pages.
    for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, movedTo + suffix)
  } catch (err) {
    return unavailable(errnoCode(err))
  }
  const fresh = attempt(file, false)
  if (!fresh.ok) return unavailable(fresh.reason === 'unavailable' ? fresh.detail : fresh.reason)
  return { conn: fresh.conn, file, problem: { code: 'store.movedAside', params: { movedTo, reason: first.reason } } }
}

const errnoCode = (err: unknown): string => {
  const code: unknown = typeof err === 'object' && err !== null ? Reflect.get(err, 'code') : undefined
  return typeof code === 'string' ? code : 'unknown'
}
