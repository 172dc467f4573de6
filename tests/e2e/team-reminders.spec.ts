/**
 * Reminders handled once for the team, in the window (issue 37 point 7): the app in team mode
 * (team.json in its data folder, a throwaway PostgreSQL on loopback) and a second workstation's
 * services on the same team database. A reminder Bob acknowledges on his workstation reads
 * "Acknowledged, by bob on host-b" on "Expiring soon" once it is read again; one Alice
 * acknowledges in the window is Bob's no more to handle. And Bob's renewal on his workstation reads
 * "by bob on host-b" in Alice's History (issue 37 point 4).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { createAppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { teamSettingsFileOf, writeTeamSettings } from '../../src/main/team/team-settings'
import { ensureSchema } from '../../src/main/team/schema'
import { reminderKey } from '@shared/portfolio/reminders'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { APP, appSender, routerCalls } from '../helpers/router-calls'
import { expectNoAxeViolationsIn } from './axe'
import { test as base, expect, snap } from './fixtures'

/** One PostgreSQL cluster per worker; each test a database of its own, named in its team.json. */
const test = base.extend<
  { teamConnection: { host: string; port: number; user: string; database: string } },
  { postgres: TestPostgres }
>({
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
    // team.json as the Team section writes it.
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

test('a reminder handled on one workstation reads as handled, and by whom, in the other window', async ({
  app,
  harness,
  teamConnection,
}) => {
  expect(harness.services.team.status()).toMatchObject({ mode: 'team', connected: true, member: 'alice' })
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
  })
  try {
    const alice = routerCalls(() => harness.services, appSender({ url: harness.url }))
    const bobCalls = routerCalls(() => bob)
    await alice.ok('reminders.saveSettings', { enabled: true, thresholds: [60, 30], includeAutorenewing: true })

    await app.getByRole('navigation').getByRole('link', { name: 'Expiring soon' }).click()
    await app.getByLabel('Expiring within (days)').selectOption('365')
    const table = app.getByRole('table', { name: 'Expiring soon' })
    // Once read, each reached reminder offers its handling.
    await expect(table.getByRole('button', { name: /^Acknowledge: / }).first()).toBeVisible()
    const open = (await alice.ok('reminders.open', {})).filter((r) => r.daysLeft >= 0)
    expect(open.length).toBeGreaterThan(1)
    const [byBob, byAlice] = open
    const rowOf = (label: string) => table.getByRole('row', { name: new RegExp(label.replace(/\./g, '\\.')) })

    // Bob acknowledges one on his workstation: the window, read again, says he did.
    expect(
      await bobCalls.ok('reminders.handle', { accountId: 'demo', key: reminderKey(byBob!), how: 'acknowledged' }),
    ).toMatchObject({ mine: true })
    await app.getByRole('button', { name: 'Refresh' }).click()
    await expect(rowOf(byBob!.item.label)).toContainText('Acknowledged, by bob on host-b')
    await expect(rowOf(byBob!.item.label).getByRole('button', { name: /^Acknowledge: / })).toHaveCount(0)

    // Alice snoozes another in the window: Bob's handling of it comes second.
    await rowOf(byAlice!.item.label)
      .getByRole('button', { name: `Snooze 7 days: ${byAlice!.item.label}` })
      .click()
    await expect(rowOf(byAlice!.item.label)).toContainText(/Snoozed until .*, by alice on host-a/)
    expect(
      await bobCalls.ok('reminders.handle', { accountId: 'demo', key: reminderKey(byAlice!), how: 'acknowledged' }),
    ).toMatchObject({
      mine: false,
      handled: { how: 'snoozed', member: 'alice', workstation: 'host-a' },
    })
    await expectNoAxeViolationsIn(app, 'table', 'the reminders handled by the team')
    await app.setViewportSize({ width: 1024, height: 700 })
    await rowOf(byAlice!.item.label).evaluate((row) => row.scrollIntoView({ block: 'center', inline: 'start' }))
    await snap(app, 'team-reminders-1024x700')
  } finally {
    await bob.close()
    rmSync(bobDir, { recursive: true, force: true })
  }
})

test("History names the member of a colleague's change made on another workstation", async ({
  app,
  harness,
  teamConnection,
}) => {
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
  })
  try {
    // Both demos are the same seeded portfolio: Bob renews one of its domains on his workstation.
    const domain = (await harness.demo()).state.domains[3]!.domainname
    const bobCalls = routerCalls(() => bob)
    const prepared = await bobCalls.ok('jobs.prepare', {
      accountId: 'demo',
      operation: 'domains.expiration.renew',
      items: [{ params: { domain, years: 1 } }],
    })
    await bobCalls.ok('jobs.start', { jobId: prepared.job.id, ...(prepared.token ? { token: prepared.token } : {}) })
    await expect
      .poll(() => bob.jobs.list().find((j) => j.id === prepared.job.id)?.items[0]?.state, { timeout: 10_000 })
      .toBe('done')

    await app.getByRole('navigation').getByRole('link', { name: 'Activity' }).click()
    const entry = app.locator('.history-list > li').filter({ hasText: domain })
    await expect(entry).toContainText('by bob on host-b')
    await expect(entry).not.toContainText('Outside this app')
  } finally {
    await bob.close()
    rmSync(bobDir, { recursive: true, force: true })
  }
})
