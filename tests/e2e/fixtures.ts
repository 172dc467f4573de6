import { mkdirSync } from 'node:fs'
import { test as base, type Page } from '@playwright/test'
import { installBridge, startHarness, type Harness, type HarnessOptions } from './harness'

export const SCREENSHOT_DIR = 'test-results/screenshots'

export const test = base.extend<{ harnessOptions: HarnessOptions; harness: Harness; app: Page }>({
  harnessOptions: [{}, { option: true }],
  harness: async ({ harnessOptions }, use) => {
    const h = await startHarness(harnessOptions)
    await use(h)
    await h.close()
  },
  app: async ({ page, harness }, use) => {
    // The UI's English text is the default; the browser's own language must not choose for the test.
    await page.addInitScript(() => localStorage.setItem('hosting-admin.locale', localStorage.getItem('hosting-admin.locale') ?? 'en'))
    await installBridge(page, harness)
    await page.goto(harness.url)
    await use(page)
  },
})

/** Saves a screenshot of the current screen as a test artifact. */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: false })
}

export { expect } from '@playwright/test'
