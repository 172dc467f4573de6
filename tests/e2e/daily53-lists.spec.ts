/**
 * Issue 53, points 8 and 11, on the list screens, in English and Japanese:
 * - the domain list at 1024x700 says how many columns gave way to the window, and a Columns menu
 *   (a disclosure button, worked with the keyboard) shows a hidden one again, kept after a reload;
 *   the details' loading line names only the columns on screen;
 * - the expiry state colours its own cell, not every cell of the row;
 * - Expiring soon at 1024x700 and 1280x800 never splits a name inside a label;
 * - Bulk DNS shows an account's whole badge in its zone table.
 */
import type { Locator, Page } from '@playwright/test'
import { startSandbox } from '../../src/sandbox'
import { profileFor } from '../../support/profile'
import { expect, reloadApp, reloadInLanguage, test } from './fixtures'
import { expectNoAxeViolationsIn } from './axe'

const WORDS = {
  en: {
    domains: 'Domains',
    showing: (n: number) => `Showing ${n} of ${n}`,
    columns: (hidden: number) => `${hidden} ${hidden === 1 ? 'column' : 'columns'} hidden`,
    legend: 'Columns shown in the list',
    registrar: 'Registrar',
    sortByRegistrar: 'Sort by Registrar',
    dnssec: 'DNSSEC',
    loading: 'Loading the nameservers of every domain',
    loadingWithDnssec: 'Loading the nameservers and DNSSEC of every domain',
    hiddenParts: ['transfer lock', 'WHOIS privacy', 'DNSSEC'],
    expiring: 'Expiring soon',
    within: 'Expiring within (days)',
    zones: '2. Zones',
    readLists: 'Read the zone lists from the service',
    production: 'Production',
  },
  ja: {
    domains: 'ドメイン',
    showing: (n: number) => `${n} 件中 ${n} 件を表示`,
    columns: (hidden: number) => `${hidden} 列を非表示`,
    legend: '一覧に表示する列',
    registrar: 'レジストラ',
    sortByRegistrar: 'レジストラで並べ替え',
    dnssec: 'DNSSEC',
    loading: '全ドメインのネームサーバーを読み込んでいます',
    loadingWithDnssec: '全ドメインのネームサーバー、DNSSECを読み込んでいます',
    hiddenParts: ['移管ロック', 'WHOIS代理公開', 'DNSSEC'],
    expiring: '期限が近いもの',
    within: '期限までの日数',
    zones: '2. ゾーン',
    readLists: 'サービスからゾーン一覧を読み込む',
    production: '本番',
  },
} as const

async function go(app: Page, hash: string) {
  await app.evaluate((h) => (location.hash = h), hash)
}

for (const lang of ['en', 'ja'] as const) {
  test(`the domain list says which columns are hidden and shows them again from its Columns menu (${lang})`, async ({
    app,
    harness,
  }) => {
    const w = WORDS[lang]
    await app.setViewportSize({ width: 1024, height: 700 })
    const sb = await harness.demo()
    // The DNSSEC list held: its loading line stays on screen while the test reads it.
    sb.faults.inject('domains.dnssec.list', { hold: true })
    if (lang === 'ja') await reloadInLanguage(app, 'ja')
    await go(app, '#/domains')
    await expect(app.getByText(w.showing(sb.state.domains.length))).toBeVisible()
    const table = app.getByRole('table', { name: w.domains })

    // At 1024 the registrar, transfer lock, WHOIS privacy and DNSSEC give way, and the list says so.
    const button = app.getByRole('button', { name: w.columns(4) })
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await expect(table.getByRole('columnheader', { name: w.registrar })).toHaveCount(0)
    // The loading line names what is on screen, not the hidden columns.
    const loading = app.getByRole('status').filter({ hasText: w.loading })
    await expect(loading).toBeVisible()
    for (const part of w.hiddenParts) await expect(loading).not.toContainText(part)

    // By keyboard: the menu opens on its first choice; Space shows the registrar.
    await button.focus()
    await app.keyboard.press('Enter')
    await expect(button).toHaveAttribute('aria-expanded', 'true')
    const menu = app.getByRole('group', { name: w.legend })
    const registrar = menu.getByRole('checkbox', { name: w.registrar })
    await expect(registrar).toBeFocused()
    await expect(registrar).not.toBeChecked()
    await app.keyboard.press('Space')
    await expect(registrar).toBeChecked()
    await expect(table.getByRole('button', { name: w.sortByRegistrar })).toBeVisible()
    await expect(app.getByRole('button', { name: w.columns(3) })).toBeVisible()
    // DNSSEC shown too: the loading line now names it.
    await menu.getByRole('checkbox', { name: w.dnssec }).check()
    await expect(app.getByRole('status').filter({ hasText: w.loadingWithDnssec })).toBeVisible()
    await expectNoAxeViolationsIn(app, 'main', 'the domain list with its Columns menu open')
    // Escape folds the menu and gives the focus back to its button.
    await app.keyboard.press('Escape')
    await expect(menu).toBeHidden()
    const after = app.getByRole('button', { name: w.columns(2) })
    await expect(after).toBeFocused()
    await expect(after).toHaveAttribute('aria-expanded', 'false')
    sb.faults.clear()

    // The choice outlives a reload, like the list's other preferences.
    await reloadApp(app)
    await go(app, '#/domains')
    await expect(app.getByText(w.showing(sb.state.domains.length))).toBeVisible()
    await expect(table.getByRole('button', { name: w.sortByRegistrar })).toBeVisible()
    await expect(app.getByRole('button', { name: w.columns(2) })).toBeVisible()
    await expectNoAxeViolationsIn(app, 'main', 'the domain list with columns chosen')
  })

  test(`a healthy domain's row is not coloured in every cell: the state shows in its expiry cell (${lang})`, async ({
    app,
    harness,
  }) => {
    const w = WORDS[lang]
    await app.setViewportSize({ width: 1024, height: 700 })
    const sb = await harness.demo()
    if (lang === 'ja') await reloadInLanguage(app, 'ja')
    await go(app, '#/domains')
    await expect(app.getByText(w.showing(sb.state.domains.length))).toBeVisible()
    const table = app.getByRole('table', { name: w.domains })
    const farOff = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10)
    const healthy = sb.state.domains.find((d) => d.expirationdate > farOff)!
    const row = table.getByRole('row', { name: new RegExp(healthy.domainname.replace(/\./g, '\\.')) })
    await expect(row).toBeVisible()
    // Every cell but the link's and the expiry's is in the table's own text colour.
    const colours = await row.evaluate((tr) => {
      const own = getComputedStyle(tr.closest('table')!).color
      return Array.from(tr.querySelectorAll('td'))
        .filter((td) => !td.querySelector('a, input, .expiry-lines'))
        .map((td) => ({ text: td.textContent?.trim() ?? '', same: getComputedStyle(td).color === own }))
    })
    expect(colours.length).toBeGreaterThan(0)
    expect(colours.filter((c) => !c.same)).toEqual([])
  })

  for (const size of [
    { width: 1024, height: 700 },
    { width: 1280, height: 800 },
  ])
    test(`Expiring soon never splits a name inside a label at ${size.width}x${size.height} (${lang})`, async ({
      app,
      harness,
    }) => {
      const w = WORDS[lang]
      await app.setViewportSize(size)
      await harness.demo()
      if (lang === 'ja') await reloadInLanguage(app, 'ja')
      await go(app, '#/expiring')
      await app.getByLabel(w.within).selectOption('365')
      const table = app.getByRole('table', { name: w.expiring })
      await expect(table.getByRole('row').nth(1)).toBeVisible()
      await expect(app.locator('.read-status')).toHaveCount(0)
      const split = await labelsSplitAcrossLines(table)
      expect(split).toEqual([])
      await expectNoAxeViolationsIn(app, 'main', `Expiring soon at ${size.width}`)
    })

  test(`Bulk DNS shows an account's whole badge in its zone table (${lang})`, async ({ app, harness }) => {
    const w = WORDS[lang]
    await app.setViewportSize({ width: 1024, height: 700 })
    await harness.demo()
    const other = await startSandbox({ seed: 7, keys: { full: 'key-badge' } })
    try {
      const name = 'Customer websites (main shop)'
      const created = await harness.services.accounts.create(
        { ...profileFor(other, name), colour: 'teal', environment: 'production' },
        'key-badge',
        'session',
      )
      await harness.services.accounts.setActive(created.id)
      if (lang === 'ja') await reloadInLanguage(app, 'ja')
      else await reloadApp(app)
      await go(app, '#/dns-bulk')
      await app.getByRole('button', { name: w.readLists }).click()
      const zones = app.getByRole('region', { name: w.zones })
      const marks = zones.getByRole('table').locator('.account-mark')
      await expect(marks.first()).toBeVisible()
      await expect(marks.first()).toContainText(name)
      await expect(marks.first()).toContainText(w.production, { ignoreCase: true })
      // Neither the name nor the tag is cut: each is as wide as its text, inside its cell.
      const cut = await marks.first().evaluate((mark) => {
        const cell = mark.closest('td')!.getBoundingClientRect()
        return Array.from(mark.children).flatMap((part) => {
          const box = part.getBoundingClientRect()
          const el = part instanceof HTMLElement ? part : undefined
          const clipped = !!el && el.scrollWidth > el.clientWidth + 1
          const outside = box.right > cell.right + 1 || box.left < cell.left - 1
          return clipped || outside ? [part.textContent ?? ''] : []
        })
      })
      expect(cut).toEqual([])
      await expectNoAxeViolationsIn(app, 'main', 'Bulk DNS zones with a long account name')
    } finally {
      await other.close()
    }
  })
}

/**
 * The names whose link text breaks inside a label: a label (the text between dots and hyphens)
 * whose characters sit on more than one line of the cell.
 */
async function labelsSplitAcrossLines(table: Locator): Promise<string[]> {
  return table.locator('tbody td a').evaluateAll((links) =>
    links.flatMap((a) => {
      const name = a.textContent ?? ''
      const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT)
      const tops: number[] = []
      const labelOf: number[] = []
      let label = 0
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? ''
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange()
          range.setStart(node, i)
          range.setEnd(node, i + 1)
          const rect = range.getClientRects()[0]
          if (rect) {
            tops.push(Math.round(rect.top))
            labelOf.push(label)
          }
          if (text[i] === '.' || text[i] === '-') label++
        }
      }
      // Within one label, every character on the line of its first.
      const first = new Map<number, number>()
      const split = tops.some((top, i) => {
        const l = labelOf[i]!
        if (!first.has(l)) first.set(l, top)
        return Math.abs(first.get(l)! - top) > 2
      })
      return split ? [name] : []
    }),
  )
}
