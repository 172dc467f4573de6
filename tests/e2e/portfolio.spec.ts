/**
 * The portfolio store end to end: two accounts read once, the app quit and started again with
 * every request of the service held at the sandbox; the domain list and "Expiring soon" paint
 * from the store while no request has been answered; Ctrl+K finds a record value in the other
 * account's zone and opens it there. How fast they paint is `npm run bench -- portfolio-paint`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox } from '../../src/sandbox'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { profileFor } from '../../support/profile'
import { installBridge, startHarness } from '../../support/harness'
import { expect, reloadApp, snap, test } from './fixtures'

test('a second start paints from the store before the service answers; Ctrl+K finds a record in another account and opens it there', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const userDataDir = mkdtempSync(join(tmpdir(), 'e2e-portfolio-'))
  const keychain = new SessionSecretStore()
  const main = await startSandbox({ seed: 3 })
  const other = await startSandbox({ seed: 4 })
  // A record value only the other account's zones have, to look for later.
  const marker = '198.51.100.77'
  const zoneDomain = other.state.domains[1]!.domainname
  other.state.domains[1]!.dns.svc1.records += `\na www-migrate ${marker}`
  try {
    // First run: both accounts, their lists read once.
    const first = await startHarness({ userDataDir, keychain })
    const mainAccount = await first.services.accounts.create(profileFor(main, 'Main'), main.keys.full, 'keychain')
    const otherAccount = await first.services.accounts.create(profileFor(other, 'Other'), other.keys.full, 'keychain')
    const page1 = await browser.newPage()
    await page1.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
    await installBridge(page1, first)
    await first.services.accounts.setActive(otherAccount.id)
    await page1.goto(`${first.url}#/dns`)
    await expect(page1.getByRole('table')).toContainText(zoneDomain)
    await first.services.accounts.setActive(mainAccount.id)
    await page1.goto(`${first.url}#/domains`)
    await reloadApp(page1)
    await expect(page1.getByRole('table', { name: 'Domains' }).getByRole('row').nth(1)).toBeVisible()
    await page1.goto(`${first.url}#/expiring`)
    // Both accounts' expiring lists read (and so kept) before the app quits: "no read under way"
    // alone also holds for the moment before the screen has started reading.
    await page1.getByLabel('Expiring within (days)').selectOption('365')
    await expect(page1.getByRole('table', { name: 'Expiring soon' })).toContainText('Other')
    await expect(page1.locator('.read-status')).toHaveCount(0)
    await page1.close()
    await first.close()
    // The harness forgets its accounts' keys when it closes; the app keeps them in the keychain.
    await keychain.set(mainAccount.id, main.keys.full)
    await keychain.set(otherAccount.id, other.keys.full)

    // The service answers nothing now: every request waits at the sandbox until the test lets it go.
    for (const sb of [main, other]) sb.faults.inject('*', { hold: true })
    const second = await startHarness({ userDataDir, keychain })
    const page = await browser.newPage()
    await page.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
    await installBridge(page, second)
    const before = main.received.length
    const beforeOther = other.received.length
    await page.goto(`${second.url}#/domains`)
    const table = page.getByRole('table', { name: 'Domains' })
    await expect(table.getByRole('row').nth(1)).toBeVisible()
    // Painted from the store: no answer of the service had come back yet.
    expect(main.received.slice(before).filter((r) => r.status > 0)).toEqual([])
    await expect(page.getByRole('status').filter({ hasText: /^As of / })).toBeVisible()
    await snap(page, 'domains-from-store')

    await page.getByRole('navigation').getByRole('link', { name: 'Expiring soon' }).click()
    await page.getByLabel('Expiring within (days)').selectOption('365')
    await expect(page.getByRole('table', { name: 'Expiring soon' })).toContainText('Other')
    // Still nothing answered by either account's service: "Expiring soon" came from the store too.
    expect([...main.received.slice(before), ...other.received.slice(beforeOther)].filter((r) => r.status > 0)).toEqual(
      [],
    )
    for (const sb of [main, other]) sb.faults.clear()

    // Ctrl+K: the record value, in the other account's zone; Enter opens it there.
    await page.keyboard.press('Control+K')
    const palette = page.getByRole('dialog', { name: 'Search everything' })
    await palette.getByRole('combobox').fill(marker)
    const hit = palette.getByRole('option').filter({ hasText: zoneDomain })
    await expect(hit).toContainText('Other')
    await expect(hit).toContainText(marker)
    await snap(page, 'palette')
    await palette.getByRole('combobox').press('Enter')
    await expect(
      page.getByRole('heading', { level: 1, name: new RegExp(zoneDomain.replace(/\./g, '\\.')) }),
    ).toBeVisible({ timeout: 15_000 })
    await expect(page.getByLabel('Account', { exact: true })).toHaveValue(otherAccount.id)
    await page.close()
    await second.close()
  } finally {
    await main.close()
    await other.close()
    rmSync(userDataDir, { recursive: true, force: true })
  }
})
