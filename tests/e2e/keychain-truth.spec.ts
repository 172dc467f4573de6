/**
 * A key gone from the real keychain (another program removed it) is told as gone, once on a screen
 * of several reads, with Replace; the Accounts card says the same; replacing it brings the screen
 * back. English and Japanese, at 1024x700.
 */
import { profileFor } from '../../support/profile'
import { startSandbox } from '../../src/sandbox'
import { expect, reloadInLanguage, test } from './fixtures'

for (const [lang, gone, replace, card, domains, accountsLink] of [
  [
    'en',
    'no longer in the system keychain',
    'Replace the key…',
    'Key no longer in the keychain: replace it',
    'Domains',
    'Accounts & settings',
  ],
  [
    'ja',
    'キーチェーンにもうありません',
    'キーを置き換える…',
    'キーはキーチェーンにもうありません (置き換えてください)',
    'ドメイン',
    'アカウントと設定',
  ],
] as const) {
  test(`${lang}: a key gone from the keychain is said once, with Replace, and the card says the same`, async ({
    app,
    harness,
    page,
  }) => {
    test.skip(!process.env.DBUS_SESSION_BUS_ADDRESS, 'needs the real keychain')
    await page.setViewportSize({ width: 1024, height: 700 })
    const other = await startSandbox({ domains: 5 })
    try {
      const acct = await harness.services.accounts.create(profileFor(other, 'Kept'), other.keys.full, 'keychain')
      await harness.services.accounts.setActive(acct.id)
      await harness.keychain.delete(acct.id)
      await reloadInLanguage(app, lang)
      await app.getByRole('navigation').getByRole('link', { name: domains, exact: true }).click()
      const alert = app.getByRole('alert').filter({ hasText: gone })
      await expect(alert).toHaveCount(1)
      await expect(app.getByRole('alert')).toHaveCount(1)
      await expect(alert.getByRole('button', { name: replace })).toBeVisible()
      await app.getByRole('link', { name: accountsLink }).click()
      await expect(app.getByRole('article', { name: /Kept/ })).toContainText(card)
    } finally {
      await other.close()
    }
  })
}
