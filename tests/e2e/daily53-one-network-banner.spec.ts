/**
 * Issue 53, point 4: the service down, Domains showed the same network banner four or five times
 * (the list's and one per detail list), pushing the table below the fold at 1024x700, and its words
 * began with "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:8790". One banner now, words first and
 * the code after, one Retry for every part, and the time of the list still shown beside it. In
 * English and Japanese, at 1024x700.
 */
import { expect, reloadApp, reloadInLanguage, test } from './fixtures'
import { expectNoAxeViolationsIn } from './axe'
import { DEMO_ACCOUNT_ID } from '@shared/accounts'

const WORDS = {
  en: {
    domains: 'Domains',
    refused: (address: string) => `The service at ${address} refused the connection`,
    asOf: /^Showing the list as of /,
    retry: 'Retry',
  },
  ja: {
    domains: 'ドメイン',
    refused: (address: string) => `${address} のサービスが接続を拒否しました`,
    asOf: /時点のリストを表示しています。$/,
    retry: '再試行',
  },
} as const

for (const lang of ['en', 'ja'] as const) {
  test(`the service down, Domains shows one banner for the list and its details, words first (${lang})`, async ({
    app,
    harness,
  }) => {
    const w = WORDS[lang]
    await app.setViewportSize({ width: 1024, height: 700 })
    const sb = await harness.demo()
    if (lang === 'ja') await reloadInLanguage(app, 'ja')
    const nav = app.getByRole('navigation')
    await nav.getByRole('link', { name: w.domains, exact: true }).click()
    const table = app.getByRole('table')
    await expect(table.getByRole('row').filter({ hasText: sb.state.domains[0]!.domainname })).toBeVisible()
    // Read once; then the service goes away and the window opens again on Domains.
    await expect(app.locator('.read-status')).toHaveCount(0)
    // Main keeps the list in its store's worker after it answered the window: kept before the
    // service goes, so the window has a stored list (and its time) to show beside the banner.
    await expect
      .poll(async () => (await harness.services.store.getList(DEMO_ACCOUNT_ID, 'domains.list', {})) !== undefined)
      .toBe(true)
    const address = new URL(sb.url).host
    await sb.close()
    await reloadApp(app)
    await nav.getByRole('link', { name: w.domains, exact: true }).click()
    const banners = app.getByRole('alert')
    await expect(banners.first()).toContainText(w.refused(address))
    await expect(app.locator('.read-status')).toHaveCount(0)
    await expect(banners).toHaveCount(1)
    const banner = banners.first()
    // Words first; the system's code after them.
    const text = (await banner.locator('p').first().textContent()) ?? ''
    expect(text.startsWith(w.refused(address))).toBe(true)
    expect(text.indexOf('ECONNREFUSED')).toBeGreaterThan(text.indexOf(address))
    await expect(banner.getByText(w.asOf)).toBeVisible()
    await expect(banner.getByRole('button', { name: w.retry })).toHaveCount(1)
    // The list as read, still there, and in view under the one banner.
    await expect(table.getByRole('row').nth(1)).toBeInViewport()
    await expectNoAxeViolationsIn(app, 'main', 'Domains with the service down')
    // One Retry for every part: still one banner after it.
    await banner.getByRole('button', { name: w.retry }).click()
    await expect(app.locator('.read-status')).toHaveCount(0)
    await expect(banners).toHaveCount(1)
  })
}
