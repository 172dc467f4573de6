/**
 * Issue 39, point 3: adding an account whose key the service refuses no longer ends in a green
 * "Switch to it now?" with the refusal on the card out of view. The form tells the key's test
 * beside the key field, offers to replace a refused key first (keyboard only here), tells a
 * service that could not be reached apart from a refusal, and asks about switching only once the
 * key passed. In English and Japanese, at 1024x700, against a second sandbox over loopback.
 */
import type { Page } from '@playwright/test'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { expect, reloadInLanguage, snap, test } from './fixtures'
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
    refused: 'The service refused the key of “Second”.',
    forbiddenRead: 'refused to let this key read (GET /logs)',
    unreached: 'The key of “Second” was not tested: the service could not be reached.',
    passed: 'The service accepted the key of “Second”.',
    replace: 'Replace the key',
    again: 'Test again',
    dialog: 'Replace the API key of “Second”',
    newKey: 'New API key',
    offer: /Switch to “Second” now\?/,
    switchTo: 'Switch to Second',
    switched: 'Now working in “Second”.',
  },
  ja: {
    accounts: 'アカウントと設定',
    form: 'アカウントを追加',
    name: '名前',
    baseUrl: 'ベースURL',
    apiKey: 'APIキー',
    add: 'アカウントを追加',
    check: '新しいアカウントのキーの確認',
    refused: 'サービスは「Second」のキーを拒否しました。',
    forbiddenRead: '(GET /logs)',
    unreached: 'サービスに接続できなかったため、「Second」のキーはまだ確認できていません。',
    passed: 'サービスは「Second」のキーを受け付けました。',
    replace: 'キーを置き換える',
    again: 'もう一度確認',
    dialog: '「Second」の API キーを置き換える',
    newKey: '新しいAPIキー',
    offer: /「Second」に今すぐ切り替えますか/,
    switchTo: 'Second に切り替える',
    switched: '「Second」に切り替えました。',
  },
} as const

type Words = (typeof WORDS)[keyof typeof WORDS]

/** Opens Accounts & settings at 1024x700 in the language, and adds "Second" with the key given. */
async function addSecond(app: Page, lang: 'en' | 'ja', other: Sandbox, key: string) {
  const w: Words = WORDS[lang]
  await app.setViewportSize({ width: 1024, height: 700 })
  if (lang === 'ja') await reloadInLanguage(app, 'ja')
  await app.getByRole('link', { name: w.accounts }).click()
  const form = app.getByRole('region', { name: w.form })
  await form.getByLabel(w.name, { exact: true }).fill('Second')
  await form.getByLabel(w.baseUrl).fill(other.url)
  await form.getByLabel(w.apiKey).fill(key)
  await form.getByRole('button', { name: w.add }).click()
  return { form, w, check: form.getByRole('group', { name: w.check }) }
}

for (const lang of ['en', 'ja'] as const) {
  test(`a refused key is told in the form and replaced from there before any switch (${lang})`, async ({
    app,
    harness,
  }) => {
    await harness.demo()
    const other = await startSandbox()
    try {
      const { form, w, check } = await addSecond(app, lang, other, 'not-the-key-of-this-account')
      // Beside the key field, in view, announced at once; no green switch question.
      const alert = check.getByRole('alert')
      await expect(alert).toContainText(w.refused)
      await expect(check).toBeInViewport()
      await expect(form.getByRole('group', { name: w.offer })).toHaveCount(0)
      const replace = check.getByRole('button', { name: w.replace })
      await expect(replace).toBeFocused()
      await snap(app, `daily39-key-refused-${lang}`)
      await expectNoAxeViolationsIn(app, 'main', `the add-account form with a refused key (${lang})`)

      // Keyboard only: Enter opens the dialog with its key field focused; Escape goes back to the
      // offer; Enter again, and Enter replaces.
      await app.keyboard.press('Enter')
      const dialog = app.getByRole('dialog', { name: w.dialog })
      await expect(dialog.getByLabel(w.newKey)).toBeFocused()
      await expectNoAxeViolationsIn(app, 'dialog', `the key's replacement from the add-account form (${lang})`)
      await app.keyboard.press('Escape')
      await expect(dialog).toHaveCount(0)
      await expect(replace).toBeFocused()
      await app.keyboard.press('Enter')
      await expect(dialog.getByLabel(w.newKey)).toBeFocused()
      await app.keyboard.type(other.keys.full)
      await app.keyboard.press('Enter')
      await expect(dialog).toHaveCount(0)
      // Tested again at once: passed, and only now the question, with the focus on it.
      await expect(check.getByRole('status')).toHaveText(w.passed)
      await expect(check.getByRole('alert')).toHaveCount(0)
      const offer = form.getByRole('group', { name: w.offer })
      await expect(offer.getByRole('button', { name: w.switchTo })).toBeFocused()
      await expect(check).toBeInViewport()
      await expectNoAxeViolationsIn(app, 'main', `the add-account form after the key passed (${lang})`)
      await app.keyboard.press('Enter')
      await expect(app.getByRole('status').filter({ hasText: w.switched })).toBeVisible()
      // The service saw the replaced key, never the refused one again.
      expect(
        other.received.some((r) => r.path === '/v1/logs' && r.headers.authorization === `Bearer ${other.keys.full}`),
      ).toBe(true)
    } finally {
      await other.close()
    }
  })

  test(`a 403 names the read that was refused (${lang})`, async ({ app, harness }) => {
    await harness.demo()
    const other = await startSandbox()
    try {
      // A token not allowed this read, or this computer's address not on its list (API-SPEC section 5).
      other.faults.inject('logs.list', { status: 403, times: 1 })
      const { w, check } = await addSecond(app, lang, other, other.keys.full)
      await expect(check.getByRole('alert')).toContainText(w.refused)
      await expect(check.getByRole('alert')).toContainText(w.forbiddenRead)
      await expect(check.getByRole('button', { name: w.replace })).toBeFocused()
    } finally {
      await other.close()
    }
  })

  test(`a service that cannot be reached is told apart from a refusal, and tested again (${lang})`, async ({
    app,
    harness,
  }) => {
    await harness.demo()
    const other = await startSandbox()
    try {
      // Every connection dropped without an answer (the client's retries included) until cleared.
      other.faults.inject('logs.list', { reset: true, times: 100 })
      const { form, w, check } = await addSecond(app, lang, other, other.keys.full)
      await expect(check.getByRole('alert')).toContainText(w.unreached)
      await expect(check.getByRole('alert')).not.toContainText(w.refused)
      await expect(form.getByRole('group', { name: w.offer })).toHaveCount(0)
      const again = check.getByRole('button', { name: w.again })
      await expect(again).toBeFocused()
      await snap(app, `daily39-key-unreached-${lang}`)
      await expectNoAxeViolationsIn(app, 'main', `the add-account form when the service was not reached (${lang})`)
      other.faults.clear()
      await app.keyboard.press('Enter')
      await expect(check.getByRole('status')).toHaveText(w.passed)
      await expect(form.getByRole('group', { name: w.offer }).getByRole('button', { name: w.switchTo })).toBeFocused()
    } finally {
      await other.close()
    }
  })
}
