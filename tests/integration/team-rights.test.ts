/**
 * Rights the database enforces (issue 50 point 1), tried as a member would with their own login and
 * `psql`, on a real PostgreSQL: members hold no table rights, so freeing a lease, planting one,
 * rewriting or deleting history or journal rows are refused by PostgreSQL itself; and the
 * functions every change goes through take the member from the login, so a name handed in changes
 * nothing, a colleague's lease cannot be let go, an unknown outcome cannot be settled without the
 * log's evidence, and a colleague's job cannot be written to.
 */
import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { TargetLease } from '../../src/main/jobs/ledger/write-ledger'
import { addMember, removeMember } from '../../src/main/team/team-members'
import { TeamLedger } from '../../src/main/team/team-ledger'
import type { JobView } from '@shared/jobs'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { poolFor } from '../../support/team-ledgers'

let db: TestPostgres
let alice: TeamLedger
let lease: TargetLease
const ref = { accountId: 'acct', operation: 'domains.expiration.renew' as const, target: 'domain=held.example' }

/** Runs SQL as a member with psql, their own login: its exit, and what PostgreSQL said. */
function psqlAs(user: string, sql: string): { code: number | null; said: string } {
  const r = spawnSync(
    'psql',
    [
      '-h',
      db.host,
      '-p',
      String(db.port),
      '-U',
      user,
      '-d',
      db.database,
      '-v',
      'ON_ERROR_STOP=1',
      '-X',
      '-q',
      '-t',
      '-A',
      '-c',
      sql,
    ],
    {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, PGPASSWORD: `${user}-password-123` },
    },
  )
  return { code: r.status, said: `${r.stdout}${r.stderr}` }
}

const leaseRow = z.object({ state: z.string(), member: z.string() })
async function leaseOf(fence: number): Promise<z.infer<typeof leaseRow>> {
  const pool = poolFor(db)
  try {
    return leaseRow.parse((await pool.query('SELECT state, member FROM team_leases WHERE fence = $1', [fence])).rows[0])
  } finally {
    await pool.end()
  }
}

function jobOf(id: string): JobView {
  return {
    id,
    accountId: 'acct',
    accountName: 'Shop',
    operation: 'domains.expiration.renew',
    confirm: true,
    status: 'running',
    createdAt: new Date().toISOString(),
    concurrency: 1,
    items: [
      {
        target: 'domain=held.example',
        label: 'held.example',
        params: { domain: 'held.example', years: 1 },
        state: 'pending',
      },
    ],
  }
}

describe('a member with their own login, at psql', () => {
  beforeAll(async () => {
    db = await startTestPostgres()
    const owner = poolFor(db)
    try {
      // The owner's team init, then two members with logins of their own.
      const { ensureSchema } = await import('../../src/main/team/schema')
      await ensureSchema(owner, { create: true })
      await addMember(owner, 'alice', 'alice-password-123')
      await addMember(owner, 'bob', 'bob-password-123')
    } finally {
      await owner.end()
    }
    // Alice's workstation, connected as alice: a job of hers, its renewal on its way (a checked lease).
    alice = await TeamLedger.open({
      pool: poolFor({ ...db, user: 'alice' }),
      member: 'whoever-team-json-says',
      workstation: 'host-a',
      where: db.database,
      ownsPool: true,
    })
    await alice.append({ t: 'job', job: jobOf('alice-job') })
    const claimed = await alice.claim(ref, { jobId: 'alice-job', index: 0 })
    if (!claimed.ok) throw new Error('not claimed')
    lease = claimed.lease
    expect(
      await alice.beginSend({ t: 'item', job: 'alice-job', i: 0, state: 'sending' }, lease, { since: undefined }),
    ).toEqual({ ok: true })
  }, 60_000)
  afterAll(async () => {
    await alice?.close()
    db?.remove()
  })

  it("a member's login is who they are: the name their app hands in is not taken", async () => {
    expect(await leaseOf(lease.fence)).toMatchObject({ member: 'alice', state: 'sending' })
  })

  it('no member writes a team table: freeing a lease, planting one, rewriting or deleting history and journal rows are refused by PostgreSQL', () => {
    const refusals = [
      `UPDATE team_leases SET state = 'free' WHERE fence = ${lease.fence}`,
      `INSERT INTO team_leases (account, operation, target, member, workstation, job_id, idx, state, expires_at) VALUES ('acct', 'domains.expiration.renew', 'domain=other.example', 'alice', 'host-a', 'x', 0, 'sending', now() + interval '1 hour')`,
      `UPDATE team_history SET member = 'alice'`,
      `DELETE FROM team_history`,
      `UPDATE team_journal SET record = jsonb_set(record, '{state}', '"failed"')`,
      `DELETE FROM team_journal`,
      `UPDATE team_job_items SET state = 'failed'`,
      `INSERT INTO team_journal (record_id, job_id, member, workstation, record) VALUES (gen_random_uuid(), 'alice-job', 'alice', 'host-a', '{}')`,
      `UPDATE team_accounts SET write_safety = 'none'`,
    ]
    for (const sql of refusals) {
      const r = psqlAs('bob', sql)
      expect(r.code, sql).not.toBe(0)
      expect(r.said, sql).toMatch(/permission denied/)
    }
    // Reading is every member's: the team shares it.
    expect(psqlAs('bob', `SELECT member FROM team_leases WHERE fence = ${lease.fence}`)).toEqual({
      code: 0,
      said: 'alice\n',
    })
  })

  it("the functions take the member from the login: Bob cannot let Alice's lease go, settle it without the log's evidence, write to her job, or claim in her name", async () => {
    // Letting her lease go, as bob naming alice: nothing changes.
    expect(psqlAs('bob', `SELECT team_release(${lease.fence}, false, 'alice')`).code).toBe(0)
    expect(psqlAs('bob', `SELECT team_keep_unknown(${lease.fence}, 'alice')`).code).toBe(0)
    expect(await leaseOf(lease.fence)).toMatchObject({ member: 'alice', state: 'sending' })
    // Settling an unknown outcome needs the log's entry of its request.
    const settle = psqlAs(
      'bob',
      `SELECT team_settle('acct', 'domains.expiration.renew', 'domain=held.example', 'done', NULL, NULL, 'bob')`,
    )
    expect(settle.code).not.toBe(0)
    expect(settle.said).toMatch(/settled only with the log entry/)
    // Her job: marking its item failed is refused (only a log settlement of an unsettled item is a colleague's to write).
    const failed = psqlAs(
      'bob',
      `SELECT team_append(gen_random_uuid(), 'alice-job', 'host-b', '{"t":"item","job":"alice-job","i":0,"state":"failed"}'::jsonb, NULL, NULL, NULL, '{}'::int[], '{}'::text[], '{}'::text[], 0, 'failed', 'alice')`,
    )
    expect(failed.code).not.toBe(0)
    expect(failed.said).toMatch(/may only settle its items from the log/)
    // A lease "planted" through the function is in the caller's own name, never another's.
    expect(
      psqlAs(
        'bob',
        `SELECT fence FROM team_claim('acct', 'domains.expiration.renew', 'domain=planted.example', 'host-b', 'bob-job', 0, 60000, NULL, NULL, false, false, 'alice')`,
      ).code,
    ).toBe(0)
    const pool = poolFor(db)
    try {
      const planted = z
        .object({ member: z.string() })
        .parse((await pool.query(`SELECT member FROM team_leases WHERE target = 'domain=planted.example'`)).rows[0])
      expect(planted.member).toBe('bob')
    } finally {
      await pool.end()
    }
  })

  it('a member removed can no longer log in; their rows keep their name', async () => {
    const owner = poolFor(db)
    try {
      await addMember(owner, 'carol', 'carol-password-123')
      expect(psqlAs('carol', 'SELECT 1').code).toBe(0)
      await removeMember(owner, 'carol')
    } finally {
      await owner.end()
    }
    const r = psqlAs('carol', 'SELECT 1')
    expect(r.code).not.toBe(0)
    expect(r.said).toMatch(/not permitted to log in/)
  })
})
