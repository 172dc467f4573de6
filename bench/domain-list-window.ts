/**
 * The app's domain list in a window of the bench's Chromium, as the domain-list profilers open it
 * (first-paint-profile.ts, scroll-profile.ts), and the labels of the columns it shows (what the
 * bare table is given, domain-list-baseline.ts).
 */
import type { Browser, Page } from '@playwright/test'
import { installBridge, type Harness } from '../support/harness'
import { PROFILE_CATEGORIES } from './trace-breakdown'

/**
 * A new window on the accounts screen, then traced (PROFILE_CATEGORIES) from its move to the
 * domain list until the list has marked its first paint; the trace is the caller's to stop.
 */
export async function openTracedDomainList(browser: Browser, harness: Harness): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await installBridge(page, harness)
  await page.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
  await page.goto(`${harness.url}#/accounts`)
  await page.getByRole('heading', { level: 1 }).waitFor()
  await browser.startTracing(page, { categories: PROFILE_CATEGORIES })
  await page.goto(`${harness.url}#/domains`)
  await page.waitForFunction(() => performance.getEntriesByName('domains:painted').length > 0, undefined, {
    timeout: 120_000,
  })
  return page
}

/** The shown columns' labels, as their sort buttons name them (or their text), the selection column left out. */
export function shownColumnLabels(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('.table-scroll thead th'))
      .filter((th) => !th.classList.contains('check'))
      .map((th) => {
        const sortLabel = th
          .querySelector('button')
          ?.getAttribute('aria-label')
          ?.replace(/^Sort by /, '')
        return sortLabel ?? th.textContent?.trim() ?? ''
      }),
  )
}
