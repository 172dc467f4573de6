/**
 * Issue 39, points 6 and 13: no text of a list is cut. Every list screen, in English and in
 * Japanese (whose words are wider), at 1280x800 and at 1024x700: any element that hides what
 * overflows it (overflow hidden or an ellipsis) and holds more text than it shows fails the walk,
 * named by screen, size, language and text. The screens hold the demo sandbox's data and a few
 * writes of several kinds, so the Writes list and each job have rows too.
 */
import type { Page } from '@playwright/test'
import type { Sandbox } from '../../src/sandbox'
import type { Harness } from '../../support/harness'
import { expect, reloadInLanguage, snap, test } from './fixtures'

/** The list screens, by address; each shows at least one table once its data is read. */
const LIST_SCREENS = [
  '/servers/a',
  '/servers/b',
  '/servers/c',
  '/svcips',
  '/domains',
  '/domains/settings',
  '/domains/transfer-in',
  '/dns',
  '/freedns',
  '/expiring',
  '/logs',
  '/jobs',
  '/activity',
  '/health',
] as const

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 700 },
] as const

/** Text cut by its box: elements in the screen's main part that hide their overflow and overflow. */
function cutTexts(app: Page): Promise<string[]> {
  return app.evaluate(() => {
    const hides = (s: CSSStyleDeclaration) =>
      s.textOverflow === 'ellipsis' || s.overflowX === 'hidden' || s.overflowX === 'clip'
    const main = document.querySelector('main') ?? document.body
    return Array.from(main.querySelectorAll<HTMLElement>('*'))
      .filter((el) => {
        const text = el.textContent?.trim() ?? ''
        if (!text || el.closest('.visually-hidden') || el.getClientRects().length === 0) return false
        // One pixel of rounding is not a cut.
        return hides(getComputedStyle(el)) && el.scrollWidth > el.clientWidth + 1
      })
      .map((el) => {
        // A cell is named by its column's header, so a report says which column to widen.
        const cell = el.closest('td')
        const row = cell?.parentElement
        const header =
          cell && row
            ? cell
                .closest('table')
                ?.querySelectorAll('thead th')
                [Array.from(row.children).indexOf(cell)]?.textContent?.trim()
            : undefined
        return `${header ? `column "${header}"` : el.tagName.toLowerCase()} (${el.scrollWidth} px in ${el.clientWidth}): ${el.textContent!.trim().slice(0, 60)}`
      })
  })
}

/** A few finished writes of different kinds: several domains, a server, a zone. */
async function someWrites(harness: Harness, sb: Sandbox) {
  const run = async (req: Parameters<Harness['services']['jobs']['prepare']>[0]) => {
    const { job, token } = await harness.services.jobs.prepare(req)
    await harness.services.jobs.start(job.id, token)
  }
  const domains = [...sb.state.domains].map((d) => d.domainname).sort()
  await run({
    accountId: 'demo',
    operation: 'domains.autorenew.set',
    items: domains.slice(0, 6).map((domain) => ({ params: { domain, autorenew_domain: 1 } })),
  })
  const server = sb.state.servers.a[0]!
  await run({
    accountId: 'demo',
    operation: 'servers.autorenew.set',
    items: [{ params: { kind: 'a', webid: server.webid, autorenew_server: 1 } }],
  })
  await run({
    accountId: 'demo',
    operation: 'domains.transferlock.set',
    items: [{ params: { domain: domains[7]!, transfer_lock: 0 } }],
  })
}

for (const lang of ['en', 'ja'] as const) {
  test(`no list screen cuts a cell or a header, at 1280x800 and 1024x700 (${lang})`, async ({ app, harness }) => {
    test.setTimeout(240_000)
    const sb = await harness.demo()
    await someWrites(harness, sb)
    await reloadInLanguage(app, lang)
    const found: string[] = []
    let heading = ''
    for (const size of SIZES) {
      await app.setViewportSize(size)
      for (const screen of LIST_SCREENS) {
        await app.evaluate((hash) => (location.hash = hash), `#${screen}`)
        // The screen before has gone: each list screen has a heading of its own.
        await expect(app.getByRole('heading', { level: 1 })).not.toHaveText(heading)
        heading = (await app.getByRole('heading', { level: 1 }).textContent()) ?? ''
        // A table's first row, or the activity's first entry.
        await expect(app.locator('main table tbody tr:not(.spacer), main li:has(time)').first()).toBeVisible({
          timeout: 15_000,
        })
        // The jobs screen opens one job too: its items are a list of their own.
        if (screen === '/jobs') {
          await app.locator('main table tbody a[href^="#/jobs?job="]').first().click()
          await expect(app.locator('.job-panel table tbody tr:not(.spacer)').first()).toBeVisible()
        }
        // Columns are laid out once the rows are there; a cut found then is a cut.
        let cut: string[] = []
        await expect
          .poll(async () => (cut = await cutTexts(app)), { timeout: 3_000 })
          .toEqual([])
          .catch(() => undefined)
        if (screen === '/jobs' || screen === '/domains' || screen === '/dns')
          await snap(app, `whole-cells${screen.replace('/', '-')}-${size.width}x${size.height}-${lang}`)
        found.push(...[...new Set(cut)].map((c) => `${screen} ${size.width}x${size.height} ${lang}: ${c}`))
      }
    }
    expect(found).toEqual([])
  })
}
