/**
 * Zone health in the DNS editor's plan: the findings of the zone as it would be after the save,
 * the ones the save introduces first, in English and in Japanese, never blocking the save.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, reloadInLanguage, test } from './fixtures'
import { expectNoAxeViolations } from './axe'
import { lastDnsSet, openZone, sentRecords, svc1Domain, writeRawRecords } from './dns-screens'

test('the plan shows the health findings the save introduces, with why and how to fix; the save is not blocked; in Japanese too', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await openZone(app, d.domainname)
  await writeRawRecords(app, `${d.dns.svc1.records}\ntxt mail v=spf1 -all\ntxt mail "v=spf1 ip4:192.0.2.300 ~all"`)
  await app.getByRole('button', { name: 'Review changes…' }).click()
  const planBox = app.getByRole('region', { name: 'Plan: what will change' })
  const health = planBox.getByRole('region', { name: 'Health' })
  await expect(health.locator('[data-rule="spf.multiple"]')).toHaveCount(2)
  await expect(health.locator('[data-rule="spf.multiple"]').first()).toContainText(
    'More than one SPF record at this name (2)',
  )
  await expect(health.locator('[data-rule="spf.multiple"]').first()).toContainText('New with this save')
  await expect(health.locator('[data-rule="spf.syntax"]')).toContainText(
    'an address that is not valid “ip4:192.0.2.300”',
  )
  await expect(health.locator('[data-rule="spf.syntax"]')).toContainText('Write the term as RFC 7208 says')
  await expectNoAxeViolations(app, 'dns plan health')
  await expect(planBox.getByRole('button', { name: 'Apply these changes' })).toBeEnabled()

  await reloadInLanguage(app, 'ja')
  await app.getByRole('button', { name: 'テキスト' }).click()
  const jaBox = app.getByLabel('1行に1レコード: 種類 ホスト 値')
  await jaBox.fill(`${d.dns.svc1.records}\ntxt mail v=spf1 -all\ntxt mail v=spf1 ~all`)
  await jaBox.blur()
  await app.getByRole('button', { name: '変更を確認…' }).click()
  const jaHealth = app.getByRole('region', { name: '計画: 変更される内容' }).getByRole('region', { name: 'ゾーン点検' })
  await expect(jaHealth.locator('[data-rule="spf.multiple"]').first()).toContainText(
    'この名前に SPF レコードが複数あります (2 件)',
  )
  await expect(jaHealth.locator('[data-rule="spf.multiple"]').first()).toContainText('この保存で新たに発生')
  await expectNoAxeViolations(app, 'dns plan health, Japanese')
  expect(lastDnsSet(sb)).toBeUndefined()
})

test('a plan whose health has errors is saved when applied: a finding never holds the save back', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await openZone(app, d.domainname)
  await writeRawRecords(app, `${d.dns.svc1.records}\ntxt mail v=spf1 -all\ntxt mail v=spf1 ~all`)
  await app.getByRole('button', { name: 'Review changes…' }).click()
  const planBox = app.getByRole('region', { name: 'Plan: what will change' })
  await expect(planBox.getByRole('region', { name: 'Health' }).locator('[data-rule="spf.multiple"]')).toHaveCount(2)
  await planBox.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(app.getByRole('status').filter({ hasText: `The records of ${d.domainname} were saved.` })).toBeVisible()
  expect(sentRecords(lastDnsSet(sb))).toMatch(/^txt mail "?v=spf1 ~all"?$/m)
})

test('the Health screen lists the findings of every zone read, filters by rule and severity, and opens the zone with the record in view', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await app.setViewportSize({ width: 1280, height: 800 })
  d.dns.svc1.records = `${d.dns.svc1.records}\ntxt mail v=spf1 -all\ntxt mail v=spf1 ~all`
  // Read once, so the store holds the zone as the service has it.
  await openZone(app, d.domainname)
  await app.getByRole('navigation').getByRole('link', { name: 'Health', exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'Health' })).toBeVisible()
  // One row per zone, name and rule, with its count (two SPF records at one name were two rows).
  const rows = app.locator(`tr[data-rule="spf.multiple"]`).filter({ hasText: d.domainname })
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('More than one SPF record at this name (2)')
  await expect(rows.first().locator('td.count')).toHaveText('2')
  await expectNoAxeViolations(app, 'health')
  // Another severity's chip (the demo's zones have some) leaves the row out.
  const other = app.getByRole('button', { name: /^(Warning|Note) \(/ }).first()
  if ((await other.count()) > 0) {
    await other.click()
    await expect(rows).toHaveCount(0)
  }
  await app.getByRole('button', { name: /^Error \(/ }).click()
  await app.getByRole('button', { name: /^More than one SPF record \(/ }).click()
  await expect(rows).toHaveCount(1)
  // The README's picture of the screen, filtered to the rule its caption names (the demo's other
  // zones have findings of their own since every zone is read) (`README_PICTURES=1` writes it into
  // docs/, as readme-pictures.spec.ts does; `npm run pictures` runs this test too).
  const out = process.env.README_PICTURES === '1' ? 'docs' : 'test-results/readme-pictures'
  mkdirSync(out, { recursive: true })
  await app.screenshot({ path: join(out, 'screenshot-health.png') })
  await rows.first().getByRole('link', { name: d.domainname }).click()
  await expect(app.getByRole('heading', { level: 1, name: `DNS records of ${d.domainname}` })).toBeVisible()
  await expect(app.getByLabel('Filter')).toHaveValue('mail')
  await expect(app.getByText('v=spf1 ~all').or(app.locator('input[value="v=spf1 ~all"]')).first()).toBeVisible()
})
