/**
 * Once per intent, beyond one desk (issue 49): workstations of one team, each its own data folder
 * and its own built-command processes, one real PostgreSQL, the sandbox counting every request.
 * Both sides are prepared (listed, confirmed against what they read) before either sends: the
 * sandbox holds each command's first request of the job's start (its read of the log's newest
 * entry, right before the first item) until every command has reached it, then lets them go at
 * once. A lease keeps two sends to one domain apart; only the precondition checked under it keeps
 * the second from being sent after the first: no domain may be renewed twice, in any round.
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createAppServices } from '../../src/main/app/app-services'
import { LIVE_RATE_LIMIT } from '../../src/sandbox/behaviour'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { profileFor } from '../../support/profile'
import { poolFor, teamDataFolder, untilAged } from '../../support/team-ledgers'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { CLI_BIN, runCli, type Ran } from '../helpers/cli-process'
import { APP, routerCalls } from '../helpers/router-calls'
import { sentBody } from '../helpers/sent-body'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)
const DOMAINS = 100
/**
 * The frozen command's leases: long enough that no stall of a loaded machine loses one while it
 * renews (with 1.5 s, the command stopped 2 s between taking a lease and checking it failed its
 * run); their life is let pass on the database's clock once it is frozen (untilAged).
 */
const FROZEN_LEASE_MS = 60_000
const MEMBER_KEY = `sbx_member_${'e'.repeat(32)}`

let db: TestPostgres
let sb: Sandbox
const dirs = new Map<string, string>()

/** A workstation of the team: its data folder, team.json, and the account with the given key in its keychain. */
async function workstation(
  member: string,
  name: string,
  apiKey: string,
  opts: { leaseMs?: number; service?: Sandbox } = {},
): Promise<string> {
  const dir = await teamDataFolder(db, member, name, opts)
  dirs.set(`${member}@${name}`, dir)
  const services = await createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    storeWorkerUrl: WORKER,
    cliDoor: false,
  })
  try {
    const { ok } = routerCalls(() => services)
    const a = await ok('accounts.create', {
      fields: profileFor(opts.service ?? sb, 'Shop'),
      apiKey,
      storage: 'keychain',
    })
    await ok('accounts.setActive', { id: a.id })
  } finally {
    await services.close()
  }
  return dir
}

const renewalsSince = (n: number) =>
  sb.received.slice(n).filter((r) => r.endpoint === 'domains.expiration.renew' && r.status === 200)
/** Domains renewed more than once among these requests. */
function twice(requests: ReturnType<typeof renewalsSince>): string[] {
  const per = new Map<string, number>()
  for (const r of requests) {
    const d = sentBody(r, z.object({ domain: z.string() })).domain
    per.set(d, (per.get(d) ?? 0) + 1)
  }
  return [...per].filter(([, n]) => n > 1).map(([d]) => d)
}

const renewed = z.object({
  domains: z.array(z.object({ domain: z.string(), state: z.string(), doneElsewhere: z.string().optional() })),
})

/**
 * Every command renews every domain at once; none sends before all have prepared. Resolves with
 * each command's outcome once all have ended.
 */
async function raceRenewals(folders: string[]): Promise<Ran[]> {
  sb.faults.inject('logs.list', { hold: true, times: folders.length })
  const runs = folders.map((dir) =>
    runCli(['renew', '--expiring-within', '30000d', '--yes', '--json'], { dataDir: dir, timeoutMs: 240_000 }),
  )
  await vi.waitFor(() => expect(sb.faults.held('logs.list')).toBe(folders.length), { timeout: 120_000, interval: 50 })
  sb.faults.release()
  return Promise.all(runs)
}

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
  'the same renewals from several workstations at once (skipped: no D-Bus session or not built)',
  () => {
    beforeAll(async () => {
      db = await startTestPostgres()
      // One account with a second member's token beside the full key.
      sb = await startSandbox({ domains: DOMAINS, keys: { members: [MEMBER_KEY] } })
    }, 60_000)
    afterAll(async () => {
      sb?.faults.clear()
      await sb?.close()
      db?.remove()
      for (const d of dirs.values()) rmSync(d, { recursive: true, force: true })
    })

    it('two workstations, both listing before either sends, ten rounds: no domain renewed twice; the second says who renewed each it left', async () => {
      const alice = await workstation('alice', 'ws-a', sb.keys.full)
      const bob = await workstation('bob', 'ws-b', sb.keys.full)
      for (let round = 0; round < 10; round++) {
        const from = sb.received.length
        const [a, b] = await raceRenewals([alice, bob])
        expect(a?.code, a?.err).toBe(0)
        expect(b?.code, b?.err).toBe(0)
        const sent = renewalsSince(from)
        expect(twice(sent), `round ${round}`).toEqual([])
        expect(sent).toHaveLength(DOMAINS)
        // Each domain: renewed by one, and said by the other as renewed by that one (who, where).
        const outcomes = [a, b].map((r) => renewed.parse(JSON.parse(r?.out ?? '')).domains)
        for (const [i, mine] of outcomes.entries()) {
          const other = i === 0 ? 'bob on ws-b' : 'alice on ws-a'
          for (const d of mine) {
            if (d.state === 'done') continue
            expect(d.state).toBe('skipped')
            expect(d.doneElsewhere).toContain(`already renewed by ${other}`)
          }
        }
      }
    }, 900_000)

    it('the same under the live rate limit (at a tenth of its durations), three rounds', async () => {
      const alice = dirs.get('alice@ws-a') ?? (await workstation('alice', 'ws-a', sb.keys.full))
      const bob = dirs.get('bob@ws-b') ?? (await workstation('bob', 'ws-b', sb.keys.full))
      sb.service.rateLimit = {
        limit: LIVE_RATE_LIMIT.limit,
        windowMs: LIVE_RATE_LIMIT.windowMs / 10,
        blockMs: LIVE_RATE_LIMIT.blockMs / 10,
      }
      try {
        for (let round = 0; round < 3; round++) {
          const from = sb.received.length
          const [a, b] = await raceRenewals([alice, bob])
          expect(a?.code, a?.err).toBe(0)
          expect(b?.code, b?.err).toBe(0)
          const sent = renewalsSince(from)
          expect(twice(sent), `round ${round}`).toEqual([])
          expect(sent).toHaveLength(DOMAINS)
        }
      } finally {
        sb.service.rateLimit = undefined
      }
    }, 900_000)

    it('three workstations, three rounds: no domain renewed twice', async () => {
      const folders = [
        dirs.get('alice@ws-a') ?? (await workstation('alice', 'ws-a', sb.keys.full)),
        dirs.get('bob@ws-b') ?? (await workstation('bob', 'ws-b', sb.keys.full)),
        await workstation('carol', 'ws-c', sb.keys.full),
      ]
      for (let round = 0; round < 3; round++) {
        const from = sb.received.length
        const ran = await raceRenewals(folders)
        for (const r of ran) expect(r.code, r.err).toBe(0)
        const sent = renewalsSince(from)
        expect(twice(sent), `round ${round}`).toEqual([])
        expect(sent).toHaveLength(DOMAINS)
      }
    }, 900_000)

    it('two keys of one account (each member a token of their own) are one account to the team: no domain renewed twice; a key of another account stays apart', async () => {
      const alice = dirs.get('alice@ws-a') ?? (await workstation('alice', 'ws-a', sb.keys.full))
      const eve = await workstation('eve', 'ws-e', MEMBER_KEY)
      for (let round = 0; round < 3; round++) {
        const from = sb.received.length
        const [a, e] = await raceRenewals([alice, eve])
        expect(a?.code, a?.err).toBe(0)
        expect(e?.code, e?.err).toBe(0)
        const sent = renewalsSince(from)
        expect(twice(sent), `round ${round}`).toEqual([])
        expect(sent).toHaveLength(DOMAINS)
      }
      // Another service account (its own log): its key is an account of its own to the team.
      const other = await startSandbox({ domains: 3 })
      try {
        const frank = await workstation('frank', 'ws-f', other.keys.full, { service: other })
        const ran = await runCli(['renew', '--expiring-within', '30000d', '--yes', '--json'], {
          dataDir: frank,
          timeoutMs: 120_000,
        })
        expect(ran.code, ran.err).toBe(0)
        expect(
          other.received.filter((r) => r.endpoint === 'domains.expiration.renew' && r.status === 200),
        ).toHaveLength(3)
      } finally {
        await other.close()
      }
      const pool = poolFor(db)
      try {
        const rows = z
          .array(z.object({ account: z.string(), how: z.string(), linked_by: z.string() }))
          .parse((await pool.query('SELECT account, how, linked_by FROM team_account_keys ORDER BY linked_at')).rows)
        // The shop's two keys (the full one, which alice's and bob's folders hold, and eve's): one account,
        // whichever the team met first; the other found in its log. Frank's key: an account of its own.
        const frank = rows.filter((r) => r.linked_by === 'frank')
        const shop = rows.filter((r) => r.linked_by !== 'frank')
        expect(shop.map((r) => r.how).sort()).toEqual(['first', 'log'])
        expect(new Set(shop.map((r) => r.account)).size).toBe(1)
        expect(frank).toMatchObject([{ how: 'first' }])
        expect(frank[0]?.account).not.toBe(shop[0]?.account)
      } finally {
        await pool.end()
      }
    }, 600_000)

    it('a renewal frozen past its lease while a colleague renews what is still due: woken, it sends nothing a colleague did, and says who did', async () => {
      const frozen = await workstation('dave', 'ws-d', sb.keys.full, { leaseMs: FROZEN_LEASE_MS })
      const colleague = dirs.get('alice@ws-a') ?? (await workstation('alice', 'ws-a', sb.keys.full))
      // Every domain due within 60 days: a domain renewed (a year on) is no longer listed as due.
      const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10)
      for (const d of sb.state.domains) d.expirationdate = soon
      const from = sb.received.length
      let child: ChildProcess | undefined
      const first = runCli(['renew', '--expiring-within', '60d', '--yes', '--json'], {
        dataDir: frozen,
        timeoutMs: 240_000,
        onSpawn: (c) => (child = c),
      })
      // Once 20 of its renewals have reached the service, the next ones are held there until all three
      // of its workers wait on one (none between its check and its send), and it is frozen; the held
      // renewals are then done at the service, their answers waiting in the frozen process's sockets.
      await vi.waitFor(() => expect(renewalsSince(from).length).toBeGreaterThanOrEqual(20), {
        timeout: 60_000,
        interval: 5,
      })
      sb.faults.inject('domains.expiration.renew', { hold: true })
      await vi.waitFor(() => expect(sb.faults.held('domains.expiration.renew')).toBe(3), {
        timeout: 60_000,
        interval: 5,
      })
      child?.kill('SIGSTOP')
      sb.faults.clear()
      sb.faults.release()
      try {
        const stoppedAt = renewalsSince(from).length
        // The held renewals done at the service (their answers sent into the frozen process's sockets).
        await vi.waitFor(
          () =>
            expect(
              sb.received.slice(from).filter((r) => r.endpoint === 'domains.expiration.renew' && r.status === 0),
            ).toEqual([]),
          { timeout: 30_000, interval: 20 },
        )
        // Past its lease (no heartbeat while frozen), its life let pass on the database's clock: none
        // of its leases is live any more. Then the colleague renews what is still due.
        const pool = poolFor(db)
        try {
          await untilAged(
            pool,
            'ws-d',
            FROZEN_LEASE_MS,
            async () =>
              z
                .object({ n: z.number() })
                .parse(
                  (
                    await pool.query(
                      `SELECT count(*)::int AS n FROM team_leases WHERE workstation = 'ws-d' AND state = 'sending' AND expires_at > now()`,
                    )
                  ).rows[0],
                ).n,
            (n) => n === 0,
          )
        } finally {
          await pool.end()
        }
        const colleagues = await runCli(['renew', '--expiring-within', '60d', '--yes', '--json'], {
          dataDir: colleague,
          timeoutMs: 240_000,
        })
        expect(colleagues.code, colleagues.err).toBe(0)
        expect(renewalsSince(from).length).toBe(DOMAINS)
        expect(stoppedAt).toBeLessThan(DOMAINS)
      } finally {
        child?.kill('SIGCONT')
      }
      const woken = await first
      const sent = renewalsSince(from)
      expect(twice(sent)).toEqual([])
      expect(sent).toHaveLength(DOMAINS)
      // Its exit and words say what was done, and by whom.
      expect(woken.code, woken.err).toBe(0)
      const outcome = renewed.parse(JSON.parse(woken.out)).domains
      const elsewhere = outcome.filter((d) => d.doneElsewhere !== undefined)
      expect(elsewhere.length).toBeGreaterThan(0)
      for (const d of elsewhere) expect(d.doneElsewhere).toContain('already renewed by alice on ws-a')
      expect(outcome.filter((d) => d.state === 'done').length + elsewhere.length).toBe(outcome.length)
    }, 600_000)
  },
)
