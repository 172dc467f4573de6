/**
 * What opening team mode costs before its first work (issue 54 point 4: the command's start in
 * team mode within 1.2x of single-workstation mode), on a real PostgreSQL: the keychain is asked
 * for the team's password only when the server asks for one (a trust login never loads it), once
 * however many connections follow; the schema is read once per open, not once by the caller
 * and again by the ledger; and the daily upkeep runs after the start's journal read, on its
 * connection, rather than beside it on a second one.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openTeamPool } from '../../src/main/team/connection'
import { openConfiguredTeamLedger } from '../../src/main/team/open-team'
import { openTeamMode } from '../../src/main/team/team-mode'
import { ensureSchema } from '../../src/main/team/schema'
import { writeTeamSettings } from '../../src/main/team/team-settings'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { until } from '../../support/team-ledgers'

const PASSWORD = 'open-cost-pw'
const dbs: TestPostgres[] = []
const dirs: string[] = []
afterEach(() => {
  for (const db of dbs.splice(0)) db.remove()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A pool of the cluster's owner (a trust login), to set the server up and to look at its tables. */
function ownerPool(db: TestPostgres): ReturnType<typeof openTeamPool> {
  return openTeamPool({ host: db.host, port: db.port, user: db.user, database: db.database, sslmode: 'disable' })
}

/** A cluster with the team's schema, and a data folder joined to it. */
async function joined(password?: string, logConnections = false): Promise<{ db: TestPostgres; dir: string }> {
  const db = await startTestPostgres({ ...(password ? { password } : {}), logConnections })
  dbs.push(db)
  const connection = { host: db.host, port: db.port, user: db.user, database: db.database, sslmode: 'disable' as const }
  const pool = openTeamPool(connection, { password })
  try {
    await ensureSchema(pool, { create: true })
  } finally {
    await pool.end()
  }
  const dir = mkdtempSync(join(tmpdir(), 'team-open-cost-'))
  dirs.push(dir)
  await writeTeamSettings(dir, { connection, member: 'carol', workstation: 'carol-host' })
  return { db, dir }
}

/** Opens team mode as the app does, counting the keychain's askings; two steps on it, then closed. */
async function openAndUse(dir: string, password?: string): Promise<number> {
  let asked = 0
  const ledger = await openConfiguredTeamLedger(dir, {
    accountIds: [],
    keyOf: async () => undefined,
    passwordOf: async () => {
      asked++
      return password
    },
  })
  if (!ledger) throw new Error('team mode not opened')
  try {
    // Two at once: the pool opens a second connection, which must not ask the keychain again.
    await Promise.all([ledger.load(), ledger.mark()])
  } finally {
    await ledger.close()
  }
  return asked
}

describe('opening team mode', () => {
  it('a trust login never asks the keychain, and the schema is read once', async () => {
    const { db, dir } = await joined()
    const pool = ownerPool(db)
    try {
      await pool.query(`ALTER SYSTEM SET log_statement = 'all'`)
      await pool.query('SELECT pg_reload_conf()')
      // Bounded: the server takes the setting on its next look at its configuration.
      await until(
        async () => (await pool.query<{ log_statement: string }>('SHOW log_statement')).rows[0]?.log_statement,
        (v) => v === 'all',
        100,
        50,
      )
    } finally {
      await pool.end()
    }
    const before = db.serverLog().length
    expect(await openAndUse(dir)).toBe(0)
    const reads = db.serverLog().slice(before).split("to_regclass('team_schema')").length - 1
    expect(reads).toBe(1)
  }, 60_000)

  it('a password login asks the keychain once, however many connections, and connects with its answer', async () => {
    const { dir } = await joined(PASSWORD)
    expect(await openAndUse(dir, PASSWORD)).toBe(1)
  }, 60_000)

  it("a start opens one connection: the upkeep runs after the journal's read, and still runs", async () => {
    const { db, dir } = await joined(undefined, true)
    const logins = () => db.serverLog().split('application_name=hosting-admin').length - 1
    const before = logins()
    const team = await openTeamMode(dir, {
      accountIds: [],
      keyOf: async () => undefined,
      passwordOf: async () => undefined,
    })
    if (!team) throw new Error('team mode not opened')
    const pool = ownerPool(db)
    try {
      await team.load()
      // Bounded: the upkeep is not awaited by the read; it marks the archive's last run when it has run.
      const archived = await until(
        async () =>
          (await pool.query<{ done: boolean }>('SELECT archived_at IS NOT NULL AS done FROM team_settings')).rows[0]
            ?.done,
        (done) => done === true,
        100,
        50,
      )
      expect(archived).toBe(true)
      // The test's own pool logs in too: counted apart.
      expect(logins() - before - 1).toBe(1)
    } finally {
      await pool.end()
      await team.close()
    }
  }, 60_000)
})
