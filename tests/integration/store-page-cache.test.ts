/**
 * The store's page cache on a real file: large while a write transaction runs (a list of 100,000 domains touches far
 * more pages than SQLite's own 2 MB), SQLite's own size the rest of the time, so the pages reads take do not stay in
 * main's memory.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { z } from 'zod'
import { openConnection, type Connection } from '../../src/main/store/database'
import { openStoreFile } from '../../src/main/store/open-file'

let dir: string
const toClose: Connection[] = []
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-page-cache-'))
})
afterEach(() => {
  for (const c of toClose.splice(0)) c.close()
  rmSync(dir, { recursive: true, force: true })
})

const cacheSizeRow = z.object({ cache_size: z.number() })
const cacheSize = (conn: Connection) => conn.get(cacheSizeRow, 'PRAGMA cache_size')?.cache_size

it('is large while a write runs, and SQLite’s own again after it, whether it commits or fails', () => {
  const conn = openConnection(join(dir, 'a.db'), { writeCacheKib: 65536 })
  toClose.push(conn)
  const own = cacheSize(conn)
  expect(own).toBe(-2000)
  expect(conn.write(() => cacheSize(conn))).toBe(-65536)
  // A write nested in another joins it, at the same size.
  expect(conn.write(() => conn.write(() => cacheSize(conn)))).toBe(-65536)
  expect(cacheSize(conn)).toBe(own)
  expect(() =>
    conn.write(() => {
      conn.exec('CREATE TABLE t (x)')
      throw new Error('failed half-way')
    }),
  ).toThrow('failed half-way')
  expect(cacheSize(conn)).toBe(own)
  // Rolled back: the table the failed write made is not there.
  expect(() => conn.exec('SELECT x FROM t')).toThrow(/no such table/)
  expect(conn.read(() => cacheSize(conn))).toBe(own)
})

it('a connection opened without a write size keeps SQLite’s own in its writes', () => {
  const conn = openConnection(join(dir, 'b.db'))
  toClose.push(conn)
  expect(conn.write(() => cacheSize(conn))).toBe(-2000)
})

it('the store’s file is opened with 64 MB for its writes', () => {
  const opened = openStoreFile(join(dir, 'portfolio.db'), { now: () => new Date(), integrityCheck: false })
  toClose.push(opened.conn)
  expect(opened.problem).toBeUndefined()
  expect(opened.conn.write(() => cacheSize(opened.conn))).toBe(-65536)
  expect(cacheSize(opened.conn)).toBe(-2000)
})
