/**
 * The team write ledger against a real PostgreSQL on loopback (issue 37 points 3, 6 and 8): two
 * workstations on one database, the partial unique index, unknown outcomes, the journal shared
 * and kept across a restart, the database away, the schema's version, nothing secret stored.
 */
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { JobView } from '@shared/jobs'
import { accountFingerprint } from '../../src/main/team/fingerprint'
import { SCHEMA_VERSION, schemaStatus } from '../../src/main/team/schema'
import { TeamLedger } from '../../src/main/team/team-ledger'
import { TeamError } from '../../src/main/team/team-error'
import type { TargetRef } from '../../src/main/jobs/ledger/write-ledger'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { openWorkstation, poolFor, until, untilAged } from '../../support/team-ledgers'

/**
 * The life of the leases these tests give out: long, so that no stall of a loaded machine lets one
 * run out. Those the tests let run out have no heartbeat (heartbeatMs of an hour), and their life
 * is let pass on the database's clock (untilAged): with a life of 0.3 s, a claim and the send's
 * check more than 0.3 s apart found the lease already gone.
 */
const LEASE_MS = 60_000
const NO_HEARTBEAT = { leaseMs: LEASE_MS, heartbeatMs: 3_600_000 }

let db: TestPostgres
/** The test's own connection, for letting a lease's life pass. */
let clock: pg.Pool
const open: TeamLedger[] = []
const workstation = async (member: string, name: string, more: Parameters<typeof openWorkstation>[3] = {}) => {
  const l = await openWorkstation(db, member, name, more)
  open.push(l)
  return l
}

beforeAll(async () => {
  db = await startTestPostgres()
  clock = poolFor(db)
}, 60_000)
afterAll(async () => {
  for (const l of open) await l.close()
  await clock?.end()
  db?.remove()
})

const ref = (target: string): TargetRef => ({ accountId: 'acct-fp', operation: 'domains.expiration.renew', target })
const job = (id: string, targets: string[], params: Record<string, unknown> = {}): JobView => ({
  id,
  accountId: 'acct-fp',
  accountName: 'Shop',
  operation: 'domains.expiration.renew',
  confirm: true,
  status: 'running',
  createdAt: new Date().toISOString(),
  concurrency: 1,
  items: targets.map((t) => ({ target: t, label: t, params: { domain: t, ...params }, state: 'pending' })),
})
const codeOf = (err: unknown) => (err instanceof TeamError ? err.code : String(err))

describe('team ledger on PostgreSQL', () => {
  it('creates the schema on first use and records its version', async () => {
    await workstation('alice', 'host-a')
    const pool = poolFor(db)
    try {
      const s = await schemaStatus(pool)
      expect(s).toMatchObject({ state: 'current', version: SCHEMA_VERSION })
    } finally {
      await pool.end()
    }
  })

  it('two workstations claim one target at once: exactly one gets it, the other is told who holds it since when', async () => {
    const a = await workstation('alice', 'host-a')
    const b = await workstation('bob', 'host-b')
    const before = Date.now()
    const [ra, rb] = await Promise.all([
      a.claim(ref('race.example'), { jobId: 'ja', index: 0 }),
      b.claim(ref('race.example'), { jobId: 'jb', index: 0 }),
    ])
    const won = [ra, rb].filter((r) => r.ok)
    const lost = [ra, rb].filter((r) => !r.ok)
    expect(won).toHaveLength(1)
    expect(lost).toHaveLength(1)
    const winner = ra.ok
      ? { member: 'alice', workstation: 'host-a', jobId: 'ja' }
      : { member: 'bob', workstation: 'host-b', jobId: 'jb' }
    const refusal = lost[0]!
    if (refusal.ok) throw new Error('unreachable')
    expect(refusal.heldBy).toMatchObject({ ...winner, index: 0, state: 'sending' })
    expect(Date.parse(refusal.heldBy.since)).toBeGreaterThanOrEqual(before - 5_000)
    const lease = (ra.ok ? ra : rb.ok ? rb : undefined)!.lease
    expect(await (ra.ok ? a : b).stillHeld(lease)).toBe(true)
    await (ra.ok ? a : b).release(lease, 'free')
    expect(await a.holderOf(ref('race.example'))).toBeUndefined()
    const again = await b.claim(ref('race.example'), { jobId: 'jb2', index: 0 })
    expect(again.ok).toBe(true)
    if (again.ok) await b.release(again.lease, 'free')
  })

  it('the unique index allows one send per target even if code inserted twice', async () => {
    const pool = poolFor(db)
    try {
      const insert = `INSERT INTO team_leases (account, operation, target, member, workstation, job_id, idx, state, expires_at)
                      VALUES ('x', 'domains.expiration.renew', 'twice.example', 'm', 'w', 'j', 0, $1, now() + interval '1 minute')`
      await pool.query(insert, ['sending'])
      await expect(pool.query(insert, ['sending'])).rejects.toMatchObject({ code: '23505' })
      await expect(pool.query(insert, ['unknown'])).rejects.toMatchObject({ code: '23505' })
      // Finished sends are history, not holds: any number of them.
      await pool.query(insert, ['free'])
      await pool.query(insert, ['free'])
    } finally {
      await pool.end()
    }
  })

  it('an unknown outcome blocks the target for everyone until settled; nothing is freed by itself', async () => {
    const a = await workstation('alice', 'host-a')
    const b = await workstation('bob', 'host-b')
    const r = await a.claim(ref('unknown.example'), { jobId: 'ju', index: 3 })
    if (!r.ok) throw new Error('claim refused')
    expect(await a.stillHeld(r.lease)).toBe(true)
    await a.release(r.lease, 'unknown')
    const refused = await b.claim(ref('unknown.example'), { jobId: 'jv', index: 0 })
    expect(refused).toMatchObject({
      ok: false,
      heldBy: { state: 'unknown', member: 'alice', workstation: 'host-a', jobId: 'ju', index: 3 },
    })
    expect((await b.unknownTargets()).map((u) => u.ref.target)).toContain('unknown.example')
    await b.settle(ref('unknown.example'), { how: 'done', requestId: 'req-unknown' })
    expect(await a.holderOf(ref('unknown.example'))).toBeUndefined()
    const now = await b.claim(ref('unknown.example'), { jobId: 'jv', index: 0 })
    expect(now.ok).toBe(true)
    if (now.ok) await b.release(now.lease, 'free')
  })

  it('a lease that ran out fails stillHeld, and a colleague may take the target (fenced by a newer number)', async () => {
    // No heartbeat within the test: the lease's life is all it has.
    const a = await workstation('alice', 'host-a', NO_HEARTBEAT)
    const b = await workstation('bob', 'host-b')
    const r = await a.claim(ref('expiry.example'), { jobId: 'je', index: 0 })
    if (!r.ok) throw new Error('claim refused')
    await untilAged(
      clock,
      'host-a',
      LEASE_MS,
      () => b.holderOf(ref('expiry.example')),
      (h) => h === undefined,
    )
    const taken = await b.claim(ref('expiry.example'), { jobId: 'jf', index: 0 })
    if (!taken.ok) throw new Error('colleague refused')
    expect(taken.lease.fence).toBeGreaterThan(r.lease.fence)
    expect(await a.stillHeld(r.lease)).toBe(false)
    expect(await b.stillHeld(taken.lease)).toBe(true)
    await b.release(taken.lease, 'free')
  })

  it('an item begun (journaled as sending) has its lease checked in the same commit; a lease lost before it is said so, and nothing is journaled (nothing sent)', async () => {
    const checkedAt = async (fence: number) => {
      const pool = poolFor(db)
      try {
        const row: unknown = (
          await pool.query('SELECT checked_at IS NOT NULL AS checked FROM team_leases WHERE fence = $1', [fence])
        ).rows[0]
        return z.object({ checked: z.boolean() }).parse(row).checked
      } finally {
        await pool.end()
      }
    }
    const a = await workstation('alice', 'host-a', NO_HEARTBEAT)
    const b = await workstation('bob', 'host-b')
    await a.append({ t: 'job', job: job('checked-1', ['held.example', 'lost.example']) })
    // Held: the record "sending" committed means the lease is checked (the send may leave).
    const held = await a.claim(ref('held.example'), { jobId: 'checked-1', index: 0 })
    if (!held.ok) throw new Error('claim refused')
    expect(await checkedAt(held.lease.fence)).toBe(false)
    expect(
      await a.beginSend(
        { t: 'item', job: 'checked-1', i: 0, state: 'sending', sentAt: new Date().toISOString() },
        held.lease,
        { since: undefined },
      ),
    ).toEqual({ ok: true })
    expect(await checkedAt(held.lease.fence)).toBe(true)
    expect(await a.stillHeld(held.lease)).toBe(true)
    await a.release(held.lease, 'free')
    // Lost: run out and taken by a colleague before the record; not journaled, never checked, not held.
    const lost = await a.claim(ref('lost.example'), { jobId: 'checked-1', index: 1 })
    if (!lost.ok) throw new Error('claim refused')
    await untilAged(
      clock,
      'host-a',
      LEASE_MS,
      () => b.holderOf(ref('lost.example')),
      (h) => h === undefined,
    )
    const taken = await b.claim(ref('lost.example'), { jobId: 'checked-2', index: 0 })
    if (!taken.ok) throw new Error('colleague refused')
    expect(
      await a.beginSend(
        { t: 'item', job: 'checked-1', i: 1, state: 'sending', sentAt: new Date().toISOString() },
        lost.lease,
        { since: undefined },
      ),
    ).toEqual({ ok: false, lost: true })
    expect(await checkedAt(lost.lease.fence)).toBe(false)
    expect(await a.stillHeld(lost.lease)).toBe(false)
    expect((await b.load()).find((j) => j.id === 'checked-1')?.items.map((i) => i.state)).toEqual([
      'sending',
      'pending',
    ])
    await b.release(taken.lease, 'free')
  })

  it('a lease checked at the send that runs out afterwards (a laptop suspended between the record and the send) is unknown for everyone and no longer held', async () => {
    const a = await workstation('alice', 'host-a', NO_HEARTBEAT)
    const b = await workstation('bob', 'host-b')
    await a.append({ t: 'job', job: job('stale-1', ['stale.example']) })
    const r = await a.claim(ref('stale.example'), { jobId: 'stale-1', index: 0 })
    if (!r.ok) throw new Error('claim refused')
    expect(
      await a.beginSend(
        { t: 'item', job: 'stale-1', i: 0, state: 'sending', sentAt: new Date().toISOString() },
        r.lease,
        { since: undefined },
      ),
    ).toEqual({ ok: true })
    // As a laptop suspended between the record and the send: its checked lease runs out (unknown for everyone).
    await untilAged(
      clock,
      'host-a',
      LEASE_MS,
      () => b.holderOf(ref('stale.example')),
      (h) => h?.state === 'unknown',
    )
    expect(await a.stillHeld(r.lease)).toBe(false)
    await b.settle(ref('stale.example'), { how: 'done', requestId: 'req-stale' })
  })

  it("the heartbeat keeps a live holder's lease beyond its life", async () => {
    // Renewed every 0.1 s, the lease's end moves 3 s past the end of the life it was claimed with.
    // Its life is long so that this does not hang on the machine's speed: with a life of 1 s (and
    // 3 s waited), this process stalled 1.2 s let the lease run out between two heartbeats.
    const a = await workstation('alice', 'host-a', { leaseMs: LEASE_MS, heartbeatMs: 100 })
    const b = await workstation('bob', 'host-b')
    const r = await a.claim(ref('alive.example'), { jobId: 'jl', index: 0 })
    if (!r.ok) throw new Error('claim refused')
    const endOf = async () =>
      z
        .object({ end: z.number() })
        .parse(
          (
            await clock.query(
              'SELECT (extract(epoch FROM expires_at) * 1000)::float8 AS end FROM team_leases WHERE fence = $1',
              [r.lease.fence],
            )
          ).rows[0],
        ).end
    const claimedEnd = await endOf()
    await until(endOf, (end) => end >= claimedEnd + 3_000)
    expect(await b.holderOf(ref('alive.example'))).toMatchObject({ member: 'alice', state: 'sending' })
    expect(await a.stillHeld(r.lease)).toBe(true)
    await a.release(r.lease, 'free')
  })

  it('the journal is shared: a job journaled on one workstation is loaded on the other with its member', async () => {
    const a = await workstation('alice', 'host-a')
    const b = await workstation('bob', 'host-b')
    await a.append({ t: 'job', job: job('shared-1', ['one.example', 'two.example']) })
    await a.append({ t: 'item', job: 'shared-1', i: 0, state: 'sending', sentAt: new Date().toISOString() })
    await a.append({ t: 'item', job: 'shared-1', i: 0, state: 'done', requestId: 'r-1' })
    const seen = (await b.load()).find((j) => j.id === 'shared-1')
    expect(seen).toMatchObject({ by: { member: 'alice', workstation: 'host-a' }, status: 'running' })
    expect(seen?.items.map((i) => i.state)).toEqual(['done', 'pending'])
    expect(b.unreadableLines).toBe(0)
  })

  it('the database restarted mid-job loses nothing and keeps each record once', async () => {
    const a = await workstation('alice', 'host-a')
    await a.append({ t: 'job', job: job('restart-1', ['r1.example', 'r2.example']) })
    await a.append({ t: 'item', job: 'restart-1', i: 0, state: 'done' })
    db.restart()
    // The pool's connections died with the server: the next steps open new ones.
    await a.append({ t: 'item', job: 'restart-1', i: 1, state: 'done' })
    await a.append({ t: 'status', job: 'restart-1', status: 'done', at: new Date().toISOString() })
    const b = await workstation('bob', 'host-b')
    const seen = (await b.load()).find((j) => j.id === 'restart-1')
    expect(seen?.items.map((i) => i.state)).toEqual(['done', 'done'])
    expect(seen?.status).toBe('done')
    const pool = poolFor(db)
    try {
      const rows = await pool.query(`SELECT count(*)::int AS n FROM team_journal WHERE job_id = 'restart-1'`)
      expect(rows.rows[0]).toEqual({ n: 4 })
    } finally {
      await pool.end()
    }
  })

  it('the database away: claim, stillHeld and append fail with team.unreachable (so nothing is sent), and work again when it is back', async () => {
    const a = await workstation('alice', 'host-a')
    const r = await a.claim(ref('away.example'), { jobId: 'jw', index: 0 })
    if (!r.ok) throw new Error('claim refused')
    // Checked before the crash, as before a send: that commit waited for the disk (and the claim's with it).
    expect(await a.stillHeld(r.lease)).toBe(true)
    db.stopServer()
    try {
      await expect(a.claim(ref('away-2.example'), { jobId: 'jw', index: 1 })).rejects.toSatisfy(
        (e: unknown) => codeOf(e) === 'team.unreachable',
      )
      await expect(a.stillHeld(r.lease)).rejects.toSatisfy((e: unknown) => codeOf(e) === 'team.unreachable')
      await expect(a.append({ t: 'item', job: 'jw', i: 0, state: 'sending' })).rejects.toSatisfy(
        (e: unknown) => codeOf(e) === 'team.unreachable',
      )
    } finally {
      db.startServer()
    }
    expect(await a.stillHeld(r.lease)).toBe(true)
    await a.release(r.lease, 'free')
  })

  it('an app that finds a newer schema reads what it can and refuses every write, saying to update', async () => {
    const pool = poolFor(db)
    try {
      await pool.query('UPDATE team_schema SET version = version + 1')
      const newer = await TeamLedger.open({
        pool: poolFor(db),
        member: 'carol',
        workstation: 'host-c',
        where: 'postgres',
        ownsPool: true,
      })
      try {
        expect(Array.isArray(await newer.load())).toBe(true)
        await expect(newer.claim(ref('newer.example'), { jobId: 'jn', index: 0 })).rejects.toMatchObject({
          code: 'team.schemaNewer',
          params: { found: SCHEMA_VERSION + 1, supported: SCHEMA_VERSION },
        })
      } finally {
        await newer.close()
      }
    } finally {
      await pool.query('UPDATE team_schema SET version = $1', [SCHEMA_VERSION])
      await pool.end()
    }
  })

  it('keeps no API key, transfer code, password or contact in the database (a dump is searched for planted ones)', async () => {
    const pool = poolFor(db)
    const status = await schemaStatus(pool)
    await pool.end()
    if (status.state === 'absent') throw new Error('no schema')
    const apiKey = 'PLANTED-API-KEY-7f3a9c'
    const accountId = accountFingerprint(apiKey, status.teamId)
    const a = await workstation('alice', 'host-a')
    const j: JobView = {
      ...job('secrets-1', ['secret.example'], {
        authcode: 'PLANTED-TRANSFER-CODE-51be',
        password: 'PLANTED-DDNS-PASSWORD-0d2e',
        contact: { email: 'planted-contact@example.invalid' },
      }),
      accountId,
    }
    await a.append({ t: 'job', job: j })
    await a.append({
      t: 'item',
      job: 'secrets-1',
      i: 0,
      state: 'done',
      result: { domain: 'secret.example', authcode: 'PLANTED-TRANSFER-CODE-51be' },
    })
    const dump = db.dump()
    expect(dump).toContain('secrets-1')
    expect(dump).toContain(accountId)
    for (const planted of ['PLANTED-API-KEY', 'PLANTED-TRANSFER-CODE', 'PLANTED-DDNS-PASSWORD', 'planted-contact'])
      expect(dump).not.toContain(planted)
  })
})
