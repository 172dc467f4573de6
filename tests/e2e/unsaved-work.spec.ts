/**
 * Unsaved work is not dropped without a question when the window goes (issue 39, point 9): a
 * reload asks through the page's beforeunload, and closing the window (main's `close` event,
 * which asks the window: __haQuitRequest here) names the unsaved edits; Cancel keeps the window
 * and the edit. Main is told how many edits are unsaved, and nothing is asked once there are none.
 * In English and Japanese, at 1024x700.
 */
import type { Page } from '@playwright/test'
import type { Harness } from '../../support/harness'
import { expect, reloadInLanguage, test } from './fixtures'
import { expectNoAxeViolations } from './axe'
import { svc1Domain } from './dns-screens'
import { z } from 'zod'

const ENGLISH = {
  filter: 'Filter',
  zone: (name: string) => `DNS records of ${name}`,
  title: 'Unsaved edits',
  line: '1 edit is not saved',
  cancel: 'Cancel',
  close: 'Close without saving',
  reloadLine: 'Reloading the window drops it',
  reload: 'Reload without saving',
}
const JAPANESE = {
  filter: '絞り込み',
  zone: (name: string) => `${name} のDNSレコード`,
  title: '保存していない編集があります',
  line: '保存していない編集が 1 件あります',
  cancel: 'キャンセル',
  close: '保存せずに閉じる',
  reloadLine: 'ウィンドウを再読み込みすると失われます',
  reload: '保存せずに再読み込み',
}

const unsavedCounts = (harness: Harness) =>
  harness.windowCalls
    .filter((c) => c.channel === 'app.unsavedWork')
    .map((c) => z.object({ count: z.number() }).parse(c.payload).count)
const quitRequest = (app: Page) => app.evaluate(() => window.__haQuitRequest?.())
/** As main asks when Electron held a reload back for the page's beforeunload (will-prevent-unload): Electron asks nothing itself. */
const reloadRequest = (app: Page) => app.evaluate(() => window.__haReloadRequest?.())

/** Ends with the closing question on screen, for the test's axe scan; `finish` answers it. */
async function leaveWithAnEdit(app: Page, harness: Harness, words: typeof ENGLISH, scan: () => Promise<void>) {
  await app.setViewportSize({ width: 1024, height: 700 })
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await app.getByRole('navigation').getByRole('link', { name: 'DNS', exact: true }).click()
  await app.getByLabel(words.filter).fill(d.domainname)
  await app.getByRole('link', { name: d.domainname, exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: words.zone(d.domainname) })).toBeVisible()
  const ttl = app.getByLabel('TTL', { exact: true })
  const before = await ttl.inputValue()
  await ttl.fill('7200')
  await expect.poll(() => unsavedCounts(harness).at(-1)).toBe(1)

  // A reload asks (the browser's own question); staying keeps the edit.
  const asked = new Promise<string>((resolve) =>
    app.once('dialog', (dialog) => void dialog.dismiss().then(() => resolve(dialog.type()))),
  )
  await app.evaluate(() => location.reload())
  expect(await asked).toBe('beforeunload')
  await expect(ttl).toHaveValue('7200')

  // Closing the window asks, naming the unsaved edit; Cancel keeps the window and the edit.
  await quitRequest(app)
  const dialog = app.getByRole('dialog', { name: words.title })
  await expect(dialog).toContainText(words.line)
  await scan()
  await dialog.getByRole('button', { name: words.cancel }).click()
  await expect(dialog).toHaveCount(0)
  expect(harness.quitsConfirmed).toBe(0)
  await expect(ttl).toHaveValue('7200')

  // A reload in Electron asks the same way; Cancel keeps the window and the edit.
  await reloadRequest(app)
  await expect(dialog).toContainText(words.reloadLine)
  await dialog.getByRole('button', { name: words.cancel }).click()
  await expect(dialog).toHaveCount(0)
  await expect(ttl).toHaveValue('7200')

  // Closing anyway closes, and asks nothing more on the way.
  await quitRequest(app)
  await dialog.getByRole('button', { name: words.close }).click()
  await expect.poll(() => harness.quitsConfirmed).toBe(1)

  // With the edit undone there is nothing to ask about: main is told none, and a close goes at once.
  await ttl.fill(before)
  await expect.poll(() => unsavedCounts(harness).at(-1)).toBe(0)
  await quitRequest(app)
  await expect.poll(() => harness.quitsConfirmed).toBe(2)
  await expect(app.getByRole('dialog')).toHaveCount(0)

  // Reloading anyway reloads, with no browser question on the way, and the edit goes with the page.
  await ttl.fill('7300')
  await expect.poll(() => unsavedCounts(harness).at(-1)).toBe(1)
  let browserAsked = false
  app.on('dialog', (d) => {
    browserAsked = true
    void d.dismiss()
  })
  await reloadRequest(app)
  await dialog.getByRole('button', { name: words.reload }).click()
  await expect(app.getByRole('heading', { level: 1, name: words.zone(svc1Domain(sb).domainname) })).toBeVisible()
  await expect(app.getByLabel('TTL', { exact: true })).toHaveValue(before)
  expect(browserAsked).toBe(false)
}

test('closing or reloading the window with an unsaved edit asks first, and Cancel keeps the edit', async ({
  app,
  harness,
}) => {
  await leaveWithAnEdit(app, harness, ENGLISH, () => expectNoAxeViolations(app, 'closing with unsaved edits'))
})

test('closing with an unsaved edit asks first, in Japanese', async ({ app, harness }) => {
  await reloadInLanguage(app, 'ja')
  await leaveWithAnEdit(app, harness, JAPANESE, () =>
    expectNoAxeViolations(app, 'closing with unsaved edits, Japanese'),
  )
})
