/**
 * Accounts you cannot mistake: the colour and tag set in Accounts show in the sidebar band and
 * the window title; a production account asks for its name before a renewal; a read-only
 * account says so on every screen and its writes are refused before reaching its sandbox.
 */
import type { Page } from '@playwright/test'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { expect, reloadApp, reloadInLanguage, snap, test } from './fixtures'
import { profileFor } from '../../support/profile'

const writes = (sb: Sandbox) => sb.received.filter((r) => r.method !== 'GET')

/** The domain's Expiration tab (tab name in the page's language). */
async function expirationTab(app: Page, domain: string, tab: string) {
  await app.evaluate((h) => (location.hash = h), `#/domains/${domain}`)
  await expect(app.getByRole('heading', { level: 1, name: domain })).toBeVisible()
  await app.getByRole('tab', { name: tab, exact: true }).click()
  return app.getByRole('tabpanel', { name: tab, exact: true })
}

test('colour and tag set in Accounts show in the band and the title; a renewal asks for the production account’s name', async ({
  app,
  harness,
}) => {
  const other = await startSandbox({ seed: 7, domains: 10 })
  try {
    await harness.services.accounts.create(profileFor(other, 'Reseller'), other.keys.full, 'session')
    await harness.services.accounts.setActive('demo')
    await reloadApp(app)

    // Set in the Accounts screen, by keyboard-reachable controls with names.
    await app.getByRole('navigation').getByRole('link', { name: 'Accounts & settings' }).click()
    const card = app.getByRole('article', { name: 'Reseller' })
    await card.getByRole('button', { name: 'Edit' }).click()
    await app.getByRole('radio', { name: 'Red' }).check()
    await app.getByLabel('Environment tag').selectOption({ label: 'production' })
    // The write safety level follows the production tag: every write asks for the name.
    await expect(app.getByRole('radio', { name: /^Confirm every write by typing the account’s name/ })).toBeChecked()
    await app.getByRole('button', { name: 'Save changes' }).click()
    await expect(card).toContainText('Colour: Red. Tag: production.')

    await app.getByLabel('Account', { exact: true }).selectOption({ label: 'Reseller' })
    // The band, which the switcher names as its description.
    const band = app.locator('#account-band')
    await expect(app.getByLabel('Account', { exact: true })).toHaveAccessibleDescription(/Reseller\s*production/)
    await expect(band).toContainText('Reseller')
    await expect(band).toContainText('production')
    await expect(band.locator('.account-mark')).toHaveAttribute('data-colour', 'red')
    await expect(app).toHaveTitle('Hosting Admin — Reseller [production]')
    await snap(app, 'account-band-en')

    // A renewal: Confirm stays disabled until the name is typed exactly.
    const d = other.state.domains[0]!
    const before = writes(other).length
    const exp = await expirationTab(app, d.domainname, 'Expiration')
    await exp.getByRole('button', { name: /^Renew for 1 year/ }).click()
    const dialog = app.getByRole('dialog')
    await expect(dialog).toContainText('Account: Reseller')
    await expect(dialog.locator('.account-mark')).toContainText('production')
    const confirmButton = dialog.getByRole('button', { name: 'Renew for 1 year', exact: true })
    const nameBox = dialog.getByRole('textbox', { name: 'Account name' })
    await expect(confirmButton).toBeDisabled()
    await nameBox.fill('reseller')
    await expect(confirmButton).toBeDisabled()
    await nameBox.fill('Resell')
    await expect(confirmButton).toBeDisabled()
    await nameBox.fill('Reseller')
    await expect(confirmButton).toBeEnabled()
    await snap(app, 'account-confirm-by-name-en')
    // Nothing was sent while the dialog was open.
    expect(writes(other).length).toBe(before)
    await confirmButton.click()
    await expect(app.getByRole('status').filter({ hasText: `${d.domainname} renewed` })).toBeVisible()
    expect(writes(other).filter((r) => r.endpoint === 'domains.expiration.renew')).toHaveLength(1)

    // Lowering the level asks for the name too; until it is typed, nothing is saved.
    await app.getByRole('navigation').getByRole('link', { name: 'Accounts & settings' }).click()
    await card.getByRole('button', { name: 'Edit' }).click()
    await app.getByRole('radio', { name: /^Confirm only paid, ownership and irreversible operations/ }).check()
    await app.getByRole('button', { name: 'Save changes' }).click()
    const lower = app.getByRole('dialog')
    await expect(lower).toContainText('Guard the writes of Reseller less?')
    const lowerButton = lower.getByRole('button', { name: 'Lower and save' })
    await expect(lowerButton).toBeDisabled()
    await lower.getByRole('textbox', { name: 'Account name' }).fill('Reseller')
    await lowerButton.click()
    await expect(app.getByRole('status').filter({ hasText: 'Reseller' })).toBeVisible()
    await card.getByRole('button', { name: 'Edit' }).click()
    await expect(
      app.getByRole('radio', { name: /^Confirm only paid, ownership and irreversible operations/ }),
    ).toBeChecked()
    await app.getByRole('radio', { name: /^Confirm every write by typing the account’s name/ }).check()
    await app.getByRole('button', { name: 'Save changes' }).click()
    await expect(app.getByRole('dialog')).toHaveCount(0)

    // The same in Japanese: the tag is words of the language, in the band, the title and the dialog.
    await reloadInLanguage(app, 'ja')
    const bandJa = app.locator('#account-band')
    await expect(bandJa).toContainText('本番')
    await expect(app).toHaveTitle('ホスティング管理 — Reseller [本番]')
    await snap(app, 'account-band-ja')
    const expJa = await expirationTab(app, d.domainname, '有効期限')
    await expJa.getByRole('button', { name: /^1 年更新/ }).click()
    const dialogJa = app.getByRole('dialog')
    await expect(dialogJa.getByRole('button', { name: '1 年更新', exact: true })).toBeDisabled()
    await expect(dialogJa).toContainText('確認のため Reseller と入力してください。')
    await snap(app, 'account-confirm-by-name-ja')
    await dialogJa.getByRole('button', { name: 'キャンセル' }).click()
    expect(writes(other).filter((r) => r.endpoint === 'domains.expiration.renew')).toHaveLength(1)
  } finally {
    await other.close()
  }
})

test('a read-only account: a notice on every screen, and a write is refused without a request reaching its sandbox', async ({
  app,
  harness,
}) => {
  const other = await startSandbox({ seed: 8, domains: 10 })
  try {
    const fields = {
      ...profileFor(other, 'Archive'),
      environment: 'staging' as const,
      colour: 'teal' as const,
      readOnly: true,
    }
    const locked = await harness.services.accounts.create(fields, other.keys.full, 'session')
    await harness.services.accounts.setActive(locked.id)
    await reloadApp(app)

    const banner = app.getByRole('note').filter({ hasText: 'Archive is read-only' })
    await expect(banner).toBeVisible()
    await expect(app.locator('#account-band')).toContainText('read-only')
    for (const link of ['Domains', 'Service IPs', 'Writes']) {
      await app.getByRole('navigation').getByRole('link', { name: link, exact: true }).click()
      await expect(banner).toBeVisible()
    }
    await snap(app, 'account-read-only-en')

    const d = other.state.domains[0]!
    const exp = await expirationTab(app, d.domainname, 'Expiration')
    await exp.getByRole('button', { name: /^Renew for 1 year/ }).click()
    // Refused in main before a confirmation could even be asked for.
    await expect(
      app.getByRole('alert').filter({ hasText: 'This account is read-only: the app sends no change to it.' }),
    ).toBeVisible()
    await expect(app.getByRole('dialog')).toHaveCount(0)
    expect(writes(other)).toEqual([])
    expect(other.received.filter((r) => r.endpoint === 'domains.expiration.renew')).toEqual([])

    await reloadInLanguage(app, 'ja')
    await expect(app.getByRole('note').filter({ hasText: 'Archive は読み取り専用です。' })).toBeVisible()
    await expect(app).toHaveTitle('ホスティング管理 — Archive [ステージング]')
    await snap(app, 'account-read-only-ja')
  } finally {
    await other.close()
  }
})
