/**
 * A new user's first seconds: while main opens the store (app.startup held here at the bridge),
 * the boot frame says so in the user's language instead of an empty page; once main answers,
 * the app replaces it. English and Japanese, at 1024x700, axe clean.
 */
import { installBridge } from '../../support/harness'
import { expectNoAxeViolationsBeforeMount } from './axe'
import { expect, test } from './fixtures'

for (const [lang, word, heading] of [
  ['en', 'Opening your data…', /servers/i],
  ['ja', 'データを開いています…', /サーバー|ドメイン/],
] as const) {
  test(`${lang}: the boot frame says the data is opening while main opens the store`, async ({ page, harness }) => {
    await page.setViewportSize({ width: 1024, height: 700 })
    await page.addInitScript((l) => localStorage.setItem('hosting-admin.locale', l), lang)
    let release: () => void = () => undefined
    const held = new Promise<void>((r) => (release = r))
    await installBridge(page, harness, (channel) => (channel === 'app.startup' ? held : undefined))
    await page.goto(harness.url)
    const status = page.getByRole('status').filter({ hasText: word })
    await expect(status).toBeVisible()
    await expect(page.getByRole('navigation')).toHaveCount(0)
    await expectNoAxeViolationsBeforeMount(page, `boot frame (${lang})`)
    release()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
    await expect(page.getByText(word)).toHaveCount(0)
  })
}
