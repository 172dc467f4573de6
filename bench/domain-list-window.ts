/**
 * The app's domain list in a window of the bench's Chromium, as the domain-list profilers open it
 * (first-paint-profile.ts, scroll-profile.ts), and the labels of the columns it shows (what the
 * bare table is given, domain-list-baseline.ts).
 */
import type { Browser, Page } from '@playwright/test'
import { installBridge, type Harness } from '../support/harness'
import { PROFILE_CATEGORIES } from './trace-breakdown'
import { bareCells, openBarePage } from './domain-list-baseline'

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

/**
 * The app's window closed once its list is whole (the stored list's parts, the fresh read: each
 * part marks domains:data again), then a bare table's page opened beside it with the sandbox's
 * domains cut to the columns the app showed: the page, and its rows for showBare.
 */
export async function bareAfterApp(
  browser: Browser,
  harness: Harness,
  page: Page,
  domains: number,
): Promise<{ bare: Page; labels: string[]; rows: string[][] }> {
  const labels = await shownColumnLabels(page)
  await page.getByText(`Showing ${domains} of ${domains}`).waitFor({ timeout: 120_000 })
  await page.close()
  const sandbox = await harness.demo()
  const rows = sandbox.state.domains.map((d) => bareCells(labels, d))
  return { bare: await openBarePage(browser), labels, rows }
}
