/**
 * Issue 53, point 7: a 403 "access from this IP address is not permitted for this token" is not
 * a wrong key. The new account's key test leads with the allowed-addresses fix and "Test again"
 * (focused), with "Replace the key" second; once the address is allowed, Test again passes. In
 * English and Japanese, at 1024x700, against a second sandbox over loopback.
 */
import { startSandbox } from '../../src/sandbox'
import { expect, reloadInLanguage, test } from './fixtures'
import { expectNoAxeViolationsIn } from './axe'

const WORDS = {
  en: {
    accounts: 'Accounts & settings',
    form: 'Add an account',
    name: 'Name',
    baseUrl: 'Base URL',
    apiKey: 'API key',
    add: 'Add account',
    check: 'Test of the new account’s key',
    address: 'The service refused requests of “Second” from this computer’s internet address.',
    fix: 'add this computer’s internet address to the token’s allowed addresses',
    replace: 'Replace the key',
    again: 'Test again',
    passed: 'The service accepted the key of “Second”.',
  },
  ja: {
    accounts: 'アカウントと設定',
    form: 'アカウントを追加',
    name: '名前',
    baseUrl: 'ベースURL',
    apiKey: 'APIキー',
    add: 'アカウントを追加',
    check: '新しいアカウントのキーの確認',
    address: 'このコンピューターのインターネットアドレスからの「Second」のリクエストをサービスが拒否しました。',
    fix: 'トークンの接続許可アドレスに追加してから、もう一度確認してください',
    replace: 'キーを置き換える',
    again: 'もう一度確認',
    passed: 'サービスは「Second」のキーを受け付けました。',
  },
} as const

for (const lang of ['en', 'ja'] as const) {
  test(`a key refused for this computer's address leads with the allowed addresses and Test again (${lang})`, async ({
    app,
    harness,
  }) => {
    const w = WORDS[lang]
    await app.setViewportSize({ width: 1024, height: 700 })
    await harness.demo()
    const other = await startSandbox()
    try {
      // As users met it: every request of the token refused for the address it came from.
      other.faults.inject('*', { status: 403, message: 'access from this IP address is not permitted for this token' })
      if (lang === 'ja') await reloadInLanguage(app, 'ja')
      await app.getByRole('link', { name: w.accounts }).click()
      const form = app.getByRole('region', { name: w.form })
      await form.getByLabel(w.name, { exact: true }).fill('Second')
      await form.getByLabel(w.baseUrl).fill(other.url)
      await form.getByLabel(w.apiKey).fill(other.keys.full)
      await form.getByRole('button', { name: w.add }).click()
      const check = app.getByRole('group', { name: w.check })
      const alert = check.getByRole('alert')
      await expect(alert).toContainText(w.address)
      await expect(alert).toContainText(w.fix)
      // Test again first and focused; Replace the key second, not the lead.
      const buttons = check.getByRole('button')
      await expect(buttons.first()).toHaveText(w.again)
      await expect(buttons.first()).toBeFocused()
      await expect(buttons.nth(1)).toHaveText(w.replace)
      await expectNoAxeViolationsIn(app, 'main', 'a key test refused for the address')
      // The address allowed on the service: Test again passes with the same key.
      other.faults.clear()
      await buttons.first().click()
      await expect(check).toContainText(w.passed)
    } finally {
      await other.close()
    }
  })
}
