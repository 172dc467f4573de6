/**
 * Issue 39, point 6: the Writes screen says what each write touched, in English and Japanese, at
 * 1280x800 and 1024x700: domains by name, linked to their page; a server sent by its id named as
 * the Servers screen names it (its name and its kind), linked to its page; six domains summarised
 * as two and "4 more", which opens the write with every one of them; and the Account and Time
 * columns whole (no cell holds more than it shows).
 */
import type { Page } from '@playwright/test'
import type { Harness } from '../../support/harness'
import { expect, reloadInLanguage, test } from './fixtures'

const WORDS = {
  en: {
    writes: 'Writes',
    servers: 'Web servers',
    more: 'and 4 more',
    domainsOp: 'Set auto-renewal',
    serverOp: 'Set a server’s auto-renewal',
    account: 'Account',
    time: 'Time',
  },
  ja: {
    writes: '書き込み',
    servers: 'Webサーバー',
    more: 'ほか 4 件',
    domainsOp: '自動更新の設定',
    serverOp: 'サーバーの自動更新設定',
    account: 'アカウント',
    time: '日時',
  },
} as const

async function write(harness: Harness, req: Parameters<Harness['services']['jobs']['prepare']>[0]) {
  const { job, token } = await harness.services.jobs.prepare(req)
  await harness.services.jobs.start(job.id, token)
}

/** Cells of the Writes list that hold more than they show. */
const cutCells = (app: Page) =>
  app
    .locator('main table')
    .first()
    .evaluate((table) =>
      Array.from(table.querySelectorAll<HTMLElement>('td, th'))
        .filter((c) => c.scrollWidth > c.clientWidth + 1)
        .map((c) => c.textContent?.trim()),
    )

for (const lang of ['en', 'ja'] as const) {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 700 },
  ] as const) {
    test(`Writes names what each write touched, whole, at ${size.width}x${size.height} (${lang})`, async ({
      app,
      harness,
    }) => {
      const w = WORDS[lang]
      await app.setViewportSize(size)
      const sb = await harness.demo()
      const server = sb.state.servers.a[2]!
      const domains = [...sb.state.domains]
        .map((d) => d.domainname)
        .sort()
        .slice(0, 6)
      await write(harness, {
        accountId: 'demo',
        operation: 'domains.autorenew.set',
        items: domains.map((domain) => ({ params: { domain, autorenew_domain: 1 } })),
      })
      // Sent by the server's id, as the command line and old links do.
      await write(harness, {
        accountId: 'demo',
        operation: 'servers.autorenew.set',
        items: [{ params: { kind: 'a', webid: server.webid, autorenew_server: 1 } }],
      })

      await reloadInLanguage(app, lang)
      // The first screen is the web servers' list: once it shows the server, the app has the list stored.
      await expect(app.getByRole('link', { name: server.webname, exact: true })).toBeVisible()
      await app
        .getByRole('navigation')
        .getByRole('link', { name: new RegExp(`^${w.writes}`) })
        .click()
      await expect(app.getByRole('heading', { level: 1, name: w.writes })).toBeVisible()

      const serverRow = app.getByRole('row').filter({ hasText: w.serverOp })
      const serverLink = serverRow.getByRole('link', {
        name: lang === 'en' ? `${server.webname} (${w.servers})` : `${server.webname}(${w.servers})`,
      })
      await expect(serverLink).toHaveAttribute('href', `#/servers/a/${server.webname}`)
      await expect(serverRow).not.toContainText(String(server.webid))

      const domainsRow = app.getByRole('row').filter({ hasText: w.domainsOp })
      for (const d of domains.slice(0, 2))
        await expect(domainsRow.getByRole('link', { name: d, exact: true })).toHaveAttribute('href', `#/domains/${d}`)
      for (const d of domains.slice(2)) await expect(domainsRow).not.toContainText(d)
      await expect.poll(() => cutCells(app)).toEqual([])

      // "4 more" opens the write, which names every domain, each linked to its page.
      await domainsRow.getByRole('link', { name: w.more }).click()
      const panel = app.locator('.job-panel')
      await expect(panel.getByRole('heading', { level: 2 })).toContainText(w.domainsOp)
      for (const d of domains)
        await expect(panel.getByRole('link', { name: d, exact: true })).toHaveAttribute('href', `#/domains/${d}`)

      // A target's link goes to its screen.
      await domainsRow.getByRole('link', { name: domains[0]!, exact: true }).click()
      await expect(app.getByRole('heading', { level: 1, name: domains[0]! })).toBeVisible()
    })
  }
}
