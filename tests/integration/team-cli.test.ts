/**
 * hosting-admin team init|status|migrate, the built command against a real PostgreSQL on loopback
 * (issue 37 point 1): the schema created with its version, the connection kept without a password,
 * the status naming the workstations, a newer schema refused, the database away said (exit 1).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCHEMA_VERSION } from '../../src/main/team/schema'
import { runCli } from '../helpers/cli-process'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { poolFor } from '../../support/team-ledgers'

let db: TestPostgres
let dataDir: string
// No keychain in these runs: the password would come from PGPASSWORD or ~/.pgpass (trust here).
const env = { DBUS_SESSION_BUS_ADDRESS: '', PGPASSWORD: '' }

beforeAll(async () => {
  db = await startTestPostgres()
  dataDir = mkdtempSync(join(tmpdir(), 'team-cli-'))
}, 60_000)
afterAll(() => {
  db?.remove()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('hosting-admin team', () => {
  it('status before init says what to do (exit 2)', async () => {
    const r = await runCli(['team', 'status'], { dataDir, env })
    expect(r.code).toBe(2)
    expect(r.err).toContain('team init')
  })

  it('init creates the schema, keeps the connection without a password, and status lists the workstation', async () => {
    const init = await runCli(
      [
        'team',
        'init',
        '--host',
        db.host,
        '--port',
        String(db.port),
        '--database',
        db.database,
        '--user',
        db.user,
        '--member',
        'alice',
        '--workstation',
        'host-a',
      ],
      {
        dataDir,
        env,
      },
    )
    expect(init.err).toBe('')
    expect(init.code).toBe(0)
    expect(init.out).toContain(`schema version ${SCHEMA_VERSION} created`)
    const kept: unknown = JSON.parse(readFileSync(join(dataDir, 'team.json'), 'utf8'))
    expect(kept).toMatchObject({
      connection: { host: db.host, port: db.port, database: db.database, user: db.user },
      member: 'alice',
      workstation: 'host-a',
    })
    expect(JSON.stringify(kept)).not.toMatch(/password/i)
    const again = await runCli(['team', 'migrate'], { dataDir, env })
    expect(again.code).toBe(0)
    expect(again.out).toContain('already current')
    const status = await runCli(['team', 'status', '--json'], { dataDir, env })
    expect(status.code).toBe(0)
    expect(JSON.parse(status.out)).toMatchObject({
      ok: true,
      schema: 'current',
      version: SCHEMA_VERSION,
      member: 'alice',
      workstation: 'host-a',
      workstations: [{ member: 'alice', workstation: 'host-a' }],
    })
  })

  it('an older schema (version 1, before processes were told apart) is migrated and its jobs kept', async () => {
    const pool = poolFor(db)
    try {
      // Version 1 as an earlier app left it, with a job of its own (no process).
      await pool.query('DROP TABLE team_processes')
      await pool.query('ALTER TABLE team_jobs DROP COLUMN process')
      await pool.query('UPDATE team_schema SET version = 1')
      await pool.query(
        `INSERT INTO team_jobs (id, account, operation, member, workstation) VALUES ('job-v1', 'fp', 'domains.expiration.renew', 'alice', 'host-a')`,
      )
      const r = await runCli(['team', 'migrate'], { dataDir, env })
      expect(r.err).toBe('')
      expect(r.code).toBe(0)
      expect(r.out).toContain(`schema migrated from version 1 to ${SCHEMA_VERSION}`)
      const job = await pool.query(`SELECT id, process FROM team_jobs WHERE id = 'job-v1'`)
      expect(job.rows).toEqual([{ id: 'job-v1', process: null }])
      expect((await pool.query('SELECT count(*)::integer AS n FROM team_processes')).rows).toEqual([{ n: 0 }])
    } finally {
      await pool.end()
    }
  })

  it('a newer schema is refused with the advice to update (exit 1)', async () => {
    const pool = poolFor(db)
    try {
      await pool.query('UPDATE team_schema SET version = version + 1')
      const r = await runCli(['team', 'migrate'], { dataDir, env })
      expect(r.code).toBe(1)
      expect(r.err).toContain('update the app')
    } finally {
      await pool.query('UPDATE team_schema SET version = $1', [SCHEMA_VERSION])
      await pool.end()
    }
  })

  it("the database away is said in the user's language (exit 1)", async () => {
    db.stopServer()
    try {
      const en = await runCli(['team', 'status'], { dataDir, env })
      expect(en.code).toBe(1)
      expect(en.err).toContain('The team database cannot be reached')
      const ja = await runCli(['team', 'status'], { dataDir, env: { ...env, LANG: 'ja_JP.UTF-8' } })
      expect(ja.code).toBe(1)
      expect(ja.err).toContain('チームのデータベースに接続できません')
    } finally {
      db.startServer()
    }
  })
})
