/**
 * A workstation's whole command killed mid-renewal (issue 37 points 3 and 8): `hosting-admin renew`
 * (the built command, its own process) on Alice's workstation has its renewal held at the sandbox,
 * really on its way, when it is killed with SIGKILL. Bob's workstation (the app's services, with a
 * keychain of its own, so a body key of its own as on another machine) then sees the target as an
 * unknown outcome naming Alice and her workstation, settles it from the service's log once the
 * service has done it, and nothing is resent: exactly one renewal reaches the sandbox.
 */
import { spawn } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { profileFor } from '../../support/profile'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { poolFor, teamDataFolder, untilAged } from '../../support/team-ledgers'
import { CLI_BIN } from '../helpers/cli-process'
import { APP, routerCalls } from '../helpers/router-calls'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)
/**
 * Leases long enough that no stall of a loaded machine loses one: with 1 s leases, Alice's command
 * stopped for 1.5 s between taking its lease and checking it lost it and never sent. The killed
 * holder's lease's life is let pass on the database's clock (untilAged), not waited for.
 */
const LEASE_MS = 60_000

let db: TestPostgres
let sb: Sandbox
const dirs: string[] = []
let bob: AppServices | undefined

async function teamFolder(member: string, workstation: string): Promise<string> {
  const dir = await teamDataFolder(db, member, workstation, { leaseMs: LEASE_MS })
  dirs.push(dir)
  return dir
}

const renewals = () => sb.received.filter((r) => r.endpoint === 'domains.expiration.renew')
const leaseRow = z.object({ member: z.string(), workstation: z.string(), checked: z.boolean(), expired: z.boolean() })

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
  'the holder killed mid-renewal (skipped: no D-Bus session or not built)',
  () => {
    beforeAll(async () => {
      db = await startTestPostgres()
      sb = await startSandbox({ domains: 1 })
    }, 60_000)
    afterAll(async () => {
      await bob?.close()
      await sb?.close()
      db?.remove()
      for (const d of dirs) rmSync(d, { recursive: true, force: true })
    })

    it('kill -9 of the command while its renewal is on its way: the other workstation sees it unknown, by whom, settles it from the log; nothing resent', async () => {
      const domain = sb.state.domains[0]!.domainname
      // Alice's workstation: her account's key in the keychain, as the command reads it.
      const aliceDir = await teamFolder('alice', 'host-a')
      const setup = await createAppServices({
        userDataDir: aliceDir,
        allowedOrigins: [APP],
        storeWorkerUrl: WORKER,
        cliDoor: false,
      })
      try {
        const { ok } = routerCalls(() => setup)
        const a = await ok('accounts.create', {
          fields: profileFor(sb, 'Shop'),
          apiKey: sb.keys.full,
          storage: 'keychain',
        })
        await ok('accounts.setActive', { id: a.id })
      } finally {
        await setup.close()
      }

      sb.faults.inject('domains.expiration.renew', { hold: true, times: 1 })
      const cli = spawn(
        process.execPath,
        [CLI_BIN, '--data-dir', aliceDir, 'renew', '--expiring-within', '3000d', '--yes', '--json'],
        {
          env: { ...process.env, LANG: 'C', LC_ALL: '' },
          stdio: 'ignore',
        },
      )
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        cli.once('exit', (_code, signal) => resolve(signal)),
      )
      try {
        // Really mid-send: the request has reached the service, which holds it unanswered.
        await vi.waitFor(() => expect(sb.faults.held('domains.expiration.renew')).toBe(1), {
          timeout: 30_000,
          interval: 100,
        })
      } finally {
        cli.kill('SIGKILL')
      }
      expect(await exited).toBe('SIGKILL')

      // Its lease, checked before the send, runs out unrenewed: an unknown outcome for the team.
      const pool = poolFor(db)
      try {
        const lease = await untilAged(
          pool,
          'host-a',
          LEASE_MS,
          async () =>
            leaseRow.parse(
              (
                await pool.query(
                  `SELECT member, workstation, checked_at IS NOT NULL AS checked, expires_at <= now() AS expired FROM team_leases WHERE state IN ('sending', 'unknown')`,
                )
              ).rows[0],
            ),
          (r) => r.expired,
        )
        expect(lease).toEqual({ member: 'alice', workstation: 'host-a', checked: true, expired: true })
      } finally {
        await pool.end()
      }

      // Bob's workstation, opened after the kill: another keychain (another body key), the same
      // account's key in it (kept there by an earlier run of his app).
      const bobDir = await teamFolder('bob', 'host-b')
      const bobKeychain = new SessionSecretStore()
      const bobServices = () =>
        createAppServices({
          userDataDir: bobDir,
          allowedOrigins: [APP],
          keychain: async () => bobKeychain,
          cliDoor: false,
          logCheckDelaysMs: [20],
        })
      const earlier = await bobServices()
      try {
        await routerCalls(() => earlier).ok('accounts.create', {
          fields: profileFor(sb, 'Shop'),
          apiKey: sb.keys.full,
          storage: 'keychain',
        })
      } finally {
        await earlier.close()
      }
      bob = await bobServices()
      const services = bob
      const calls = routerCalls(() => services)
      const accountId = bob.profiles.current.accounts[0]!.id
      const renewItems = [{ params: { domain, years: 1 } }]

      // Bob sees Alice's renewal as unknown, and is refused a renewal of his own, naming her.
      const aliceJob = bob.jobs.list().find((j) => j.operation === 'domains.expiration.renew')
      expect(aliceJob).toMatchObject({ by: { member: 'alice', workstation: 'host-a' }, status: 'interrupted' })
      expect(aliceJob?.items[0]?.state).toBe('unknown')
      const refused = await calls.call('jobs.prepare', {
        accountId,
        operation: 'domains.expiration.renew',
        items: renewItems,
      })
      expect(refused.ok ? undefined : refused.error).toMatchObject({
        code: 'job.targetUnknownBy',
        params: { member: 'alice', workstation: 'host-a' },
      })

      // The service goes on with the request it held (its sender is gone) and logs it.
      const logged = sb.state.logs.length
      sb.faults.release()
      await vi.waitFor(
        () =>
          expect(
            sb.state.logs.slice(logged).some((l) => l.method === 'PUT' && l.path.endsWith('/domains/expiration')),
          ).toBe(true),
        { timeout: 10_000, interval: 50 },
      )

      // Settled from the log by Bob: done, and the target free for the team again.
      expect(
        await calls.ok('jobs.checkLog', { jobId: aliceJob!.id, index: 0 }),
        JSON.stringify(bob.jobs.list().find((j) => j.id === aliceJob!.id)?.items[0]),
      ).toBe('received')
      expect(bob.jobs.list().find((j) => j.id === aliceJob!.id)?.items[0]).toMatchObject({
        state: 'done',
        resolvedFromLog: true,
      })
      const free = await calls.call('jobs.prepare', {
        accountId,
        operation: 'domains.expiration.renew',
        items: renewItems,
      })
      expect(free.ok).toBe(true)
      if (free.ok) await calls.ok('jobs.discard', { jobId: free.value.job.id })

      // One renewal reached the service, whatever happened around it.
      expect(renewals()).toHaveLength(1)
    }, 120_000)
  },
)
