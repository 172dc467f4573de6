/**
 * Jobs that go on around a busy target, and who settles colleagues' unknown outcomes (issue 50
 * point 8): three workstations of one team (one real PostgreSQL, the sandbox counting every
 * request), each its own data folder, the built command as separate processes.
 *
 * - A 100-domain renewal where one domain is being renewed by a colleague (held at the service)
 *   and another has an unknown outcome of another colleague's: refused whole without --skip-busy;
 *   with it, the 98 others are renewed, the two left out are listed with who holds them, exit 5,
 *   in English and Japanese.
 * - A short-lived command started while a colleague's job has an unknown item reads nothing of the
 *   service's log for it; `team settle` does, and settles it (in single-workstation mode too, the
 *   data folder's own).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createAppServices } from '../../src/main/app/app-services'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { profileFor } from '../../support/profile'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { poolFor, teamDataFolder } from '../../support/team-ledgers'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { APP, routerCalls } from '../helpers/router-calls'
import { match } from '../helpers/matchers'
import { sentBody } from '../helpers/sent-body'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)
const DOMAINS = 100
const DAY_MS = 86_400_000

let db: TestPostgres
let sb: Sandbox
const dirs = new Map<string, string>()

/** A workstation's data folder in team mode, the sandbox's account in its keychain (its services closed again). */
async function workstation(member: string, name: string): Promise<string> {
  const dir = await teamDataFolder(db, member, name)
  dirs.set(member, dir)
  const services = await createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    storeWorkerUrl: WORKER,
    cliDoor: false,
  })
  try {
    const { ok } = routerCalls(() => services)
    await ok('accounts.setActive', {
      id: (await ok('accounts.create', { fields: profileFor(sb, 'Shop'), apiKey: sb.keys.full, storage: 'keychain' }))
        .id,
    })
  } finally {
    await services.close()
  }
  return dir
}

/**
 * A renewal of `domain` by the workstation of `dir` whose answer was lost on the way back (the
 * service did renew it, and logged it): its outcome unknown, blocking the domain for the team.
 * Its services look nothing up in the log themselves, and are closed: it stays unknown.
 */
async function unknownRenewal(dir: string, domain: string): Promise<void> {
  const services = await createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    storeWorkerUrl: WORKER,
    cliDoor: false,
    logCheckDelaysMs: [],
  })
  try {
    const { ok } = routerCalls(() => services)
    const accountId = (await ok('accounts.list', {})).activeId
    sb.faults.inject('domains.expiration.renew', { lostAnswer: 'reset', times: 1 })
    const prepared = await ok('jobs.prepare', {
      accountId,
      operation: 'domains.expiration.renew',
      items: [{ params: { domain, years: 1 }, label: domain }],
    })
    const ended = await ok('jobs.start', {
      jobId: prepared.job.id,
      ...(prepared.token ? { token: prepared.token } : {}),
    })
    expect(ended.items[0]?.state).toBe('unknown')
  } finally {
    await services.close()
  }
}

const renewedSince = (from: number) =>
  sb.received
    .slice(from)
    .filter((r) => r.endpoint === 'domains.expiration.renew')
    .map((r) => sentBody(r, z.object({ domain: z.string() })).domain)

const renewJson = z.object({
  domains: z.array(z.object({ domain: z.string(), state: z.string() })),
  leftOut: z.array(
    z.object({
      target: z.string(),
      code: z.string(),
      held: z.string(),
      member: z.string().optional(),
      workstation: z.string().optional(),
      since: z.string().optional(),
    }),
  ),
})

/** Whether `happened` comes true within `ms` (asked every 50 ms): a bounded wait for something that must not happen. */
async function seenWithin(happened: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (happened()) return true
    await new Promise((r) => setTimeout(r, 50))
  }
  return happened()
}

/** The state the team's journal has for carol's latest item renewing `domain`. */
async function carolsItem(domain: string): Promise<string | undefined> {
  const pool = poolFor(db)
  try {
    const rows = (
      await pool.query(
        `SELECT i.state FROM team_job_items i JOIN team_jobs j ON j.id = i.job_id WHERE i.target = $1 AND j.member = 'carol' ORDER BY j.created_at`,
        [`domain=${domain}`],
      )
    ).rows
    return z
      .array(z.object({ state: z.string() }))
      .parse(rows)
      .at(-1)?.state
  } finally {
    await pool.end()
  }
}

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
  'going on around busy targets, and settling colleagues’ unknown outcomes (skipped: no D-Bus session or not built)',
  () => {
    beforeAll(async () => {
      db = await startTestPostgres()
      sb = await startSandbox({ domains: DOMAINS })
      // Every domain due within a year, the first within days: a renewal of the next 10 days is of that one alone.
      sb.state.domains.forEach(
        (d, i) =>
          (d.expirationdate = new Date(Date.now() + (i === 0 ? 5 : 60 + i) * DAY_MS).toISOString().slice(0, 10)),
      )
      await workstation('alice', 'ws-a')
      await workstation('bob', 'ws-b')
      await workstation('carol', 'ws-c')
    }, 120_000)
    afterAll(async () => {
      sb?.faults.clear()
      await sb?.close()
      db?.remove()
      for (const d of dirs.values()) rmSync(d, { recursive: true, force: true })
    })

    it('a 100-domain renewal with one domain being renewed by a colleague and one of unknown outcome: refused whole without --skip-busy; with it the rest renewed, the two listed with who holds them, exit 5 (English, Japanese)', async () => {
      const [alice, bob, carol] = ['alice', 'bob', 'carol'].map((m) => dirs.get(m) ?? '')
      const busy = sb.state.domains[0]!.domainname
      const unknown = sb.state.domains[1]!.domainname
      await unknownRenewal(carol!, unknown)
      // Alice renews the one domain due within 10 days; the service holds her request.
      sb.faults.inject('domains.expiration.renew', { hold: true, times: 1 })
      const alices = runCli(['renew', '--expiring-within', '10d', '--yes', '--json'], {
        dataDir: alice!,
        timeoutMs: 240_000,
      })
      await vi.waitFor(() => expect(sb.faults.held('domains.expiration.renew')).toBe(1), {
        timeout: 60_000,
        interval: 50,
      })
      try {
        const from = sb.received.length
        const refused = await runCli(['renew', '--expiring-within', '3000d', '--yes'], { dataDir: bob! })
        expect(refused.code, refused.err).toBe(1)
        expect(refused.err).toMatch(/by alice on ws-a since \d{4}-\d\d-\d\d \d\d:\d\d UTC/)
        expect(renewedSince(from)).toEqual([])

        const ran = await runCli(['renew', '--expiring-within', '3000d', '--yes', '--skip-busy', '--json'], {
          dataDir: bob!,
          timeoutMs: 240_000,
        })
        expect(ran.code, ran.err).toBe(5)
        const out = renewJson.parse(JSON.parse(ran.out))
        expect(out.domains).toHaveLength(DOMAINS - 2)
        expect(out.domains.every((d) => d.state === 'done')).toBe(true)
        expect(out.leftOut).toEqual([
          {
            target: busy,
            code: 'job.targetBusyBy',
            held: 'sending',
            member: 'alice',
            workstation: 'ws-a',
            since: match.stringMatching(/^\d{4}-\d\d-\d\dT/),
          },
          {
            target: unknown,
            code: 'job.targetUnknownBy',
            held: 'unknown',
            member: 'carol',
            workstation: 'ws-c',
            since: match.stringMatching(/^\d{4}-\d\d-\d\dT/),
          },
        ])
        const sent = renewedSince(from)
        expect(sent).toHaveLength(DOMAINS - 2)
        expect(sent).not.toContain(busy)
        expect(sent).not.toContain(unknown)
        // Each domain renewed once by this command.
        expect(new Set(sent).size).toBe(sent.length)

        const english = await runCli(['renew', '--expiring-within', '3000d', '--yes', '--skip-busy'], {
          dataDir: bob!,
          timeoutMs: 240_000,
        })
        expect(english.code, english.err).toBe(5)
        expect(english.err).toMatch(
          new RegExp(
            `^${busy}: left out: being written by alice on ws-a since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\. Nothing was sent for it\\.$`,
            'm',
          ),
        )
        expect(english.err).toMatch(
          new RegExp(
            `^${unknown}: left out: an earlier write to it by carol on ws-c \\(since [^)]+ UTC\\) has an unknown outcome`,
            'm',
          ),
        )
        expect(english.out).toContain('Left out because another write holds them (--skip-busy; not sent): 2.')

        const japanese = await runCli(['renew', '--expiring-within', '3000d', '--yes', '--skip-busy'], {
          dataDir: bob!,
          timeoutMs: 240_000,
          env: { LANG: 'ja_JP.UTF-8' },
        })
        expect(japanese.code, japanese.err).toBe(5)
        expect(japanese.err).toMatch(
          new RegExp(`^${busy}: 除外しました。ws-a の alice が .+ UTC から書き込み中です。`, 'm'),
        )
        expect(japanese.err).toMatch(
          new RegExp(`^${unknown}: 除外しました。ws-c の carol が .+ UTC に行った書き込みの結果が不明です`, 'm'),
        )
        expect(japanese.out).toContain('ほかの書き込みが対象を保持しているため除外 (--skip-busy、未送信): 2。')
        expect(renewedSince(from).filter((d) => d === busy || d === unknown)).toEqual([])
      } finally {
        sb.faults.release()
      }
      const done = await alices
      expect(done.code, done.err).toBe(0)
    }, 600_000)

    it('a short-lived command started while a colleague’s job has an unknown item reads nothing of the log for it; team settle does, and settles it', async () => {
      const [bob, carol] = ['bob', 'carol'].map((m) => dirs.get(m) ?? '')
      const domain = sb.state.domains[2]!.domainname
      await unknownRenewal(carol!, domain)
      expect(await carolsItem(domain)).toBe('unknown')
      const logReads = (from: number) => sb.received.slice(from).filter((r) => r.endpoint === 'logs.list').length

      // Bob exports a zone; the service holds the read until told, so his command stays up well past
      // the app's first look at an unknown outcome (1 s after its start): it must make none.
      const from = sb.received.length
      sb.faults.inject('domains.dns.get', { hold: true, times: 1 })
      const exported = runCli(['dns', 'export', sb.state.domains[3]!.domainname], { dataDir: bob! })
      try {
        await vi.waitFor(() => expect(sb.faults.held('domains.dns.get')).toBe(1), { timeout: 60_000, interval: 50 })
        expect(await seenWithin(() => logReads(from) > 0, 5_000)).toBe(false)
      } finally {
        sb.faults.release()
      }
      expect((await exported).code).toBe(0)
      expect(logReads(from)).toBe(0)
      expect(await carolsItem(domain)).toBe('unknown')

      // Asked, it settles it from the log: the renewal was received and done.
      const settled = await runCli(['team', 'settle'], { dataDir: bob!, timeoutMs: 120_000 })
      expect(settled.code, settled.err).toBe(0)
      expect(logReads(from)).toBeGreaterThan(0)
      expect(settled.out).toMatch(
        new RegExp(`^${domain}\\tShop\\tby carol on ws-c\\tsettled from the service’s log: done$`, 'm'),
      )
      expect(settled.out).toMatch(/Still unknown: 0\.$/m)
      expect(await carolsItem(domain)).toBe('done')
      // Nothing left: said so, in JSON and in Japanese.
      const again = await runCli(['team', 'settle', '--json'], { dataDir: bob! })
      expect(again.code, again.err).toBe(0)
      expect(JSON.parse(again.out)).toEqual({ items: [], settled: 0, unknown: 0 })
      const japanese = await runCli(['team', 'settle'], { dataDir: bob!, env: { LANG: 'ja_JP.UTF-8' } })
      expect(japanese.out.trim()).toBe('確定が必要な結果不明の書き込みはありません。')
    }, 300_000)
  },
)

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
  'team settle in single-workstation mode (skipped: no D-Bus session or not built)',
  () => {
    it('settles the data folder’s own unknown outcome from the log', async () => {
      const solo = await startSandbox({ domains: 3 })
      const dir = mkdtempSync(join(tmpdir(), 'settle-solo-'))
      const domain = solo.state.domains[0]!.domainname
      try {
        let jobId = ''
        const services = await createAppServices({
          userDataDir: dir,
          allowedOrigins: [APP],
          storeWorkerUrl: WORKER,
          cliDoor: false,
          logCheckDelaysMs: [],
        })
        try {
          const { ok } = routerCalls(() => services)
          const accountId = (
            await ok('accounts.create', {
              fields: profileFor(solo, 'Shop'),
              apiKey: solo.keys.full,
              storage: 'keychain',
            })
          ).id
          await ok('accounts.setActive', { id: accountId })
          solo.faults.inject('domains.expiration.renew', { lostAnswer: 'reset', times: 1 })
          const prepared = await ok('jobs.prepare', {
            accountId,
            operation: 'domains.expiration.renew',
            items: [{ params: { domain, years: 1 }, label: domain }],
          })
          const ended = await ok('jobs.start', {
            jobId: prepared.job.id,
            ...(prepared.token ? { token: prepared.token } : {}),
          })
          expect(ended.items[0]?.state).toBe('unknown')
          jobId = ended.id
        } finally {
          await services.close()
        }
        const settled = await runCli(['team', 'settle', '--json'], { dataDir: dir })
        expect(settled.code, settled.err).toBe(0)
        expect(JSON.parse(settled.out)).toEqual({
          items: [{ job: jobId, index: 0, target: domain, account: 'Shop', state: 'done', outcome: 'done' }],
          settled: 1,
          unknown: 0,
        })
      } finally {
        await solo.close()
        rmSync(dir, { recursive: true, force: true })
      }
    }, 120_000)
  },
)
