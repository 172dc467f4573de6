/**
 * The store's one SQLite connection (libsql: better-sqlite3's synchronous API on a Node-API
 * binary, so Electron loads it without a rebuild for its ABI), and the only place that talks
 * to it. Whatever a query gives back is `unknown` until a zod schema has accepted it: a row
 * that does not pass is handed to the caller's `onInvalid` and left out, never trusted and
 * never a crash.
 */
import Database from 'libsql'
import { z } from 'zod'

/** What a statement binds: libsql also takes bigint and buffers, this store never needs them. */
export type SqlValue = string | number | null

export interface Connection {
  /** Runs a statement; returns how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): number
  /** Runs an INSERT; returns the new row's id. */
  insert(sql: string, params?: readonly SqlValue[]): number
  /** Every row that passes `schema`, in order; the others go to `onInvalid`. */
  all<T>(schema: z.ZodType<T>, sql: string, params?: readonly SqlValue[], onInvalid?: (row: unknown) => void): T[]
  /** The first row, if there is one and it passes `schema`. */
  get<T>(
    schema: z.ZodType<T>,
    sql: string,
    params?: readonly SqlValue[],
    onInvalid?: (row: unknown) => void,
  ): T | undefined
  /** Several statements at once (migrations), no parameters. */
  exec(sql: string): void
  /**
   * Runs `fn` in one write transaction (BEGIN IMMEDIATE, so a second connection waits for the
   * lock instead of failing half-way), rolled back if it throws. Nested calls join the outer one.
   */
  write<T>(fn: () => T): T
  /** Runs `fn` in one read transaction: every query in it sees the same committed state. */
  read<T>(fn: () => T): T
  close(): void
}

/** How long a statement waits for another connection's write lock before it fails. */
const BUSY_TIMEOUT_MS = 5000

export interface ConnectionOptions {
  /**
   * The page cache, in KiB, while a write transaction runs; SQLite's own size the rest of the time, the pages beyond it
   * let go as the write ends. A large write needs its pages at hand; reads stream theirs.
   */
  writeCacheKib?: number
}

const BEGIN_WRITE = 'BEGIN IMMEDIATE'
const BEGIN_READ = 'BEGIN DEFERRED'
/** SQLite's own page cache size (2,000 KiB), should the connection not say its own. */
const SQLITE_CACHE_SIZE = -2000
const cacheSizeRow = z.object({ cache_size: z.number().int() })

export function openConnection(file: string, options: ConnectionOptions = {}): Connection {
  const db = new Database(file)
  // Prepared once per SQL text: putList runs the same few statements thousands of times.
  const statements = new Map<string, Database.Statement>()
  const prepared = (sql: string): Database.Statement => {
    let s = statements.get(sql)
    if (!s) {
      s = db.prepare(sql)
      statements.set(sql, s)
    }
    return s
  }
  // libsql reads a single object argument as named parameters (and so a lone null too): the
  // values always go as one array.
  const args = (params: readonly SqlValue[] | undefined): SqlValue[] => [...(params ?? [])]

  let depth = 0
  const transaction = <T>(begin: typeof BEGIN_WRITE | typeof BEGIN_READ, fn: () => T): T => {
    if (depth > 0) {
      depth++
      try {
        return fn()
      } finally {
        depth--
      }
    }
    const writeCache = begin === BEGIN_WRITE ? options.writeCacheKib : undefined
    if (writeCache !== undefined) db.exec(`PRAGMA cache_size = -${writeCache}`)
    try {
      db.exec(begin)
      depth = 1
      const result = fn()
      db.exec('COMMIT')
      return result
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK')
      throw err
    } finally {
      depth = 0
      // Back to SQLite's own size: the pages beyond it are freed (their memory was main's resident size).
      if (writeCache !== undefined) db.exec(`PRAGMA cache_size = ${ownCacheSize}`)
    }
  }

  const conn: Connection = {
    run: (sql, params) => prepared(sql).run(args(params)).changes,
    insert: (sql, params) => Number(prepared(sql).run(args(params)).lastInsertRowid),
    all: (schema, sql, params, onInvalid) => {
      const out = []
      for (const row of prepared(sql).all(args(params))) {
        const parsed = schema.safeParse(row)
        if (parsed.success) out.push(parsed.data)
        else onInvalid?.(row)
      }
      return out
    },
    get: (schema, sql, params, onInvalid) => {
      const row: unknown = prepared(sql).get(args(params))
      if (row === undefined) return undefined
      const parsed = schema.safeParse(row)
      if (parsed.success) return parsed.data
      onInvalid?.(row)
      return undefined
    },
    exec: (sql) => {
      db.exec(sql)
    },
    write: (fn) => transaction(BEGIN_WRITE, fn),
    read: (fn) => transaction(BEGIN_READ, fn),
    close: () => {
      if (!db.open) return
      // libsql cannot finalise a prepared statement: SQLite keeps the connection until they are
      // collected and only then folds the WAL into the file. Folded now, the file is whole the
      // moment the store is closed (copied, backed up, moved aside by the next start).
      try {
        if (file !== ':memory:') db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
      } catch {
        // A file that is not a database (being moved aside) or busy elsewhere: SQLite folds the
        // WAL at the next checkpoint instead. Closing must not fail for it.
      }
      statements.clear()
      db.close()
    },
  }
  let ownCacheSize = SQLITE_CACHE_SIZE
  try {
    conn.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    ownCacheSize = conn.get(cacheSizeRow, 'PRAGMA cache_size')?.cache_size ?? SQLITE_CACHE_SIZE
  } catch (err) {
    conn.close()
    throw err
  }
  return conn
}
