/**
 * Health as a dashboard (issue 53 point 2): fresh, it says how much it has read and offers to read
 * every zone (with progress, under the account's rate limit); then 22 zones holding one finding
 * (two SPF records at the apex, which fired once per record) read as 22 rows, each with its
 * count; rule names and severities in words, the counts as chips; the zone a link. In English and
 * in Japanese (ゾーン点検, a word that says what it checks) at 1024x700.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import type { Sandbox } from '../../src/sandbox'
import { SERVICE_NAMESERVERS } from '../../src/sandbox/nameservers'
import { expect, reloadInLanguage, snap, test } from './fixtures'

const DOMAINS = 24
const WITH_FINDING = 22

test.use({ harnessOptions: { demo: { domains: DOMAINS } } })

/** Every domain on the service's DNS; 22 of them with two SPF records at the apex. */
function portfolioOf(sb: Sandbox): string[] {
  const flagged: string[] = []
  sb.state.domains.forEach((d, i) => {
    d.ns = [...SERVICE_NAMESERVERS.svc1]
    d.dns.svc1.records =
      i < WITH_FINDING ? 'a @ 192.0.2.1\ntxt @ v=spf1 -all\ntxt @ v=spf1 ~all' : 'a @ 192.0.2.1\ntxt @ v=spf1 -all'
    if (i < WITH_FINDING) flagged.push(d.domainname)
  })
  return flagged
}

async function noAxeViolations(app: Page): Promise<void> {
  const found = (
    await new AxeBuilder({ page: app })
      .include('main')
      .options({ resultTypes: ['violations'] })
      .analyze()
  ).violations.map((v) => `${v.id}: ${v.help}`)
  expect(found).toEqual([])
}

test('fresh, Health says what it has read and reads every zone; 22 zones with one finding are 22 rows (1024 px)', async ({
  app,
  harness,
}) => {
  const flagged = portfolioOf(await harness.demo())
  await app.setViewportSize({ width: 1024, height: 700 })
  await app.getByRole('navigation').getByRole('link', { name: 'Health', exact: true }).click()
  const coverage = app.getByTestId('health-coverage')
  // Never "no findings" with nothing said of what was read.
  await expect(coverage).toContainText(/Checked \d+ of \d+ zones? of 1 account|No zone has been read yet/)
  await noAxeViolations(app)
  await coverage.getByRole('button', { name: 'Read every zone now' }).click()
  // Every zone: the DNS zones and the demo's free DNS zones, all read.
  await expect(coverage).toContainText(/Checked (\d+) of \1 zones of 1 account; the oldest read /)
  await expect(coverage.getByRole('button', { name: 'Read every zone now' })).toBeVisible()

  const rows = app.locator('.health-table tbody tr')
  await expect(rows).toHaveCount(WITH_FINDING)
  const spf = app.locator('tr[data-rule="spf.multiple"]')
  await expect(spf).toHaveCount(WITH_FINDING)
  for (const domain of flagged.slice(0, 3))
    await expect(spf.filter({ hasText: domain }).locator('td.count')).toHaveText('2')
  // Words, never a rule's id; the severity a chip; the counts as filter chips.
  await expect(app.getByRole('button', { name: `More than one SPF record (${WITH_FINDING})` })).toBeVisible()
  await expect(app.getByRole('button', { name: `Error (${WITH_FINDING})` })).toBeVisible()
  await expect(app.locator('main')).not.toContainText('spf.multiple')
  await expect(spf.first().locator('.sev')).toHaveText('Error')
  await noAxeViolations(app)
  await snap(app, 'health-dashboard-1024')

  // The zone is a link that opens it with the record in view.
  const first = flagged[0] ?? ''
  await spf.filter({ hasText: first }).getByRole('link', { name: first, exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: `DNS records of ${first}` })).toBeVisible()
})

test('the dashboard in Japanese: ゾーン点検, words for rules and severities, one line per chip (1024 px)', async ({
  app,
  harness,
}) => {
  portfolioOf(await harness.demo())
  await app.setViewportSize({ width: 1024, height: 700 })
  await reloadInLanguage(app, 'ja')
  await app.getByRole('navigation').getByRole('link', { name: 'ゾーン点検', exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'ゾーン点検' })).toBeVisible()
  const coverage = app.getByTestId('health-coverage')
  await coverage.getByRole('button', { name: '今すぐすべてのゾーンを読み込む' }).click()
  await expect(coverage).toContainText(/1 件のアカウントの (\d+) 件のゾーンのうち \1 件を点検済み/)
  await expect(app.locator('.health-table tbody tr')).toHaveCount(WITH_FINDING)
  await expect(app.getByRole('button', { name: `SPF レコードが複数 (${WITH_FINDING})` })).toBeVisible()
  // "エラー" on one line: the chip is no taller than one line of its text (it wrapped a letter a line).
  const chip = app.locator('.health-table .sev').first()
  await expect(chip).toHaveText('エラー')
  const box = await chip.boundingBox()
  const lineHeight = await chip.evaluate(
    (el) => parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.5,
  )
  expect(box?.height ?? 0).toBeLessThan(lineHeight * 1.5)
  await expect(app.locator('main')).not.toContainText('spf.multiple')
  await noAxeViolations(app)
  await snap(app, 'health-dashboard-ja-1024')
})
