/**
 * At 1024 x 700, in English and Japanese: the domain list shows at least 12 whole rows without
 * scrolling and no expiry flag is cut, and a domain's 13 tabs take at most two rows.
 */
import type { Page } from '@playwright/test'
import { expect, reloadInLanguage, snap, test } from './fixtures'
import { expectNoAxeViolationsIn } from './axe'

/** Rows of the table wholly inside the window, without scrolling. */
async function wholeRowsInView(app: Page): Promise<number> {
  return app.evaluate(() => {
    const height = window.innerHeight
    return Array.from(document.querySelectorAll('table tbody tr:not(.spacer)')).filter((tr) => {
      const r = tr.getBoundingClientRect()
      return r.top >= 0 && r.bottom <= height && r.height > 0
    }).length
  })
}

for (const locale of ['en', 'ja'] as const) {
  test(`1024 x 700 (${locale}): a dozen domain rows with their flags whole; the domain page's tabs in two rows at most`, async ({
    app,
    harness,
  }) => {
    const sb = await harness.demo()
    await app.setViewportSize({ width: 1024, height: 700 })
    await reloadInLanguage(app, locale)
    // The first screen's navigation ends before this test goes elsewhere (see fixtures.ts).
    await expect(app.getByRole('heading', { level: 1 })).toBeVisible()
    await app.evaluate(() => (location.hash = '#/domains'))
    await expect(app.getByRole('heading', { level: 1 })).toHaveText(locale === 'en' ? 'Domains' : 'ドメイン')
    await expect(app.getByRole('table')).toBeVisible()
    await expect(app.locator('table tbody tr:not(.spacer)').first()).toBeVisible()
    // Once the list's layout has settled (its columns are laid out after the rows arrive).
    await expect.poll(() => wholeRowsInView(app)).toBeGreaterThanOrEqual(12)
    // No flag is cut: each is as wide as its text needs, inside its cell.
    const cutFlags = () =>
      app.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>('td .expiry-flag'))
          .filter((flag) => {
            const cell = flag.closest('td')!
            return (
              cell.scrollWidth > cell.clientWidth ||
              flag.getBoundingClientRect().right > cell.getBoundingClientRect().right
            )
          })
          .map((flag) => flag.textContent),
      )
    await expect.poll(cutFlags).toEqual([])
    await snap(app, `domains-1024x700-${locale}`)

    const d = sb.state.domains[3]!
    await app.evaluate((hash) => (location.hash = hash), `#/domains/${d.domainname}`)
    await expect(app.getByRole('tablist')).toBeVisible()
    const rows = await app
      .getByRole('tab')
      .evaluateAll((tabs) => new Set(tabs.map((t) => Math.round(t.getBoundingClientRect().top))).size)
    await snap(app, `domain-tabs-1024x700-${locale}`)
    expect(rows).toBeLessThanOrEqual(2)
  })
}

/**
 * Whether `text` is drawn inside the detail lists' progress beside the filter: in a part of its text that is shown
 * (not the whole sentence kept for the screen reader) and within the box its lines are clamped to.
 */
function countShown(app: Page, text: string): Promise<boolean> {
  return app.evaluate((wanted) => {
    const box = document.querySelector<HTMLElement>('.details-text')
    if (!box) return false
    const clip = box.getBoundingClientRect()
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(wanted) ?? -1
      if (at < 0 || node.parentElement?.closest('.visually-hidden')) continue
      const range = document.createRange()
      range.setStart(node, at)
      range.setEnd(node, at + wanted.length)
      const rects = Array.from(range.getClientRects())
      return (
        rects.length > 0 &&
        rects.every((r) => r.top >= clip.top && r.bottom <= clip.bottom && r.left >= clip.left && r.right <= clip.right)
      )
    }
    return false
  }, text)
}

for (const locale of ['en', 'ja'] as const) {
  test(`1024 x 700 (${locale}): the domain rows stay where they are when the detail lists end loading`, async ({
    app,
    harness,
  }) => {
    await app.setViewportSize({ width: 1024, height: 700 })
    const sb = await harness.demo()
    // The DNSSEC list held: the detail lists' progress stays on screen until it is let go.
    sb.faults.inject('domains.dnssec.list', { hold: true })
    await reloadInLanguage(app, locale)
    await app.evaluate(() => (location.hash = '#/domains'))
    await expect(app.locator('.read-status')).toBeVisible()
    await expect.poll(() => wholeRowsInView(app)).toBeGreaterThanOrEqual(12)
    const firstRowTop = () =>
      app
        .locator('table tbody tr:not(.spacer)')
        .first()
        .evaluate((tr) => tr.getBoundingClientRect().top)
    const whileLoading = await firstRowTop()
    // The count of lists read is seen whole, inside the progress's two lines (in Japanese the sentence before it
    // filled them at 1024 px).
    const count = locale === 'en' ? '3 of 4 lists' : '4 件中 3 件'
    await expect.poll(() => countShown(app, count)).toBe(true)
    // Let go only once the request is at the service: released before it arrives, it would be held for good.
    await expect.poll(() => sb.faults.held('domains.dnssec.list')).toBe(1)
    sb.faults.release()
    await expect(app.locator('.read-status')).toHaveCount(0)
    // The first row as drawn now, its nameservers in.
    const first = app.locator('table tbody tr:not(.spacer)').first()
    const name = await first.getByRole('link').first().innerText()
    await expect(first).toContainText(sb.state.domains.find((d) => d.domainname === name)!.ns[0]!)
    expect(await firstRowTop()).toBe(whileLoading)
  })
}

/** The lines each header's text takes, by header. */
function headerLines(app: Page): Promise<Record<string, number>> {
  return app.evaluate(() =>
    Object.fromEntries(
      Array.from(document.querySelectorAll<HTMLElement>('table thead th'))
        .filter((th) => (th.textContent ?? '').trim() !== '')
        .map((th) => {
          const range = document.createRange()
          range.selectNodeContents(th)
          const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)))
          return [(th.textContent ?? '').replace(/[▲▼]/g, '').trim(), tops.size]
        }),
    ),
  )
}

/** Whether the table fits its scroll region's width (no sideways scroll). */
const tableFits = (app: Page) =>
  app.evaluate(() => {
    const scroll = document.querySelector<HTMLElement>('.table-scroll')!
    return scroll.scrollWidth <= scroll.clientWidth
  })

for (const locale of ['en', 'ja'] as const) {
  test(`1024 x 700 (${locale}): every column the user turns on has a width of its own, and the columns the width decides fit the window as before`, async ({
    app,
    harness,
  }) => {
    await harness.demo()
    await reloadInLanguage(app, locale)
    await app.evaluate(() => (location.hash = '#/domains'))
    const table = app.getByRole('table')
    await expect(table.locator('tbody tr:not(.spacer)').first()).toBeVisible()
    // The columns the width decides, at 1280 and at 1024: the table fits the window, no header on more than two lines.
    for (const width of [1280, 1024]) {
      await app.setViewportSize({ width, height: 700 })
      await expect.poll(() => tableFits(app), { message: `${width}` }).toBe(true)
      expect(Math.max(...Object.values(await headerLines(app))), `${width}`).toBeLessThanOrEqual(2)
    }
    // Every column turned on in the Columns menu, three of them below the width they give way at.
    await app.getByRole('button', { name: locale === 'en' ? /columns hidden/ : /列を非表示/ }).click()
    const boxes = app
      .getByRole('group', { name: locale === 'en' ? 'Columns shown in the list' : '一覧に表示する列' })
      .getByRole('checkbox')
    for (const box of await boxes.all()) await box.check()
    await app.keyboard.press('Escape')
    await expect(table.locator('thead th')).toHaveCount(9)
    await expect(
      table.getByRole('button', { name: locale === 'en' ? 'Sort by Registrar' : /レジストラ/ }),
    ).toBeVisible()
    // Each header whole on two lines at most (one letter a line before, the header row 206 px tall); the table
    // scrolls sideways instead.
    await expect.poll(() => headerLines(app).then((lines) => Math.max(...Object.values(lines)))).toBeLessThanOrEqual(2)
    expect(await tableFits(app)).toBe(false)
    await snap(app, `domains-every-column-1024x700-${locale}`)
  })
}

for (const locale of ['en', 'ja'] as const) {
  test(`1024 x 700 (${locale}): a detail list that fails says so beside the filter, the rows where they were, its Retry a Tab away`, async ({
    app,
    harness,
  }) => {
    await app.setViewportSize({ width: 1024, height: 700 })
    const sb = await harness.demo()
    // The DNSSEC list held, then refused once (a 400: the service's own refusal, not the way to it).
    sb.faults.inject('domains.dnssec.list', { hold: true, status: 400, times: 1 })
    await reloadInLanguage(app, locale)
    await app.evaluate(() => (location.hash = '#/domains'))
    await expect(app.locator('.read-status')).toBeVisible()
    await expect.poll(() => wholeRowsInView(app)).toBeGreaterThanOrEqual(12)
    const first = app.locator('table tbody tr:not(.spacer)').first()
    const firstRowTop = () => first.evaluate((tr) => tr.getBoundingClientRect().top)
    const whileLoading = await firstRowTop()
    // Let go only once the request is at the service: released before it arrived, it was held for good and no
    // failure ever came (CI at 3c35813).
    await expect.poll(() => sb.faults.held('domains.dnssec.list')).toBe(1)
    sb.faults.release()
    const alert = app.getByRole('alert')
    await expect(alert).toHaveCount(1)
    await expect(app.locator('.read-status')).toHaveCount(0)
    // The first row as drawn now, the other lists' values in, where it was while the lists loaded (160 px lower
    // under a banner above the table before).
    const name = await first.getByRole('link').first().innerText()
    await expect(first).toContainText(sb.state.domains.find((d) => d.domainname === name)!.ns[0]!)
    expect(await firstRowTop()).toBe(whileLoading)
    await expect(alert).toContainText(locale === 'en' ? 'Could not read the DNSSEC' : 'DNSSECを読み込めませんでした')
    await expectNoAxeViolationsIn(app, 'main', 'the domain list with a detail list that failed')
    expect(await wholeRowsInView(app)).toBeGreaterThanOrEqual(12)
    await snap(app, `domains-detail-failed-1024x700-${locale}`)
    // Its Retry is the next stop after the filter; Enter reads the list again, and it comes.
    await app.getByRole('searchbox').first().focus()
    await app.keyboard.press('Tab')
    const retry = app.getByRole('button', { name: locale === 'en' ? 'Retry' : '再試行' })
    await expect(retry).toBeFocused()
    await app.keyboard.press('Enter')
    await expect(alert).toHaveCount(0)
    await expect(app.locator('.read-status')).toHaveCount(0)
    await expect(alert).toHaveCount(0)
    expect(await firstRowTop()).toBe(whileLoading)
  })
}
