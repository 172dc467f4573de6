/**
 * The built command on one workstation of a team, another workstation's services beside it, one
 * throwaway PostgreSQL and the sandbox (issue 37 points 3, 5 and 8). Each moment is chosen by
 * holding a request at the sandbox, never by waiting:
 * - `dns apply` whose zone another member saved between its plan and its send: nothing sent, the
 *   plan made again and shown, the refusal naming the member (exit 4);
 * - `dns apply` frozen (SIGSTOP) after it took its lease and before it sent, past the lease's life
 *   (let pass on the database's clock, not waited for):
 *   the other member takes the target and saves; woken (SIGCONT), the command sends nothing and says
 *   its hold was lost.
 */
import { spawn } from 'node:child_process'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { profileFor } from '../../support/profile'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { poolFor, teamDataFolder, untilAged } from '../../support/team-ledgers'
import { CLI_BIN } from '../helpers/cli-process'
import { APP, routerCalls } from '../helpers/router-calls'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)
/**
 * Leases long enough that no stall of a loaded machine loses one (a lease of 1 s was lost to a
 * stall of 1.5 s); the test that needs one to run out lets its life pass (untilAged).
 */
const LEASE_MS = 60_000

let db: TestPostgres
let sb: Sandbox
let outside: ApiClient
const dirs: string[] = []
let aliceDir: string
let bob: AppServices
let bobAccount: string

async function teamFolder(member: string, workstation: string): Promise<string> {
  const dir = await teamDataFolder(db, member, workstation, { leaseMs: LEASE_MS })
  dirs.push(dir)
  return dir
}

/** Alice's command, its own process: its pid to freeze, its exit code and output once it ends. */
function aliceRuns(args: string[], lang = 'C') {
  const child = spawn(process.execPath, [CLI_BIN, '--data-dir', aliceDir, ...args], {
    env: { ...process.env, LANG: lang, LC_ALL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (c: Buffer) => (out += String(c)))
  child.stderr.on('data', (c: Buffer) => (err += String(c)))
  const ended = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, out, err })),
  )
  return { child, ended }
}

/** Bob saves the zone with one more line, through his workstation's services. */
async function bobSaves(domain: string, line: string): Promise<void> {
  const calls = routerCalls(() => bob)
  const zone = await outside.call('domains.dns.get', { domain })
  const p = await calls.call('jobs.prepare', {
    accountId: bobAccount,
    operation: 'domains.dns.set',
    items: [
      {
        params: { domain, ns_type: zone.ns_type, records: `${zone.records.trimEnd()}\n${line}`, ttl: zone.ttl },
        guard: { records: zone.records },
        overRule: true,
      },
    ],
  })
  if (!p.ok) throw new Error(`bob not prepared: ${p.error.code}`)
  const done = await calls.ok('jobs.start', {
    jobId: p.value.job.id,
    ...(p.value.token ? { token: p.value.token } : {}),
  })
  expect(done.items[0]?.state, JSON.stringify(done.items[0]?.error)).toBe('done')
}

const zoneSets = () => sb.received.filter((r) => r.endpoint === 'domains.dns.set').length
const plainDomains = () => sb.state.domains.filter((d) => nsFlavour(d) !== 'registrar').map((d) => d.domainname)

/** A zone file for Alice: the zone as it is now, with one more line. */
async function aliceFile(domain: string, line: string): Promise<string> {
  const zone = await outside.call('domains.dns.get', { domain })
  const file = join(aliceDir, `${domain}.txt`)
  writeFileSync(file, `${zone.records.trimEnd()}\n${line}\n`)
  return file
}

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
  'the command on a team workstation, another beside it (skipped: no D-Bus session or not built)',
  () => {
    beforeAll(async () => {
      db = await startTestPostgres()
      sb = await startSandbox({ domains: 8 })
      outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      aliceDir = await teamFolder('alice', 'host-a')
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
      const bobKeychain = new SessionSecretStore()
      bob = await createAppServices({
        userDataDir: await teamFolder('bob', 'host-b'),
        allowedOrigins: [APP],
        keychain: async () => bobKeychain,
        cliDoor: false,
      })
      bobAccount = (
        await routerCalls(() => bob).ok('accounts.create', {
          fields: profileFor(sb, 'Shop'),
          apiKey: sb.keys.full,
          storage: 'keychain',
        })
      ).id
    }, 90_000)
    afterAll(async () => {
      await bob?.close()
      await sb?.close()
      db?.remove()
      for (const d of dirs) rmSync(d, { recursive: true, force: true })
    })

    const escaped = (d: string) => d.replace(/\./g, '\\.')
    it.each([
      [
        'English',
        'C',
        0,
        (d: string) =>
          new RegExp(
            `the zone ${escaped(d)} changed since its plan was made: bob on host-b saved it at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC`,
          ),
        ['+ add', '- remove'],
      ],
      [
        'Japanese',
        'ja_JP.UTF-8',
        2,
        (d: string) =>
          new RegExp(
            `ゾーン ${escaped(d)} が変更されました（host-b の bob が \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC に保存）`,
          ),
        ['+ 追加', '- 削除'],
      ],
    ] as const)(
      'dns apply, the zone saved by another member between its plan and its send (%s): nothing sent, planned again, the member named (exit 4)',
      async (_language, lang, nth, refusal, [add, remove]) => {
        const domain = plainDomains()[nth]!
        const file = await aliceFile(domain, 'a alice 192.0.2.31')
        // Held at the job's start (its first look at the service's log): the plan is made, nothing claimed yet.
        sb.faults.inject('logs.list', { hold: true, times: 1 })
        const alice = aliceRuns(['dns', 'apply', domain, file, '--yes'], lang)
        await vi.waitFor(() => expect(sb.faults.held('logs.list')).toBe(1), { timeout: 30_000, interval: 50 })
        await bobSaves(domain, 'a bob 192.0.2.32')
        const sets = zoneSets()
        sb.faults.release()
        const ran = await alice.ended
        expect(ran.code, ran.err).toBe(4)
        expect(ran.err).toMatch(refusal(domain))
        // The plan made again from the zone as it is now: Alice's line still to add, and Bob's, not in
        // her file, shown as what her save would remove.
        expect(ran.out.split('\n')).toEqual(
          expect.arrayContaining([`${add} A alice 192.0.2.31`, `${remove} A bob 192.0.2.32`]),
        )
        expect(zoneSets()).toBe(sets)
        const zone = await outside.call('domains.dns.get', { domain })
        expect(zone.records).toContain('192.0.2.32')
        expect(zone.records).not.toContain('192.0.2.31')
      },
      90_000,
    )

    it('dns apply frozen (SIGSTOP) after taking its lease, past its life: the other member saves; woken (SIGCONT), it sends nothing and says its hold was lost', async () => {
      const domain = plainDomains()[1]!
      const file = await aliceFile(domain, 'a alice 192.0.2.41')
      sb.faults.inject('logs.list', { hold: true, times: 1 })
      const alice = aliceRuns(['dns', 'apply', domain, file, '--yes'])
      let frozen = false
      try {
        await vi.waitFor(() => expect(sb.faults.held('logs.list')).toBe(1), { timeout: 30_000, interval: 50 })
        // Next, the zone read again right before the send, once the lease is taken: held there.
        sb.faults.inject('domains.dns.get', { hold: true, times: 1 })
        sb.faults.release()
        await vi.waitFor(() => expect(sb.faults.held('domains.dns.get')).toBe(1), { timeout: 30_000, interval: 50 })
        const pool = poolFor(db)
        try {
          const row = z.object({ member: z.string(), checked: z.boolean() })
          const lease = row.parse(
            (
              await pool.query(
                `SELECT member, checked_at IS NOT NULL AS checked FROM team_leases WHERE state = 'sending' AND target = $1`,
                [`domain=${domain}`],
              )
            ).rows[0],
          )
          expect(lease).toEqual({ member: 'alice', checked: false })
          alice.child.kill('SIGSTOP')
          frozen = true
          // The read answered into the frozen process's socket; its lease's life passes unrenewed.
          sb.faults.release()
          await untilAged(
            pool,
            'host-a',
            LEASE_MS,
            async () =>
              z
                .object({ n: z.number() })
                .parse(
                  (
                    await pool.query(
                      `SELECT count(*)::int AS n FROM team_leases WHERE state = 'sending' AND target = $1 AND expires_at > now()`,
                      [`domain=${domain}`],
                    )
                  ).rows[0],
                ).n,
            (n) => n === 0,
          )
        } finally {
          await pool.end()
        }
        // Bob takes the target and saves.
        await bobSaves(domain, 'a bob 192.0.2.42')
      } finally {
        if (frozen) alice.child.kill('SIGCONT')
      }
      const sets = zoneSets()
      const ran = await alice.ended
      // Woken with a stale fencing number: not sent, and said so.
      expect(ran.code, ran.err).toBe(1)
      expect(ran.err).toMatch(/hold on .+ ran out/i)
      expect(zoneSets()).toBe(sets)
      const zone = await outside.call('domains.dns.get', { domain })
      expect(zone.records).toContain('192.0.2.42')
      expect(zone.records).not.toContain('192.0.2.41')
    }, 90_000)
  },
)
