/**
 * The team database away and back, seen through the app's services (issue 37 point 6): a
 * workstation that started while the database was away shows the team's jobs once it is back,
 * without a restart; a database restarted while a job's renewal is on its way loses nothing and
 * sends nothing twice. Two workstations (two data folders, two sets of services), one throwaway
 * PostgreSQL on loopback, one sandbox.
 */
import { rmSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import type { TeamStatus } from '../../src/main/team/team-mode'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import type { JobView } from '@shared/jobs'
import { profileFor } from '../../support/profile'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { poolFor, teamDataFolder } from '../../support/team-ledgers'
import { APP, routerCalls } from '../helpers/router-calls'

/** A workstation's folder and keychain, which outlive its services (the app quit and started again). */
interface Workstation {
  dir: string
  keychain: SessionSecretStore
}

let db: TestPostgres
let sb: Sandbox
const dirs: string[] = []
const open: AppServices[] = []

async function workstation(member: string, name: string): Promise<Workstation> {
  const dir = await teamDataFolder(db, member, name)
  dirs.push(dir)
  const w = { dir, keychain: new SessionSecretStore() }
  // The account set up once, its key in this workstation's keychain.
  const first = await createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    keychain: async () => w.keychain,
    cliDoor: false,
  })
  try {
    await routerCalls(() => first).ok('accounts.create', {
      fields: profileFor(sb, 'Shop', 5000),
      apiKey: sb.keys.full,
      storage: 'keychain',
    })
  } finally {
    await first.close()
  }
  return w
}

/** The workstation's app started: its services, calls and every team status it says. */
async function start(w: Workstation) {
  const services = await createAppServices({
    userDataDir: w.dir,
    allowedOrigins: [APP],
    keychain: async () => w.keychain,
    cliDoor: false,
    logCheckDelaysMs: [50, 100],
  })
  open.push(services)
  const statuses: TeamStatus[] = []
  services.team.onStatus((s) => statuses.push(s))
  return {
    services,
    calls: routerCalls(() => services),
    statuses,
    accountId: services.profiles.current.accounts[0]?.id ?? '',
  }
}
type Started = Awaited<ReturnType<typeof start>>

const renewals = () => sb.received.filter((r) => r.endpoint === 'domains.expiration.renew')
const said = (statuses: TeamStatus[]) =>
  statuses.map((s) => (s.mode === 'team' && !s.connected ? s.problem.code : 'connected'))

async function renew(
  w: Started,
  domains: string[],
  concurrency = 1,
): Promise<{ job: JobView; running: Promise<JobView> }> {
  const p = await w.calls.call('jobs.prepare', {
    accountId: w.accountId,
    operation: 'domains.expiration.renew',
    items: domains.map((domain) => ({ params: { domain, years: 1 } })),
    concurrency,
  })
  if (!p.ok) throw new Error(`not prepared: ${p.error.code}`)
  return {
    job: p.value.job,
    running: w.calls.ok('jobs.start', { jobId: p.value.job.id, ...(p.value.token ? { token: p.value.token } : {}) }),
  }
}

beforeAll(async () => {
  db = await startTestPostgres()
  sb = await startSandbox({ domains: 10 })
}, 60_000)
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
})
afterAll(async () => {
  await sb?.close()
  db?.remove()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('the team database away and back, through the services', () => {
  it("started while the database was away: once it is back, Writes shows the team's jobs without a restart", async () => {
    const alice = await start(await workstation('alice', 'host-a'))
    const bobHere = await workstation('bob', 'host-b')
    const { job, running } = await renew(alice, [sb.state.domains[0]!.domainname])
    expect((await running).status).toBe('done')

    db.stopServer()
    let bob: Started
    try {
      bob = await start(bobHere)
      // Away at start: no team jobs to show yet, and said so.
      expect(bob.services.jobs.list().find((j) => j.id === job.id)).toBeUndefined()
      expect(bob.services.team.status()).toMatchObject({ connected: false, problem: { code: 'team.unreachable' } })
    } finally {
      db.startServer()
    }
    // Back (noticed by the app itself, asking again every few seconds): Alice's job is there, hers.
    const seen = await vi.waitFor(
      () => {
        const j = bob.services.jobs.list().find((x) => x.id === job.id)
        expect(j).toBeDefined()
        return j!
      },
      { timeout: 20_000, interval: 100 },
    )
    expect(seen).toMatchObject({ status: 'done', by: { member: 'alice', workstation: 'host-a' } })
    expect(seen.items.map((it) => it.state)).toEqual(['done'])
    expect(bob.services.team.status()).toMatchObject({ connected: true })
    // The database's going and return each said once.
    expect(said(bob.statuses)).toEqual(['connected'])
  }, 60_000)

  it('the database restarted while a renewal is on its way: nothing lost, nothing sent twice, the team journal as the job ended', async () => {
    const alice = await start(await workstation('alice', 'host-a2'))
    const domains = sb.state.domains.slice(4, 8).map((d) => d.domainname)
    const before = renewals().length
    sb.faults.inject('domains.expiration.renew', { hold: true, times: 1 })
    const { job, running } = await renew(alice, domains)
    await vi.waitFor(() => expect(sb.faults.held('domains.expiration.renew')).toBe(1), { timeout: 10_000 })
    // Immediate stop (as a crash) and start, while the first renewal is held at the service.
    db.restart()
    sb.faults.release()
    const ended = await running
    const states = ended.items.map((it) => it.state)
    // The renewal on its way when the database went is done; each later item either went once
    // (the database was back in time) or was skipped before anything was sent.
    expect(states[0]).toBe('done')
    for (const s of states.slice(1)) expect(['done', 'skipped']).toContain(s)
    const done = states.filter((s) => s === 'done').length
    expect(renewals().length - before).toBe(done)
    const perDomain = domains.map(
      (d) =>
        renewals()
          .slice(before)
          .filter((r) => JSON.stringify(r.body).includes(d)).length,
    )
    expect(perDomain.every((n) => n <= 1)).toBe(true)
    // Settled when the connection is there: the team's journal and leases say how it ended.
    const pool = poolFor(db)
    try {
      await vi.waitFor(
        async () => {
          const rows = z
            .array(z.object({ state: z.string() }))
            .parse((await pool.query('SELECT state FROM team_job_items WHERE job_id = $1 ORDER BY idx', [job.id])).rows)
          expect(rows.map((r) => r.state)).toEqual(states)
          const held = await pool.query(
            `SELECT count(*)::int AS n FROM team_leases WHERE job_id = $1 AND state IN ('sending', 'unknown')`,
            [job.id],
          )
          expect(z.object({ n: z.number() }).parse(held.rows[0]).n).toBe(0)
        },
        { timeout: 20_000, interval: 200 },
      )
    } finally {
      await pool.end()
    }
    // Said away at most once, and connected again at the end.
    expect(said(alice.statuses).filter((s) => s === 'team.unreachable').length).toBeLessThanOrEqual(1)
    await vi.waitFor(() => expect(alice.services.team.status()).toMatchObject({ connected: true }), {
      timeout: 20_000,
      interval: 100,
    })
  }, 60_000)
})

describe("a colleague's job running when this workstation starts", () => {
  it('is shown running, not as cut off by a quit: its send still on its way is not an unknown outcome', async () => {
    const alice = await start(await workstation('alice', 'host-a3'))
    const domain = sb.state.domains[9]!.domainname
    const before = renewals().length
    sb.faults.inject('domains.expiration.renew', { hold: true, times: 1 })
    const { job, running } = await renew(alice, [domain])
    await vi.waitFor(() => expect(sb.faults.held('domains.expiration.renew')).toBe(1), { timeout: 10_000 })
    // Bob starts while Alice's renewal is held at the service, her workstation alive.
    const bob = await start(await workstation('bob', 'host-b3'))
    const seen = bob.services.jobs.list().find((j) => j.id === job.id)
    expect(seen).toMatchObject({ status: 'running', by: { member: 'alice', workstation: 'host-a3' } })
    expect(seen?.items.map((it) => it.state)).toEqual(['sending'])
    sb.faults.release()
    expect((await running).status).toBe('done')
    expect(renewals().length - before).toBe(1)
  }, 60_000)
})
