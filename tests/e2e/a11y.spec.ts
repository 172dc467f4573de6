/**
 * axe-core over every main screen, each loaded with its data (and the states a user reaches on
 * it: every domain tab, search results, a log entry open): zero violations.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

async function noViolations(app: Page, screen: string) {
  const result = await new AxeBuilder({ page: app }).analyze()
  const found = result.violations.map((v) => `${v.id} (${v.impact ?? ''}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`)
  expect.soft(found, screen).toEqual([])
}

async function visit(app: Page, hash: string, heading: string | RegExp) {
  await app.evaluate((h) => (location.hash = h), hash)
  await expect(app.getByRole('heading', { level: 1, name: heading })).toBeVisible()
  // Reads on the screen done: no loading state left.
  await expect(app.locator('.read-status')).toHaveCount(0)
}

test('every main screen, with its data, has no axe violation', async ({ app, harness }) => {
  test.setTimeout(300_000)
  const sb = await harness.demo()
  const server = sb.state.servers.a[0]!
  const svcip = sb.state.svcips[0]!
  const domain = sb.state.domains[2]!
  const free = sb.state.freedns[0]!

  const screens: [string, string | RegExp][] = [
    ['#/servers/a', 'Web servers'],
    [`#/servers/a/${server.webid}`, server.webname],
    ['#/svcips', 'Service IPs'],
    [`#/svcips/${svcip.vipid}`, /.+/],
    ['#/domains', 'Domains'],
    ['#/domains/settings', /Settings of all domains/],
    ['#/domains/register', /Register/],
    ['#/domains/transfer-in', /Transfer/],
    ['#/dns', /DNS/],
    [`#/dns/${domain.domainname}`, domain.domainname],
    ['#/freedns', /Free DNS/],
    [`#/freedns/${free.domainname}`, free.domainname],
    ['#/search', /search/i],
    ['#/expiring', /Expiring/],
    ['#/logs', /log/i],
    ['#/jobs', /Writes/],
    ['#/accounts', /Accounts/],
  ]
  for (const [hash, heading] of screens) {
    await visit(app, hash, heading)
    await noViolations(app, hash)
  }

  // The domain page, every tab.
  await visit(app, `#/domains/${domain.domainname}`, domain.domainname)
  const tabs = await app.getByRole('tab').allTextContents()
  expect(tabs.length).toBeGreaterThan(5)
  for (const tab of tabs) {
    await app.getByRole('tab', { name: tab.trim(), exact: true }).click()
    await expect(app.locator('.read-status')).toHaveCount(0)
    await noViolations(app, `domain tab ${tab}`)
  }

  // Search results, and a log entry open.
  await visit(app, '#/search', /search/i)
  await app.getByLabel('Domain names').fill('example-a11y.com\nanother-a11y.net')
  await app.getByRole('button', { name: 'Check 2 names' }).click()
  await expect(app.getByRole('table', { name: 'Availability' })).toBeVisible()
  await noViolations(app, 'search results')

  await visit(app, '#/logs', /log/i)
  await app.getByRole('table').getByRole('row').nth(1).getByRole('link').click()
  await expect(app.getByRole('region', { name: /Log entry req-/ })).toBeVisible()
  await noViolations(app, 'a log entry')
})
