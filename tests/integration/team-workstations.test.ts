/**
 * Two workstations (two data folders, two sets of the app's services) on one team database (a
 * throwaway PostgreSQL on loopback) and one sandbox (issue 37 points 3-6 and 8): one renewal of
 * one domain reaches the service however many members ask at once, and the one refused is told
 * who holds it; a zone changed by one member since the other's plan is not overwritten and the
 * refusal names that member; the database away sends nothing, says so once, reads go on; history
 * says who, seen from both.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { domainHistory } from '../../src/main/team/team-shared'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import type { JobView } from '@shared/jobs'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { closeTeamWorkstations, openTeamWorkstation, type TeamWorkstation } from '../helpers/team-workstation'
import { poolFor } from '../../support/team-ledgers'
import { z } from 'zod'

let db: TestPostgres
let sb: Sandbox
let outside: ApiClient
let alice: TeamWorkstation
let bob: TeamWorkstation

const renewals = () => sb.received.filter((r) => r.endpoint === 'domains.expiration.renew')

async function prepare(
  w: TeamWorkstation,
  operation: 'domains.expiration.renew' | 'domains.dns.set',
  items: { params: Record<string, unknown>; guard?: { records: string }; overRule?: true }[],
  concurrency?: number,
) {
  return w.calls.call('jobs.prepare', {
    accountId: w.accountId,
    operation,
    items,
    ...(concurrency ? { concurrency } : {}),
  })
}
async function start(w: TeamWorkstation, prepared: { job: JobView; token?: string | undefined }): Promise<JobView> {
  const started = await w.calls.ok('jobs.start', {
    jobId: prepared.job.id,
    ...(prepared.token ? { token: prepared.token } : {}),
  })
  return started
}

beforeAll(async () => {
  db = await startTestPostgres()
  sb = await startSandbox({ domains: 12 })
  outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
  alice = await openTeamWorkstation(db, sb, 'alice', 'host-a')
  bob = await openTeamWorkstation(db, sb, 'bob', 'host-b')
}, 60_000)
afterAll(async () => {
  await closeTeamWorkstations([alice, bob])
  await sb?.close()
  db?.remove()
})

describe('two workstations on one team database', () => {
  it('says both are connected, each with its own names', () => {
    expect(alice.services.team.status()).toMatchObject({
      mode: 'team',
      connected: true,
      member: 'alice',
      workstation: 'host-a',
    })
    expect(bob.services.team.status()).toMatchObject({
      mode: 'team',
      connected: true,
      member: 'bob',
      workstation: 'host-b',
    })
  })

  it('both renew one domain at once: exactly one renewal reaches the service, the other is told who holds it', async () => {
    const domain = sb.state.domains[1]!.domainname
    const items = [{ params: { domain, years: 1 } }]
    const a = await prepare(alice, 'domains.expiration.renew', items)
    const b = await prepare(bob, 'domains.expiration.renew', items)
    if (!a.ok || !b.ok) throw new Error('not prepared')
    const before = renewals().length
    // Alice's renewal is on its way (held at the service) when Bob's is started.
    sb.faults.inject('domains.expiration.renew', { hold: true, times: 1 })
    const aliceDone = start(alice, a.value).then(() => alice.services.jobs.list().find((j) => j.id === a.value.job.id))
    await vi.waitFor(() => expect(sb.faults.held('domains.expiration.renew')).toBe(1), { timeout: 10_000 })
    await start(bob, b.value)
    const bobJob = await vi.waitFor(
      () => {
        const j = bob.services.jobs.list().find((x) => x.id === b.value.job.id)
        expect(j?.status).toBe('done')
        return j!
      },
      { timeout: 10_000 },
    )
    expect(bobJob.items[0]).toMatchObject({
      state: 'failed',
      error: { kind: 'busy', code: 'job.targetBusyBy', params: { member: 'alice', workstation: 'host-a' } },
    })
    expect(String(bobJob.items[0]!.error!.params!.since)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/)
    // And asked again while it is held: refused before anything is prepared, naming the holder.
    const again = await prepare(bob, 'domains.expiration.renew', items)
    expect(again.ok ? undefined : again.error).toMatchObject({
      code: 'job.targetBusyBy',
      params: { member: 'alice', workstation: 'host-a' },
    })
    sb.faults.release()
    await vi.waitFor(async () => expect((await aliceDone)?.status).toBe('done'), { timeout: 10_000 })
    expect(alice.services.jobs.list().find((j) => j.id === a.value.job.id)?.items[0]?.state).toBe('done')
    expect(renewals().length - before).toBe(1)
  })

  it('a zone changed by one member since the other planned it: not overwritten, and the refusal names who changed it', async () => {
    const domain = sb.state.domains.find((d, i) => i > 2 && nsFlavour(d) !== 'registrar')!.domainname
    const zone = await outside.call('domains.dns.get', { domain })
    const planned = { records: zone.records }
    const save = (line: string) => ({
      params: { domain, ns_type: zone.ns_type, records: `${zone.records.trimEnd()}\n${line}`, ttl: zone.ttl },
      guard: planned,
      overRule: true as const,
    })
    // Bob plans from the zone as read; Alice saves hers meanwhile.
    const b = await prepare(bob, 'domains.dns.set', [save('a bob 192.0.2.22')])
    const a = await prepare(alice, 'domains.dns.set', [save('a alice 192.0.2.21')])
    if (!a.ok || !b.ok) throw new Error('not prepared')
    await start(alice, a.value)
    await vi.waitFor(
      () => expect(alice.services.jobs.list().find((j) => j.id === a.value.job.id)?.status).toBe('done'),
      { timeout: 10_000 },
    )
    expect(alice.services.jobs.list().find((j) => j.id === a.value.job.id)?.items[0]?.state).toBe('done')
    const sets = sb.received.filter((r) => r.endpoint === 'domains.dns.set').length
    await start(bob, b.value)
    const bobJob = await vi.waitFor(
      () => {
        const j = bob.services.jobs.list().find((x) => x.id === b.value.job.id)
        expect(j?.status).toBe('done')
        return j!
      },
      { timeout: 10_000 },
    )
    expect(bobJob.items[0]).toMatchObject({
      state: 'failed',
      error: { code: 'dns.changedSincePlanBy', params: { domain, member: 'alice', workstation: 'host-a' } },
    })
    expect(sb.received.filter((r) => r.endpoint === 'domains.dns.set').length).toBe(sets)
    expect((await outside.call('domains.dns.get', { domain })).records).toContain('alice')
    // History says who, seen from the team's database by any member.
    const pool = poolFor(db)
    try {
      const fp = await pool.query('SELECT DISTINCT account FROM team_history')
      const account = z.object({ account: z.string() }).parse(fp.rows[0]).account
      const rows = await domainHistory(pool, account, domain)
      expect(rows.map((r) => r.by?.member)).toEqual(['alice'])
    } finally {
      await pool.end()
    }
  })

  it('the database away: said once, reads go on, no write is sent; back: writes go again', async () => {
    const domain = sb.state.domains[2]!.domainname
    const before = renewals().length
    const seen = alice.statuses.length
    db.stopServer()
    try {
      const refused = await prepare(alice, 'domains.expiration.renew', [{ params: { domain, years: 1 } }])
      expect(refused.ok ? undefined : refused.error.code).toBe('team.unreachable')
      const twice = await prepare(alice, 'domains.expiration.renew', [{ params: { domain, years: 1 } }])
      expect(twice.ok ? undefined : twice.error.code).toBe('team.unreachable')
      // Said once, not per refusal.
      expect(
        alice.statuses.slice(seen).map((s) => (s.mode === 'team' && !s.connected ? s.problem.code : 'connected')),
      ).toEqual(['team.unreachable'])
      expect(alice.services.team.status()).toMatchObject({ connected: false, problem: { code: 'team.unreachable' } })
      // Reading from the service goes on.
      expect((await alice.calls.call('domains.dns.get', { accountId: alice.accountId, domain })).ok).toBe(true)
      expect(renewals().length).toBe(before)
    } finally {
      db.startServer()
    }
    const back = await vi.waitFor(
      async () => {
        const r = await prepare(alice, 'domains.expiration.renew', [{ params: { domain, years: 1 } }])
        expect(r.ok).toBe(true)
        return r
      },
      { timeout: 15_000, interval: 500 },
    )
    if (!back.ok) throw new Error('not prepared')
    await start(alice, back.value)
    await vi.waitFor(
      () => expect(alice.services.jobs.list().find((j) => j.id === back.value.job.id)?.status).toBe('done'),
      { timeout: 10_000 },
    )
    expect(renewals().length - before).toBe(1)
    expect(alice.services.team.status()).toMatchObject({ connected: true })
  })

  it('the database gone mid-job: the job stops before its next item; back, the team journal says how it ended and nothing is resent', async () => {
    const domains = sb.state.domains.slice(6, 9).map((d) => d.domainname)
    const p = await prepare(
      alice,
      'domains.expiration.renew',
      domains.map((domain) => ({ params: { domain, years: 1 } })),
      1,
    )
    if (!p.ok) throw new Error('not prepared')
    const before = renewals().length
    sb.faults.inject('domains.expiration.renew', { hold: true, times: 1 })
    // jobs.start answers when the job has ended: not waited for here.
    const running = start(alice, p.value)
    await vi.waitFor(() => expect(sb.faults.held('domains.expiration.renew')).toBe(1), { timeout: 10_000 })
    db.stopServer()
    let ended: JobView
    try {
      sb.faults.release()
      ended = await vi.waitFor(
        () => {
          const j = alice.services.jobs.list().find((x) => x.id === p.value.job.id)
          expect(j?.status, JSON.stringify(j?.items.map((it) => [it.state, it.error?.code]))).toBe('stopped')
          return j!
        },
        { timeout: 15_000 },
      )
    } finally {
      db.startServer()
    }
    await running
    expect(ended.items.map((it) => it.state)).toEqual(['done', 'skipped', 'skipped'])
    expect(ended.items[1]?.error?.code).toBe('team.unreachable')
    expect(renewals().length - before).toBe(1)
    // Back: what was owed is written (the database is asked again on its own), the first target is free again.
    const pool = poolFor(db)
    try {
      await vi.waitFor(
        async () => {
          const rows = z
            .array(z.object({ idx: z.number(), state: z.string() }))
            .parse(
              (
                await pool.query('SELECT idx, state FROM team_job_items WHERE job_id = $1 ORDER BY idx', [
                  p.value.job.id,
                ])
              ).rows,
            )
          expect(
            rows.map((r) => r.state),
            JSON.stringify(alice.statuses.slice(-4)),
          ).toEqual(['done', 'skipped', 'skipped'])
          const held = await pool.query(
            `SELECT count(*)::int AS n FROM team_leases WHERE job_id = $1 AND state IN ('sending', 'unknown')`,
            [p.value.job.id],
          )
          expect(z.object({ n: z.number() }).parse(held.rows[0]).n).toBe(0)
        },
        { timeout: 20_000, interval: 500 },
      )
    } finally {
      await pool.end()
    }
    const again = await prepare(bob, 'domains.expiration.renew', [{ params: { domain: domains[0]!, years: 1 } }])
    expect(again.ok).toBe(true)
    if (again.ok) await bob.calls.ok('jobs.discard', { jobId: again.value.job.id })
    expect(renewals().length - before).toBe(1)
  })
})
