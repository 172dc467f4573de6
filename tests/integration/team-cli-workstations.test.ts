/**
 * The command line on two workstations of one team (issue 37 point 4): two data folders, each with
 * its team.json and its own keychain entry for the same account, two built-command processes
 * renewing the same domains at once against the sandbox. The first's renewal is held at the
 * service; the second is refused before anything is sent, its refusal naming who holds the target,
 * on which workstation, since when; each domain is renewed once.
 */
import { existsSync, rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createAppServices } from '../../src/main/app/app-services'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { profileFor } from '../../support/profile'
import { teamDataFolder } from '../../support/team-ledgers'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { APP, routerCalls } from '../helpers/router-calls'
import { z } from 'zod'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)

let db: TestPostgres
let sb: Sandbox
const dirs: Record<'alice' | 'bob', string> = { alice: '', bob: '' }

async function workstation(member: 'alice' | 'bob', name: string): Promise<void> {
  const dir = await teamDataFolder(db, member, name)
  dirs[member] = dir
  const services = await createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    storeWorkerUrl: WORKER,
    cliDoor: false,
  })
  try {
    const { ok } = routerCalls(() => services)
    const a = await ok('accounts.create', { fields: profileFor(sb, 'Shop'), apiKey: sb.keys.full, storage: 'keychain' })
    await ok('accounts.setActive', { id: a.id })
  } finally {
    await services.close()
  }
}

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
  'two workstations of a team, from the command line (skipped: no D-Bus session or not built)',
  () => {
    beforeAll(async () => {
      db = await startTestPostgres()
      sb = await startSandbox({ domains: 6 })
      await workstation('alice', 'host-a')
      await workstation('bob', 'host-b')
    }, 60_000)
    afterAll(async () => {
      await sb?.close()
      db?.remove()
      for (const d of Object.values(dirs)) if (d) rmSync(d, { recursive: true, force: true })
    })

    it('both renew at once: the second is told who renews, where and since when; each domain renewed once', async () => {
      const renewals = () => sb.received.filter((r) => r.endpoint === 'domains.expiration.renew')
      sb.faults.inject('domains.expiration.renew', { hold: true, times: 1 })
      const first = runCli(['renew', '--expiring-within', '3000d', '--yes', '--json'], { dataDir: dirs.alice })
      await vi.waitFor(() => expect(sb.faults.held('domains.expiration.renew')).toBe(1), {
        timeout: 30_000,
        interval: 100,
      })
      const second = await runCli(['renew', '--expiring-within', '3000d', '--yes'], { dataDir: dirs.bob })
      expect(second.code).toBe(1)
      expect(second.err).toMatch(/by alice on host-a since \d{4}-\d\d-\d\d \d\d:\d\d UTC/)
      const inJapanese = await runCli(['renew', '--expiring-within', '3000d', '--yes'], {
        dataDir: dirs.bob,
        env: { LANG: 'ja_JP.UTF-8' },
      })
      expect(inJapanese.err).toMatch(/host-a の alice が .+ UTC から実行中/)
      sb.faults.release()
      const done = await first
      expect(done.code, done.err).toBe(0)
      const renewed = z.object({ domains: z.array(z.unknown()) }).parse(JSON.parse(done.out)).domains.length
      expect(renewed).toBeGreaterThan(0)
      expect(renewals()).toHaveLength(renewed)
    }, 90_000)
  },
)
