/**
 * Settled stays settled, beyond one desk (issue 49 point 3): one real PostgreSQL, the sandbox
 * keeping the service's log, two workstations. An unknown outcome is settled from the log only by
 * a request that belongs to its item, never by a colleague's request for the same target (same
 * method, path and body); and a process woken past its lease writes no state over an item a
 * colleague settled meanwhile.
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createAppServices } from '../../src/main/app/app-services'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { profileFor } from '../../support/profile'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { ageWorkstation, poolFor, teamDataFolder } from '../../support/team-ledgers'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { match } from '../helpers/matchers'
import { APP, routerCalls } from '../helpers/router-calls'
import { closeTeamWorkstations, openTeamWorkstation, type TeamWorkstation } from '../helpers/team-workstation'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)
/**
 * The command's and Carol's leases: long enough that no stall of a loaded machine loses one (with
 * 1 s, the command stopped 1.5 s between taking its lease and checking it never sent). Dave's
 * lease's life is let pass on the database's clock (ageWorkstation) while he is frozen.
 */
const LEASE_MS = 60_000

let db: TestPostgres
let sb: Sandbox
let alice: TeamWorkstation
let bob: TeamWorkstation
const folders: string[] = []

/** A team data folder with the sandbox's account in its keychain (its services closed again), as a workstation set up earlier. */
async function folderWithAccount(
  member: string,
  workstation: string,
  leaseMs: number,
  timeoutMs?: number,
): Promise<string> {
  const dir = await teamDataFolder(db, member, workstation, { leaseMs })
  folders.push(dir)
  const services = await createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    storeWorkerUrl: WORKER,
    cliDoor: false,
  })
  try {
    const { ok } = routerCalls(() => services)
    await ok('accounts.setActive', {
      id: (
        await ok('accounts.create', {
          fields: profileFor(sb, 'Shop', timeoutMs),
          apiKey: sb.keys.full,
          storage: 'keychain',
        })
      ).id,
    })
  } finally {
    await services.close()
  }
  return dir
}

describe('settling an unknown outcome in a team', () => {
  beforeAll(async () => {
    db = await startTestPostgres()
    sb = await startSandbox({ domains: 10 })
    alice = await openTeamWorkstation(db, sb, 'alice', 'host-a')
    bob = await openTeamWorkstation(db, sb, 'bob', 'host-b')
  }, 60_000)
  afterAll(async () => {
    await closeTeamWorkstations([alice, bob])
    await sb?.close()
    db?.remove()
    for (const d of folders) rmSync(d, { recursive: true, force: true })
  })

  it("a colleague's own request for the same target (same method, path and body) never settles this item", async () => {
    const domain = sb.state.domains[1]!.domainname
    const params = { domain, years: 1 }
    // Alice's renewal: the connection broken after it left, before the service acted (nothing logged).
    sb.faults.inject('domains.expiration.renew', { reset: true, times: 1 })
    const prepared = await alice.calls.ok('jobs.prepare', {
      accountId: alice.accountId,
      operation: 'domains.expiration.renew',
      items: [{ params }],
    })
    const lost = await alice.calls.ok('jobs.start', {
      jobId: prepared.job.id,
      ...(prepared.token ? { token: prepared.token } : {}),
    })
    expect(lost.items[0]?.state).toBe('unknown')
    // Bob sends it again, knowing the risk: done, his request in the service's log.
    const again = await bob.calls.ok('jobs.prepare', {
      accountId: bob.accountId,
      operation: 'domains.expiration.renew',
      items: [{ params }],
      secondSend: true,
    })
    const his = await bob.calls.ok('jobs.start', {
      jobId: again.job.id,
      ...(again.token ? { token: again.token } : {}),
    })
    expect(his.items[0]).toMatchObject({ state: 'done', requestId: match.any(String) })
    // Alice's item looked up in the log: Bob's request is his, not hers; hers was never logged.
    expect(await alice.calls.ok('jobs.checkLog', { jobId: lost.id, index: 0 })).toBe('not-found')
    const after = (await alice.calls.ok('jobs.list', {})).find((j) => j.id === lost.id)?.items[0]
    expect(after?.state).toBe('unknown')
    expect(after?.requestId).not.toBe(his.items[0]?.requestId)
  })

  it.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
    'a process woken past its lease writes no state over an item a colleague settled from the log while it was frozen (skipped: no D-Bus session or not built)',
    async () => {
      // Its requests time out after 3 s: woken, its renewal's answer (lost) makes its outcome unknown.
      const dir = await folderWithAccount('dave', 'host-d', LEASE_MS, 3_000)
      const domain = sb.state.domains[3]!.domainname
      sb.state.domains[3]!.expirationdate = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)
      for (const d of sb.state.domains.slice(0, 3)) d.expirationdate = '2099-01-01'
      for (const d of sb.state.domains.slice(4)) d.expirationdate = '2099-01-01'
      // Held until Dave is frozen, then carried out and logged, its answer never sent.
      sb.faults.inject('domains.expiration.renew', { hold: true, lostAnswer: 'hang', times: 1 })
      const from = sb.received.length
      let child: ChildProcess | undefined
      const dave = runCli(['renew', '--expiring-within', '30d', '--yes', '--json'], {
        dataDir: dir,
        timeoutMs: 120_000,
        onSpawn: (c) => (child = c),
      })
      let ended: string | undefined
      void dave.then((r) => (ended = `exit ${r.code}: ${r.err} ${r.out}`))
      await vi.waitFor(() => expect(sb.faults.held('domains.expiration.renew'), ended).toBe(1), {
        timeout: 60_000,
        interval: 20,
      })
      child?.kill('SIGSTOP')
      const pool = poolFor(db)
      let jobId = ''
      let index = 0
      try {
        // The renewal carried out and logged while Dave is frozen; his lease's life passes, checked: unknown for the team.
        sb.faults.release()
        await vi.waitFor(
          async () => {
            await ageWorkstation(pool, 'host-d', LEASE_MS)
            const r = await pool.query(
              `SELECT count(*)::int AS n FROM team_leases WHERE target = $1 AND state = 'sending' AND expires_at < now()`,
              [`domain=${domain}`],
            )
            const all = (
              await pool.query(
                `SELECT target, state, member, expires_at < now() AS expired, checked_at IS NOT NULL AS checked FROM team_leases ORDER BY fence DESC LIMIT 5`,
              )
            ).rows
            expect(z.object({ n: z.number() }).parse(r.rows[0]).n, JSON.stringify(all)).toBe(1)
          },
          { timeout: 30_000, interval: 100 },
        )
        // Carol starts meanwhile: Dave's job, its process silent past a lease, is one a stop cut off;
        // her app settles its unknown item from the service's log (done), as any member's would.
        // (Her leases' life is how long a silent process counts as alive to her: Dave's heartbeat was
        // made that much older with his lease.)
        const carolDir = await folderWithAccount('carol', 'host-c', LEASE_MS)
        const carolServices = await createAppServices({
          userDataDir: carolDir,
          allowedOrigins: [APP],
          storeWorkerUrl: WORKER,
          cliDoor: false,
          logCheckDelaysMs: [50, 100, 200],
        })
        const carol = { calls: routerCalls(() => carolServices) }
        try {
          const daves = (await carol.calls.ok('jobs.list', {})).find(
            (j) => j.by?.member === 'dave' && j.items.some((it) => it.label === domain),
          )
          expect(daves).toBeDefined()
          jobId = daves!.id
          index = daves!.items.findIndex((it) => it.label === domain)
          await vi.waitFor(
            async () => {
              const r = await pool.query('SELECT state FROM team_job_items WHERE job_id = $1 AND idx = $2', [
                jobId,
                index,
              ])
              const seen = (await carol.calls.ok('jobs.list', {})).find((j) => j.id === jobId)?.items[index]
              expect(z.object({ state: z.string() }).parse(r.rows[0]).state, JSON.stringify(seen)).toBe('done')
            },
            { timeout: 30_000, interval: 100 },
          )
        } finally {
          await carolServices.close()
        }
        child?.kill('SIGCONT')
        child = undefined
        const woken = await dave
        expect(woken.code, woken.err).toBe(3)
        // Whatever Dave's process ended with, the team's record of the item is the settled one.
        const row = z
          .object({ state: z.string() })
          .parse(
            (await pool.query('SELECT state FROM team_job_items WHERE job_id = $1 AND idx = $2', [jobId, index]))
              .rows[0],
          )
        const trail = (
          await pool.query(
            `SELECT member, record->>'state' AS state, record->>'t' AS t FROM team_journal WHERE job_id = $1 ORDER BY seq`,
            [jobId],
          )
        ).rows
        expect(row.state, JSON.stringify(trail)).toBe('done')
        // And no record after Bob's settles it otherwise: the last word on the item in the team's journal is "done".
        const records = z
          .array(z.object({ state: z.string().nullable() }))
          .parse(
            (
              await pool.query(
                `SELECT record->>'state' AS state FROM team_journal WHERE job_id = $1 AND record->>'t' = 'item' AND (record->>'i')::int = $2 ORDER BY seq`,
                [jobId, index],
              )
            ).rows,
          )
        expect(records.at(-1)?.state).toBe('done')
        expect(sb.received.slice(from).filter((r) => r.endpoint === 'domains.expiration.renew')).toHaveLength(1)
      } finally {
        child?.kill('SIGCONT')
        await pool.end()
      }
    },
    120_000,
  )
})
