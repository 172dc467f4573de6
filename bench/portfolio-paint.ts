/**
 * A second start paints from the store: two accounts read once, the app started again with the
 * service taking 2 s for every request; the time from opening the window on the domain list to
 * its first row, and from clicking "Expiring soon" to the other account's rows. Both before any
 * answer of the service could come back: target < 2000 ms each (what tests/e2e/portfolio.spec.ts
 * asserted with a clock before it held the service's answers instead).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox } from '../src/sandbox'
import { SessionSecretStore } from '../src/main/accounts/secret-store'
import { installBridge, startHarness } from '../support/harness'
import { profileFor } from '../support/profile'
import { launchBenchChromium } from './bench-chromium'
import type { BenchResult } from './report'

const SERVICE_MS = 2000
const TARGET_MS = 2000

/**
 * In the page: whether the domain list (the table whose caption is "Domains") shows a row of a domain, as
 * getByRole('table', { name: 'Domains' }).getByRole('row').nth(1) finds one: its body's rows, the spacers hidden from
 * assistive technology left out.
 */
function firstDomainRowShown(): boolean {
  const table = Array.from(document.querySelectorAll('table')).find((t) => t.caption?.textContent?.trim() === 'Domains')
  return !!table && Array.from(table.querySelectorAll('tbody tr')).some((r) => r.getAttribute('aria-hidden') !== 'true')
}

export async function benchPortfolioPaint(): Promise<BenchResult> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'portfolio-paint-'))
  const keychain = new SessionSecretStore()
  const main = await startSandbox({ seed: 3 })
  const other = await startSandbox({ seed: 4 })
  const browser = await launchBenchChromium()
  try {
    // First run: both accounts, their lists read once into the store.
    const first = await startHarness({ userDataDir, keychain })
    const mainAccount = await first.services.accounts.create(profileFor(main, 'Main'), main.keys.full, 'keychain')
    const otherAccount = await first.services.accounts.create(profileFor(other, 'Other'), other.keys.full, 'keychain')
    const page1 = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page1.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
    await installBridge(page1, first)
    await first.services.accounts.setActive(otherAccount.id)
    await page1.goto(`${first.url}#/expiring`)
    await page1.waitForFunction(
      () => document.querySelector('table') && !document.querySelector('.read-status'),
      undefined,
      { timeout: 60_000 },
    )
    await first.services.accounts.setActive(mainAccount.id)
    await page1.goto(`${first.url}#/domains`)
    await page1.reload()
    await page1.getByRole('table', { name: 'Domains' }).getByRole('row').nth(1).waitFor({ timeout: 60_000 })
    await page1.goto(`${first.url}#/expiring`)
    await page1.waitForFunction(() => !document.querySelector('.read-status'), undefined, { timeout: 60_000 })
    await page1.close()
    await first.close()
    await keychain.set(mainAccount.id, main.keys.full)
    await keychain.set(otherAccount.id, other.keys.full)

    // Second run, the service slow.
    for (const sb of [main, other]) sb.faults.inject('*', { latencyMs: SERVICE_MS })
    const second = await startHarness({ userDataDir, keychain })
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await page.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
      await installBridge(page, second)
      const before = main.received.length
      const t0 = performance.now()
      await page.goto(`${second.url}#/domains`)
      // Looked for at every frame. A locator's waitFor tries again after 20, 50, 100 and 100 ms, then every 500 ms
      // (Playwright's back-off), so a row that came a few milliseconds later could be seen up to 100 ms later, or 500:
      // rounds of one build ranged 307-490 ms.
      await page.waitForFunction(firstDomainRowShown, undefined, { polling: 'raf', timeout: 30_000 })
      const domainsMs = performance.now() - t0
      const answeredBefore = main.received.slice(before).filter((r) => r.status > 0).length

      const t1 = performance.now()
      await page.getByRole('navigation').getByRole('link', { name: 'Expiring soon' }).click()
      await page.getByLabel('Expiring within (days)').selectOption('365')
      await page.getByRole('table', { name: 'Expiring soon' }).getByText('Other').first().waitFor({ timeout: 30_000 })
      const expiringMs = performance.now() - t1
      for (const sb of [main, other]) sb.faults.clear()
      await page.close()
      return {
        name: `a second start, painted from the store, the service at ${SERVICE_MS / 1000} s a request`,
        lines: [
          `domain list, window opened -> first row:      ${domainsMs.toFixed(0)} ms  (target < ${TARGET_MS} ms; answers of the service by then: ${answeredBefore})`,
          `"Expiring soon" clicked -> the other account: ${expiringMs.toFixed(0)} ms  (target < ${TARGET_MS} ms)`,
        ],
        ok: domainsMs < TARGET_MS && expiringMs < TARGET_MS && answeredBefore === 0,
      }
    } finally {
      await second.close()
    }
  } finally {
    await browser.close()
    await main.close()
    await other.close()
    await rm(userDataDir, { recursive: true, force: true })
  }
}
