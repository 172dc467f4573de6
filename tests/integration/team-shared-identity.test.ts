/**
 * What docs/team-mode.md lists as shared is shared (issue 50 point 2): two workstations of one team on a
 * real PostgreSQL and one sandbox. An account's identity set on one workstation (its level raised to
 * production: the name typed before every write) is enforced on the other's window and command, and
 * the change is a team history entry with its member; the identity's row and a change from outside
 * one workstation's refresh found are written to the team's tables by the app.
 */
import { existsSync, rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { createApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { profileFor } from '../../support/profile'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { poolFor, teamDataFolder } from '../../support/team-ledgers'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { APP, routerCalls } from '../helpers/router-calls'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)

let db: TestPostgres
let sb: Sandbox
const folders: string[] = []

async function open(dir: string): Promise<AppServices> {
  return createAppServices({ userDataDir: dir, allowedOrigins: [APP], storeWorkerUrl: WORKER, cliDoor: false })
}

/** A workstation's folder with the sandbox's account (its key in the keychain); the account's id there. */
async function workstation(member: string, name: string): Promise<{ dir: string; accountId: string }> {
  const dir = await teamDataFolder(db, member, name)
  folders.push(dir)
  const services = await open(dir)
  try {
    const { ok } = routerCalls(() => services)
    const a = await ok('accounts.create', { fields: profileFor(sb, 'Shop'), apiKey: sb.keys.full, storage: 'keychain' })
    await ok('accounts.setActive', { id: a.id })
    return { dir, accountId: a.id }
  } finally {
    await services.close()
  }
}

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
  'an account shared by two workstations (skipped: no D-Bus session or not built)',
  () => {
    beforeAll(async () => {
      db = await startTestPostgres()
      sb = await startSandbox({ domains: 8 })
    }, 60_000)
    afterAll(async () => {
      await sb?.close()
      db?.remove()
      for (const d of folders) rmSync(d, { recursive: true, force: true })
    })

    it("alice sets the account to production: bob's window asks for its name and bob's command refuses a renewal without it", async () => {
      const alice = await workstation('alice', 'ws-a')
      const bob = await workstation('bob', 'ws-b')
      // Alice raises the level (raising needs no name).
      const a = await open(alice.dir)
      try {
        const { ok } = routerCalls(() => a)
        const [shop] = (await ok('accounts.list', {})).accounts.filter((x) => !x.demo)
        if (!shop) throw new Error('no account')
        const { id: _id, demo: _demo, keyStorage: _ks, ...fields } = shop
        await ok('accounts.update', { id: alice.accountId, fields: { ...fields, writeSafety: 'name' } })
        // The share is sent once the update is saved: wait for its row.
        const pool = poolFor(db)
        try {
          for (let i = 0; i < 100; i++) {
            const r = await pool.query(`SELECT write_safety FROM team_accounts`)
            if (
              z
                .array(z.object({ write_safety: z.string() }))
                .parse(r.rows)
                .some((x) => x.write_safety === 'name')
            )
              break
            await new Promise((res) => setTimeout(res, 50))
          }
          const row = z
            .object({ label: z.string(), write_safety: z.string(), updated_by: z.string() })
            .parse((await pool.query('SELECT label, write_safety, updated_by FROM team_accounts')).rows[0])
          expect(row).toEqual({ label: 'Shop', write_safety: 'name', updated_by: 'alice' })
          const change = z
            .object({ member: z.string(), change: z.object({ kind: z.string(), to: z.string() }) })
            .parse(
              (
                await pool.query(
                  `SELECT member, change FROM team_history WHERE change->>'kind' = 'writeSafety' ORDER BY id DESC LIMIT 1`,
                )
              ).rows[0],
            )
          expect(change).toMatchObject({ member: 'alice', change: { kind: 'writeSafety', to: 'name' } })
        } finally {
          await pool.end()
        }
      } finally {
        await a.close()
      }
      // Bob's window: a renewal prepared now asks for the name, and is refused without it.
      const b = await open(bob.dir)
      try {
        const { ok, call } = routerCalls(() => b)
        const domain = sb.state.domains[0]!.domainname
        const prepared = await ok('jobs.prepare', {
          accountId: bob.accountId,
          operation: 'domains.autorenew.set',
          items: [{ params: { domain, autorenew_all: 0, autorenew_domain: 0 } }],
        })
        expect(prepared.job.confirmByName).toBe(true)
        expect(
          await call('jobs.start', { jobId: prepared.job.id, ...(prepared.token ? { token: prepared.token } : {}) }),
        ).toMatchObject({ ok: false, error: { code: 'job.accountNameRequired' } })
        await ok('jobs.discard', { jobId: prepared.job.id })
      } finally {
        await b.close()
      }
      // Bob's command: --yes alone is not enough for a production account; nothing is sent.
      const before = sb.received.filter((r) => r.endpoint === 'domains.expiration.renew').length
      const refused = await runCli(['renew', '--expiring-within', '30000d', '--yes'], { dataDir: bob.dir })
      expect(refused.code).not.toBe(0)
      expect(refused.err).toMatch(/--confirm-account/)
      expect(sb.received.filter((r) => r.endpoint === 'domains.expiration.renew').length).toBe(before)
    }, 120_000)

    it("a change from outside one workstation's refresh finds is in the team's drift findings, found by that member", async () => {
      const carol = await workstation('carol', 'ws-c')
      const c = await open(carol.dir)
      try {
        const { ok } = routerCalls(() => c)
        const domain = sb.state.domains[2]!.domainname
        await ok('store.refreshAccount', { accountId: carol.accountId, callId: 'drift-1' })
        const outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
        const lock = await outside.call('domains.transferlock.get', { domain })
        await outside.call('domains.transferlock.set', { domain, transfer_lock: lock.transfer_lock === 1 ? 0 : 1 })
        const r = await ok('store.refreshAccount', { accountId: carol.accountId, callId: 'drift-2' })
        expect(r.drift).toBeGreaterThan(0)
        const pool = poolFor(db)
        try {
          let rows: Array<{ domain: string; found_by: string }> = []
          for (let i = 0; i < 100 && rows.length === 0; i++) {
            rows = z
              .array(z.object({ domain: z.string(), found_by: z.string() }))
              .parse(
                (await pool.query('SELECT domain, found_by FROM team_drift_findings WHERE domain = $1', [domain])).rows,
              )
            if (rows.length === 0) await new Promise((res) => setTimeout(res, 50))
          }
          expect(rows).toEqual([{ domain, found_by: 'carol' }])
        } finally {
          await pool.end()
        }
      } finally {
        await c.close()
      }
    }, 120_000)
  },
)
