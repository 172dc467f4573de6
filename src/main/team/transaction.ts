/** A transaction of the team database on one connection of the pool: committed, or rolled back and thrown. */
import type pg from 'pg'

export async function inTransaction<T>(pool: pg.Pool, run: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect()
  // A connection lost while checked out is reported as an 'error' event too (besides the failed
  // query): heard here, so that it never ends the process; the client is then discarded.
  const lost = () => undefined
  c.on('error', lost)
  let failed = false
  try {
    await c.query('BEGIN')
    const out = await run(c)
    await c.query('COMMIT')
    return out
  } catch (err) {
    failed = true
    await c.query('ROLLBACK').catch(() => undefined)
    throw err
  } finally {
    c.off('error', lost)
    c.release(failed)
  }
}
