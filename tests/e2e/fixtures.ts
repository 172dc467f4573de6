import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test as base, type Page } from '@playwright/test'
import { installBridge, startHarness, type Harness, type HarnessOptions } from '../../support/harness'
import { WINDOW_CALLS_ATTACHMENT } from '../../support/slow-steps-reporter'

export const SCREENSHOT_DIR = 'test-results/screenshots'

/**
 * Every test has its own harness: its own data folder, keychain entries, demo sandbox on a port
 * of its own and log folder, so tests run in parallel workers without meeting.
 */
export const test = base.extend<{
  harnessOptions: HarnessOptions
  /** Files to put in the test's own data folder before the app starts: name to text, or to null for a folder in its place. */
  userDataFiles: Record<string, string | null> | undefined
  harness: Harness
  app: Page
}>({
  harnessOptions: [{}, { option: true }],
  userDataFiles: [undefined, { option: true }],
  harness: async ({ harnessOptions, userDataFiles }, use, testInfo) => {
    let options = harnessOptions
    let madeDir: string | undefined
    if (userDataFiles) {
      const userDataDir = mkdtempSync(join(tmpdir(), 'e2e-userdata-'))
      madeDir = userDataDir
      for (const [name, text] of Object.entries(userDataFiles)) {
        if (text === null) mkdirSync(join(userDataDir, name))
        else writeFileSync(join(userDataDir, name), text)
      }
      options = { ...harnessOptions, userDataDir }
    }
    const h = await startHarness(options)
    await use(h)
    // A test that failed leaves its window calls, timed, for the report to say where its time went
    // (support/slow-steps-reporter.ts): CI's log is all there is of a run there.
    if (testInfo.status !== testInfo.expectedStatus) {
      const calls = h.windowCalls.map(({ channel, calledAt, answeredAt }) => ({ channel, calledAt, answeredAt }))
      await testInfo.attach(WINDOW_CALLS_ATTACHMENT, { body: JSON.stringify(calls), contentType: 'application/json' })
    }
    await h.close()
    if (madeDir) rmSync(madeDir, { recursive: true, force: true })
  },
  app: async ({ page, harness }, use) => {
    // The UI's English text is the default; the browser's own language must not choose for the test.
    await page.addInitScript(() =>
      localStorage.setItem('hosting-admin.locale', localStorage.getItem('hosting-admin.locale') ?? 'en'),
    )
    await installBridge(page, harness)
    await page.goto(harness.url)
    await waitForFirstScreen(page)
    await use(page)
  },
})

/**
 * Waits until the app has mounted and its first navigation has ended. That navigation ends with
 * the router writing its address, so a test that goes elsewhere before it is sent back (CI caught
 * it twice). A screen's heading appears only once its navigation is done, and the start-up
 * failure screen has one of its own; the boot frame's heading, there before the app mounts, is not
 * one of them (waiting for any heading let tests through at once).
 */
export async function waitForFirstScreen(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('#app h1:not(#boot-word)') !== null)
}

/** Reloads the window and waits for its first screen (see waitForFirstScreen). */
export async function reloadApp(page: Page): Promise<void> {
  await page.reload()
  await waitForFirstScreen(page)
}

/** Reloads the window into a language: the page says it, and its first screen is up. */
export async function reloadInLanguage(page: Page, lang: 'en' | 'ja'): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('hosting-admin.locale', l), lang)
  await reloadApp(page)
  await expect(page.locator('html')).toHaveAttribute('lang', lang)
}

/**
 * A screenshot's file, claimed for the running test: two tests saving under one name would
 * overwrite each other's, in whichever order the workers reach them.
 */
export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const owner = test.info().titlePath.join(' › ')
  const claim = join(SCREENSHOT_DIR, `.${name}.owner`)
  try {
    writeFileSync(claim, owner, { flag: 'wx' })
  } catch {
    // Claimed already: by this test (a retry, or a second shot it takes on purpose) it is fine.
    const by = readFileSync(claim, 'utf8')
    if (by !== owner) throw new Error(`The screenshot name "${name}" is used by another test too: ${by}`)
  }
  return join(SCREENSHOT_DIR, `${name}.png`)
}

/** Saves a screenshot of the current screen as a test artifact. */
export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: screenshotPath(name), fullPage: false })
}

export { expect } from '@playwright/test'
