/**
 * Every screen of the router in Japanese at 1024 x 700, each with its data read, scanned with
 * axe at every impact. The English scans (axe-screens.ts) are spread over the tests that walk
 * each screen; Japanese changes what axe checks (the page's language, names that are now
 * other words, wider text), so each screen is scanned again here, in the state a user first
 * sees it. The domain page's tabs are each scanned in their panel.
 */
import type { Page } from '@playwright/test'
import { expect, reloadInLanguage, test } from './fixtures'
import { expectNoAxeViolations, expectNoAxeViolationsIn } from './axe'

test.use({ viewport: { width: 1024, height: 700 } })

/** The screen at that address, once its heading shows and its reads are done. */
async function go(app: Page, path: string): Promise<void> {
  await app.evaluate((p) => {
    location.hash = p
  }, path)
  await expect.poll(() => app.evaluate(() => location.hash.replace(/^#/, '').split('?')[0])).toBe(path)
  await expect(app.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(app.locator('.read-status')).toHaveCount(0)
}

/** The address the first link of the screen's first table leads to (a detail screen of the demo data). */
async function firstDetail(app: Page, prefix: string): Promise<string> {
  const link = app.getByRole('table').first().locator(`a[href^="#${prefix}"]`).first()
  await expect(link).toBeVisible()
  const href = await link.getAttribute('href')
  if (!href) throw new Error(`no link to ${prefix} on ${app.url()}`)
  return decodeURIComponent(href.replace(/^#/, ''))
}

test('every screen in Japanese at 1024 x 700: axe at every impact finds nothing', async ({ app }) => {
  test.setTimeout(180_000)
  await reloadInLanguage(app, 'ja')

  await go(app, '/servers/a')
  await expectNoAxeViolations(app, 'servers, Japanese')
  await go(app, await firstDetail(app, '/servers/a/'))
  await expectNoAxeViolations(app, 'server, Japanese')

  await go(app, '/svcips')
  await expectNoAxeViolations(app, 'svcips, Japanese')
  await go(app, await firstDetail(app, '/svcips/'))
  await expectNoAxeViolations(app, 'svcip, Japanese')

  await go(app, '/domains')
  await expectNoAxeViolations(app, 'domains, Japanese')
  const domain = await firstDetail(app, '/domains/')
  await go(app, domain)
  await expectNoAxeViolations(app, 'domain page, Japanese')
  const tabs = app.getByRole('tab')
  const tabCount = await tabs.count()
  expect(tabCount).toBeGreaterThan(5)
  for (let i = 1; i < tabCount; i++) {
    const tab = tabs.nth(i)
    const name = (await tab.innerText()).trim()
    await tab.click()
    await expect(tab).toHaveAttribute('aria-selected', 'true')
    await expect(app.locator('.read-status')).toHaveCount(0)
    await expectNoAxeViolationsIn(app, 'main', `domain tab ${name}, Japanese`)
  }

  await go(app, '/domains/register')
  await expectNoAxeViolations(app, 'domain register, Japanese')
  await go(app, '/domains/settings')
  await expectNoAxeViolations(app, 'domain settings, Japanese')
  await go(app, '/domains/transfer-in')
  await expectNoAxeViolations(app, 'transfer in, Japanese')

  await go(app, '/dns')
  await expectNoAxeViolations(app, 'dns, Japanese')
  await go(app, await firstDetail(app, '/dns/'))
  await expectNoAxeViolations(app, 'dns zone, Japanese')
  await go(app, '/dns-bulk')
  await expectNoAxeViolations(app, 'bulk dns, Japanese')
  await go(app, '/health')
  await expectNoAxeViolations(app, 'health, Japanese')

  await go(app, '/freedns')
  await expectNoAxeViolations(app, 'free dns, Japanese')
  await go(app, await firstDetail(app, '/freedns/'))
  await expectNoAxeViolations(app, 'free dns entry, Japanese')

  await go(app, '/search')
  await expectNoAxeViolations(app, 'search, Japanese')
  await go(app, '/expiring')
  await expectNoAxeViolations(app, 'expiring, Japanese')
  await go(app, '/logs')
  await expectNoAxeViolations(app, 'logs, Japanese')
  await go(app, '/jobs')
  await expectNoAxeViolations(app, 'jobs, Japanese')
  await go(app, '/activity')
  await expectNoAxeViolations(app, 'activity, Japanese')
  await go(app, '/accounts')
  await expectNoAxeViolations(app, 'accounts, Japanese')
})
