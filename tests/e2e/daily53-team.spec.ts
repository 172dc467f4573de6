/**
 * Issue 53 point 6: team mode tells who holds a target, and keeps the colleague in view after. The
 * window is Alice's (team.json in its data folder, a throwaway PostgreSQL on loopback); Bob is a
 * second workstation's services in the test, on the same team database and the same demo sandbox.
 * In English and in Japanese, at 1024 x 700, axe 0 on each new state:
 *  - a zone save refused because Bob's save of the zone is on its way leads to Writes, which lists
 *    Bob's write on its way with who and since when (it said "No writes yet");
 *  - History shows the plan lines of Bob's zone save, as of one's own;
 *  - Alice's save of the zone after Bob saved another record of it names him and when, and offers
 *    Keep both: the plan of her change over his zone, then saved with both;
 *  - the team database away, met acknowledging a reminder, is titled "Team database unreachable"
 *    with its cause (it was "Unexpected error").
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import pg from 'pg'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { sandboxDemo } from '../../src/main/accounts/demo'
import type { DemoBackend } from '../../src/main/accounts/account-service'
import { teamSettingsFileOf, writeTeamSettings } from '../../src/main/team/team-settings'
import { ensureSchema } from '../../src/main/team/schema'
import type { Sandbox } from '../../src/sandbox'
import type { Harness } from '../../support/harness'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { APP, appSender, routerCalls } from '../helpers/router-calls'
import { expectNoAxeViolationsIn } from './axe'
import { svc1Domain } from './dns-screens'
import { test as base, expect, reloadInLanguage, snap } from './fixtures'

type Connection = { host: string; port: number; user: string; database: string }

/** One PostgreSQL cluster per worker; each test a database of its own, named in its team.json. */
const test = base.extend<{ teamConnection: Connection }, { postgres: TestPostgres }>({
  postgres: [
    async ({}, use) => {
      const db = await startTestPostgres()
      await use(db)
      db.remove()
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  teamConnection: async ({ postgres }, use) => {
    const database = `team_${randomUUID().replace(/-/g, '')}`
    const admin = new pg.Client({
      host: postgres.host,
      port: postgres.port,
      user: postgres.user,
      database: postgres.database,
    })
    await admin.connect()
    try {
      await admin.query(`CREATE DATABASE ${database}`)
    } finally {
      await admin.end()
    }
    // The team's owner sets it up (team init): the cluster's superuser is that owner.
    const owner = new pg.Pool({ host: postgres.host, port: postgres.port, user: postgres.user, database })
    try {
      await ensureSchema(owner, { create: true })
    } finally {
      await owner.end()
    }
    await use({ host: postgres.host, port: postgres.port, user: postgres.user, database })
  },
  userDataFiles: async ({ teamConnection }, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'team-json-'))
    try {
      await writeTeamSettings(dir, {
        connection: { ...teamConnection, sslmode: 'disable' },
        member: 'alice',
        workstation: 'host-a',
      })
      await use({ 'team.json': readFileSync(teamSettingsFileOf(dir), 'utf8') })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
})

/** Bob's demo account is the window's demo sandbox, with its key: one account of the team, one service. */
function sameDemo(sb: Sandbox): DemoBackend {
  const words = sandboxDemo()
  return {
    describe: () => words.describe(),
    start: async () => ({ ...(await words.describe()), baseUrl: sb.url, apiKey: sb.keys.full }),
    running: () => true,
    close: async () => undefined,
  }
}

const WORDS = {
  en: {
    dns: 'DNS',
    filter: 'Filter',
    zoneTitle: (d: string) => `DNS records of ${d}`,
    raw: 'Raw text',
    rawLabel: 'Records, one per line: type host value',
    review: 'Review changes…',
    apply: 'Apply these changes',
    busyBy: /already on its way: by bob on host-b since/,
    writes: 'Writes',
    inFlight: 'On their way from other workstations',
    inFlightBy: /by bob on host-b since/,
    activity: 'Activity',
    by: 'by bob on host-b',
    expiring: 'Expiring soon',
    within: 'Expiring within (days)',
    acknowledge: /^Acknowledge: /,
    unreachableTitle: 'Team database unreachable',
    unreachable: /The team database cannot be reached/,
    unexpected: 'Unexpected error',
    savedBy:
      /bob on host-b saved this zone at .*, after you loaded it\. Their changes and yours touch different records/,
    keepBoth: 'Keep both',
  },
  ja: {
    dns: 'DNS',
    filter: '絞り込み',
    zoneTitle: (d: string) => `${d} のDNSレコード`,
    raw: 'テキスト',
    rawLabel: '1行に1レコード: 種類 ホスト 値',
    review: '変更を確認…',
    apply: 'この変更を適用',
    busyBy: /host-b の bob が .* から実行中/,
    writes: '書き込み',
    inFlight: '他のワークステーションから送信中',
    inFlightBy: /host-b の bob が .* から送信中/,
    activity: 'アクティビティ',
    by: 'bob (host-b) による変更',
    expiring: '期限が近いもの',
    within: '期限までの日数',
    acknowledge: /^確認済みにする: /,
    unreachableTitle: 'チームのデータベースに接続できません',
    unreachable: /チームのデータベースに接続できません。/,
    unexpected: '予期しないエラー',
    savedBy: /に host-b の bob がこのゾーンを保存しました。相手の変更とあなたの変更は別々のレコード/,
    keepBoth: '両方を残す',
  },
} as const
type Words = (typeof WORDS)[keyof typeof WORDS]

async function openZone(app: Page, w: Words, domain: string) {
  await app.getByRole('navigation').getByRole('link', { name: w.dns, exact: true }).click()
  await app.getByLabel(w.filter).fill(domain)
  await app.getByRole('link', { name: domain, exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: w.zoneTitle(domain) })).toBeVisible()
}

/** Adds a line to the open editor's zone and asks for the plan. */
async function addLine(app: Page, w: Words, line: string) {
  await app.getByRole('button', { name: w.raw }).click()
  const box = app.getByLabel(w.rawLabel)
  await box.fill(`${(await box.inputValue()).trimEnd()}\n${line}`)
  await box.blur()
  await app.getByRole('button', { name: w.review }).click()
}

/** Bob's zone save of `domain`, `line` added; started, and its end to wait for. */
async function bobSaves(bob: AppServices, domain: string, line: string) {
  const calls = routerCalls(() => bob)
  const zone = await calls.ok('domains.dns.get', { accountId: 'demo', domain })
  const prepared = await calls.ok('jobs.prepare', {
    accountId: 'demo',
    operation: 'domains.dns.set',
    items: [
      {
        params: { domain, ns_type: zone.ns_type, records: `${zone.records.trimEnd()}\n${line}`, ttl: zone.ttl },
        guard: { records: zone.records },
      },
    ],
  })
  // A start is answered when its job ends: not waited for here (the service may be holding the save).
  const ended = calls.call('jobs.start', {
    jobId: prepared.job.id,
    ...(prepared.token ? { token: prepared.token } : {}),
  })
  return { id: prepared.job.id, ended }
}

async function walk(
  lang: 'en' | 'ja',
  {
    app,
    harness,
    postgres,
    teamConnection,
  }: { app: Page; harness: Harness; postgres: TestPostgres; teamConnection: Connection },
) {
  const w = WORDS[lang]
  await app.setViewportSize({ width: 1024, height: 700 })
  if (lang === 'ja') await reloadInLanguage(app, 'ja')
  const sb = await harness.demo()
  const domain = svc1Domain(sb).domainname
  const bobDir = mkdtempSync(join(tmpdir(), 'team-bob-'))
  await writeTeamSettings(bobDir, {
    connection: { ...teamConnection, sslmode: 'disable' },
    member: 'bob',
    workstation: 'host-b',
  })
  const bob = await createAppServices({
    userDataDir: bobDir,
    allowedOrigins: [APP],
    keychain: async () => new SessionSecretStore(),
    cliDoor: false,
    demo: sameDemo(sb),
  })
  try {
    // (a) Bob's save of the zone is on its way (the service holds it): Alice's save is refused
    // naming him, and Writes, from the refusal, lists his write with who and since when.
    sb.faults.inject('domains.dns.set', { hold: true, times: 1 })
    const bobsJob = await bobSaves(bob, domain, `txt bob-${lang} held`)
    await expect.poll(() => sb.faults.held('domains.dns.set'), { timeout: 10_000 }).toBe(1)
    await openZone(app, w, domain)
    await addLine(app, w, `txt alice-${lang} refused`)
    await app.getByRole('button', { name: w.apply }).click()
    const refusal = app.getByRole('alert').filter({ hasText: w.busyBy })
    await expect(refusal).toBeVisible()
    await refusal.getByRole('link', { name: w.writes, exact: true }).click()
    const inFlight = app.getByRole('region', { name: w.inFlight })
    await expect(inFlight.getByTestId('team-in-flight-job')).toHaveCount(1)
    await expect(inFlight).toContainText(w.inFlightBy)
    await expect(inFlight).toContainText(domain)
    await expectNoAxeViolationsIn(app, '.team-in-flight', `a colleague's write on its way (${lang})`)
    await snap(app, `daily53-team-in-flight-1024x700-${lang}`)
    sb.faults.release()
    expect(await bobsJob.ended).toMatchObject({ ok: true, value: { status: 'done' } })

    // (c) History shows the plan lines of Bob's save, as of Alice's own.
    await app.getByRole('navigation').getByRole('link', { name: w.activity }).click()
    const entry = app.locator('.history-list > li').filter({ hasText: w.by }).filter({ hasText: domain })
    await expect(entry.first()).toBeVisible()
    await expect(entry.first().locator('.plan-changes, .plan')).toContainText(`bob-${lang}`)
    await expectNoAxeViolationsIn(app, '.history-list', `a colleague's zone save with its plan lines (${lang})`)

    // (b) Bob saves the zone again while Alice edits another record of it: the conflict names him
    // and when, and Keep both shows the plan of her change over his zone, which is then saved.
    await openZone(app, w, domain)
    await addLine(app, w, `txt alice-${lang} both`)
    const again = await bobSaves(bob, domain, `txt bob-${lang} apart`)
    expect(await again.ended).toMatchObject({ ok: true, value: { status: 'done' } })
    await app.getByRole('button', { name: w.apply }).click()
    const conflict = app.locator('.conflict')
    await expect(conflict).toContainText(w.savedBy)
    await expectNoAxeViolationsIn(app, '.conflict', `a colleague's save named, Keep both offered (${lang})`)
    await snap(app, `daily53-team-keep-both-1024x700-${lang}`)
    await conflict.getByRole('button', { name: w.keepBoth }).click()
    const planBox = app.locator('.plan-review, .plan').first()
    await expect(planBox).toContainText(`alice-${lang}`)
    await expect(planBox).not.toContainText(`bob-${lang} apart`)
    await app.getByRole('button', { name: w.apply }).click()
    await expect
      .poll(async () => (await routerCalls(() => bob).ok('domains.dns.get', { accountId: 'demo', domain })).records, {
        timeout: 10_000,
      })
      .toMatch(new RegExp(`bob-${lang} apart[\\s\\S]*alice-${lang} both|alice-${lang} both[\\s\\S]*bob-${lang} apart`))

    // (d) The team database away, met acknowledging a reminder: titled as such, with its cause.
    const alice = routerCalls(() => harness.services, appSender({ url: harness.url }))
    await alice.ok('reminders.saveSettings', { enabled: true, thresholds: [365, 30], includeAutorenewing: true })
    await app.getByRole('navigation').getByRole('link', { name: w.expiring }).click()
    await app.getByLabel(w.within).selectOption('365')
    const acknowledge = app.getByRole('button', { name: w.acknowledge }).first()
    await expect(acknowledge).toBeVisible()
    postgres.stopServer()
    try {
      await acknowledge.click()
      const away = app.getByRole('alert').filter({ hasText: w.unreachable })
      await expect(away).toBeVisible()
      await expect(away.locator('strong').first()).toHaveText(w.unreachableTitle)
      await expect(away).not.toContainText(w.unexpected)
      await expectNoAxeViolationsIn(app, '.error-banner', `the team database away (${lang})`)
    } finally {
      postgres.startServer()
    }
  } finally {
    sb.faults.clear()
    await bob.close()
    rmSync(bobDir, { recursive: true, force: true })
  }
}

for (const lang of ['en', 'ja'] as const) {
  test(`team mode names the colleague and keeps them in view: Writes, History, the database away (${lang})`, async ({
    app,
    harness,
    postgres,
    teamConnection,
  }) => {
    test.setTimeout(120_000)
    await walk(lang, { app, harness, postgres, teamConnection })
  })
}
