/**
 * The README's pictures, made from the real renderer in the end-to-end run: the domain list
 * under a production account's band, the DNS editor with its plan, and a renewal's confirmation
 * naming the production account. Written to test-results/readme-pictures; `npm run pictures`
 * writes them into docs/, where the README shows them.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { startSandbox } from '../../src/sandbox'
import { expect, reloadApp, test } from './fixtures'
import { profileFor } from '../../support/profile'

const OUT = process.env.README_PICTURES === '1' ? 'docs' : 'test-results/readme-pictures'

async function picture(app: Page, name: string): Promise<void> {
  mkdirSync(OUT, { recursive: true })
  await app.screenshot({ path: join(OUT, `${name}.png`) })
}

test('the README’s pictures: the domain list under a production account, the DNS editor with its plan, a confirmation naming the account', async ({
  app,
  harness,
}) => {
  test.setTimeout(90_000)
  const prod = await startSandbox({ seed: 21, domains: 40 })
  try {
    const account = await harness.services.accounts.create(
      { ...profileFor(prod, 'Shop (production)'), colour: 'red', environment: 'production' },
      prod.keys.full,
      'session',
    )
    await harness.services.accounts.setActive(account.id)
    await app.setViewportSize({ width: 1280, height: 800 })
    await reloadApp(app)

    // The domain list, with the band and the flags of soon-expiring domains.
    await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
    await expect(app.getByRole('table')).toContainText(prod.state.domains[0]!.domainname)
    await expect(app.locator('.read-status')).toHaveCount(0)
    await expect(app.locator('#account-band')).toContainText('production')
    await picture(app, 'screenshot-domains')

    // The DNS editor with a plan: one address changed, one TXT record added.
    const d = prod.state.domains.find((x) => x.ns[0] === 'ns1.svc1.example.net')!
    await app.evaluate((h) => (location.hash = h), `#/dns/${d.domainname}`)
    await expect(app.getByRole('heading', { level: 1, name: `DNS records of ${d.domainname}` })).toBeVisible()
    await app.getByLabel('Value of row 1', { exact: true }).fill('203.0.113.80')
    await app.getByLabel('Value of row 1', { exact: true }).press('Tab')
    await app.getByRole('button', { name: 'Add a record' }).click()
    const n = d.dns.svc1.records.split('\n').length + 1
    await app.getByLabel(`Type of row ${n}`).selectOption('TXT')
    await app.getByLabel(`Value of row ${n}`).fill('google-site-verification=3c7d1e')
    await app.getByLabel(`Value of row ${n}`).press('Tab')
    await app.getByRole('button', { name: 'Review changes…' }).click()
    const plan = app.getByRole('region', { name: 'Plan: what will change' })
    await expect(plan).toBeVisible()
    await plan.scrollIntoViewIfNeeded()
    await picture(app, 'screenshot-dns-plan')

    // A renewal's confirmation: the account named, its name to be typed, the new date.
    await app.evaluate((h) => (location.hash = h), `#/domains/${prod.state.domains[0]!.domainname}`)
    await app.getByRole('tab', { name: 'Expiration', exact: true }).click()
    await app
      .getByRole('tabpanel', { name: 'Expiration' })
      .getByRole('button', { name: /^Renew for 1 year/ })
      .click()
    const dialog = app.getByRole('dialog')
    await expect(dialog).toContainText('Shop (production)')
    await picture(app, 'screenshot-confirm')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(prod.received.filter((r) => r.method !== 'GET')).toEqual([])
  } finally {
    await prod.close()
  }
})
