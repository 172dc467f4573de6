/**
 * The team's schema changes only when its owner asks (issue 50 point 4): a command that writes
 * nothing, run on a workstation in team mode, leaves an empty database empty and an older schema at
 * its version; a write there is refused with words that name the versions and the command; the
 * owner's team migrate then brings it to this app's version.
 */
import { existsSync, rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCHEMA_VERSION, schemaStatus } from '../../src/main/team/schema'
import { TeamLedger } from '../../src/main/team/team-ledger'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { poolFor } from '../../support/team-ledgers'
import { writeTeamSettings } from '../../src/main/team/team-settings'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

let db: TestPostgres
const folders: string[] = []

async function folderOn(database: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'team-asked-'))
  folders.push(dir)
  await writeTeamSettings(dir, {
    connection: { host: db.host, port: db.port, user: db.user, database, sslmode: 'disable' },
    member: 'alice',
    workstation: 'host-a',
  })
  return dir
}

async function createDatabase(name: string): Promise<void> {
  const admin = poolFor(db)
  try {
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
}

async function statusOf(database: string) {
  const pool = poolFor({ ...db, database })
  try {
    return await schemaStatus(pool)
  } finally {
    await pool.end()
  }
}

describe.skipIf(!existsSync(CLI_BIN))('the schema changes only when asked (skipped: not built)', () => {
  beforeAll(async () => {
    db = await startTestPostgres()
  }, 60_000)
  afterAll(() => {
    db?.remove()
    for (const d of folders) rmSync(d, { recursive: true, force: true })
  })

  it('an empty database: a command that writes nothing leaves it empty; team status says to run team init', async () => {
    await createDatabase('empty_team')
    const dir = await folderOn('empty_team')
    const listed = await runCli(['accounts'], { dataDir: dir })
    expect(listed.code, listed.err).toBe(0)
    expect(await statusOf('empty_team')).toEqual({ state: 'absent' })
    const status = await runCli(['team', 'status'], { dataDir: dir })
    expect(status.code).not.toBe(0)
    expect(await statusOf('empty_team')).toEqual({ state: 'absent' })
  })

  it("an older schema: a command that writes nothing leaves its version; a write is refused naming the versions and team migrate; the owner's migrate brings it up", async () => {
    await createDatabase('older_team')
    const owner = poolFor({ ...db, database: 'older_team' })
    try {
      const { ensureSchema } = await import('../../src/main/team/schema')
      await ensureSchema(owner, { create: true })
      await owner.query('UPDATE team_schema SET version = $1', [SCHEMA_VERSION - 1])
    } finally {
      await owner.end()
    }
    const dir = await folderOn('older_team')
    expect((await runCli(['accounts'], { dataDir: dir })).code).toBe(0)
    expect(await statusOf('older_team')).toMatchObject({ state: 'older', version: SCHEMA_VERSION - 1 })
    // A write of this app's ledger there: refused, naming the versions and the command to run.
    const ledger = await TeamLedger.open({
      pool: poolFor({ ...db, database: 'older_team' }),
      member: 'alice',
      workstation: 'host-a',
      where: 'older_team',
      ownsPool: true,
    })
    try {
      expect(Array.isArray(await ledger.load())).toBe(true)
      await expect(
        ledger.claim(
          { accountId: 'acct', operation: 'domains.expiration.renew', target: 'domain=a.example' },
          { jobId: 'j', index: 0 },
        ),
      ).rejects.toMatchObject({
        code: 'team.schemaOlder',
        params: { found: SCHEMA_VERSION - 1, supported: SCHEMA_VERSION, command: 'hosting-admin team migrate' },
      })
    } finally {
      await ledger.close()
    }
    expect(await statusOf('older_team')).toMatchObject({ state: 'older', version: SCHEMA_VERSION - 1 })
    const migrated = await runCli(['team', 'migrate'], { dataDir: dir })
    expect(migrated.code, migrated.err).toBe(0)
    expect(await statusOf('older_team')).toMatchObject({ state: 'current', version: SCHEMA_VERSION })
  })
})
