/**
 * The daily work, without friction: notices that belong to their screen, narrow windows, the
 * bulk actions before the table, the domain list's extra columns, one attention setting, a
 * domain's summary, and servers and service IPs flagged like domains.
 */
import type { Page } from '@playwright/test'
import { expect, reloadApp, reloadInLanguage, snap, test } from './fixtures'
import { parse } from '@shared/dns/records'

async function openDomains(app: Page) {
  await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'Domains' })).toBeVisible()
}

/**
 * Filters the list to one domain and opens it once its row has settled: the account-wide lists
 * arriving make its nameservers two lines, the row grows and its link moves under a click aimed a
 * moment before (seen on a loaded CI machine).
 */
async function openDomain(app: Page, d: { domainname: string; ns: string[] }) {
  await app.getByLabel('Filter', { exact: true }).fill(d.domainname)
  const row = app
    .getByRole('table', { name: 'Domains' })
    .getByRole('row', { name: new RegExp(d.domainname.replace(/\./g, '\\.')) })
  await expect(row).toContainText(d.ns[0]!)
  await expect(app.getByText(/of every domain \(\d+ of \d+ lists\)/)).toHaveCount(0)
  await app.getByRole('link', { name: d.domainname, exact: true }).click()
}

test('a notice belongs to its screen: it goes when the user moves on, by itself after a while, or when closed', async ({
  app,
  harness,
}) => {
  await harness.demo()
  // The window's clock is the test's: from here time moves only when the test moves it, so a
  // busy machine can neither let a notice go early nor keep an action's own navigation in time.
  await app.clock.install()
  await reloadApp(app)
  await app.getByRole('link', { name: 'Accounts & settings' }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'Accounts & settings' })).toBeVisible()
  await app.clock.pauseAt(await app.evaluate(() => Date.now() + 1000))
  const notices = app.locator('.notice')
  // Raise one (copying the diagnostics says so), then leave the screen: it does not follow.
  await app.getByRole('button', { name: 'Copy diagnostics' }).click()
  await expect(notices).toContainText('Diagnostics copied')
  // The user moves on later than an action's own navigation would (that one takes its notice along).
  await app.clock.runFor(2000)
  await openDomains(app)
  await expect(notices).toHaveCount(0)
  // By itself, after eight seconds and not before.
  await app.getByRole('link', { name: 'Accounts & settings' }).click()
  await app.getByRole('button', { name: 'Copy diagnostics' }).click()
  await expect(notices).toHaveCount(1)
  await app.clock.runFor(7900)
  await expect(notices).toHaveCount(1)
  await app.clock.runFor(200)
  await expect(notices).toHaveCount(0)
  // Or closed by hand; and it never covers the page (it is in the flow, not stuck over fields).
  await app.getByRole('button', { name: 'Copy diagnostics' }).click()
  expect(await notices.evaluate((el) => getComputedStyle(el).position)).toBe('static')
  await notices.getByRole('button', { name: 'Close' }).click()
  await expect(notices).toHaveCount(0)
})

test('a narrow window: the menu folds away, and the domain table keeps its columns readable', async ({
  app,
  harness,
}) => {
  await harness.demo()
  await app.setViewportSize({ width: 1024, height: 640 })
  await openDomains(app)
  const table = app.getByRole('table', { name: 'Domains' })
  await expect(table.getByRole('row').nth(1)).toBeVisible()
  // Every header shown is wide enough for its label: nothing is cut to a sliver.
  const widths = await table.locator('thead th').evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().width))
  expect(Math.min(...widths)).toBeGreaterThan(40)
  await snap(app, 'domains-1024')
  const toggle = app.getByRole('button', { name: 'Hide menu' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await toggle.click()
  await expect(app.getByRole('navigation', { name: 'Sections' })).toBeHidden()
  await expect(app.getByRole('button', { name: 'Show menu' })).toHaveAttribute('aria-expanded', 'false')
  // With the menu folded away, columns that gave way come back.
  await expect(table.getByRole('columnheader', { name: /Nameservers/ })).toBeVisible()
  await reloadApp(app)
  await expect(app.getByRole('button', { name: 'Show menu' })).toBeVisible()
  await app.getByRole('button', { name: 'Show menu' }).click()
  await expect(app.getByRole('navigation', { name: 'Sections' })).toBeVisible()

  // Japanese at the same size: the screen still reads.
  await reloadInLanguage(app, 'ja')
  await expect(app.getByRole('heading', { level: 1, name: 'ドメイン' })).toBeVisible()
  await expect(app.getByRole('table').getByRole('row').nth(1)).toBeVisible()
  await snap(app, 'domains-1024-ja')
})

test('the bulk actions come before the table: a few Tab presses from the filter, not after every row', async ({
  app,
  harness,
}) => {
  await harness.demo()
  await openDomains(app)
  // Nothing selected, the panel is one line saying how to start; a ticked domain opens its actions.
  await expect(app.getByText('Tick domains to renew them or set their auto-renewal.')).toBeVisible()
  await app
    .getByLabel(/^Select /)
    .first()
    .check()
  await app.getByLabel('Filter', { exact: true }).focus()
  let presses = 0
  for (; presses < 15; presses++) {
    await app.keyboard.press('Tab')
    if (await app.getByRole('toolbar', { name: /Bulk actions/ }).evaluate((el) => el.contains(document.activeElement)))
      break
  }
  expect(presses).toBeLessThan(10)
  await expect(app.getByRole('toolbar', { name: /Bulk actions/ })).toBeVisible()
})

test('domain list: nameservers, transfer lock, WHOIS privacy and DNSSEC from the account-wide lists, sortable and filterable', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  await openDomains(app)
  const table = app.getByRole('table', { name: 'Domains' })
  const d = [...sb.state.domains].sort((a, b) => a.domainname.localeCompare(b.domainname))[0]!
  const row = table.getByRole('row', { name: new RegExp(d.domainname.replace(/\./g, '\\.')) })
  await expect(row).toContainText(d.ns[0]!)
  await expect(row).toContainText(d.transfer_lock ? 'On' : 'Off')
  for (const list of [
    'domains.nameserver.list',
    'domains.transferlock.list',
    'domains.whois.list',
    'domains.dnssec.list',
  ]) {
    // Waited for, not checked at once: the account-wide lists are asked for once the window is
    // idle after its first paint, and a row can show one list's values before the last is asked for.
    await expect.poll(() => sb.received.some((r) => r.endpoint === list), { message: list }).toBe(true)
  }
  // Filter by a nameserver that only some domains use: asked for by name (`ns:`), as the filter's
  // placeholder says (issue 39: plain words match the name and the registrar only).
  const rare = sb.state.domains
    .flatMap((x) => x.ns)
    .find((ns) => sb.state.domains.filter((x) => x.ns.includes(ns)).length < sb.state.domains.length)!
  await app.getByLabel('Filter', { exact: true }).fill(`ns:${rare}`)
  const expected = sb.state.domains.filter((x) => x.ns.includes(rare)).length
  await expect(app.getByText(`Showing ${expected} of ${sb.state.domains.length}`)).toBeVisible()
  await app.getByLabel('Filter', { exact: true }).fill('')
  // Sort by transfer lock: the offs come first.
  await table.getByRole('button', { name: 'Sort by Transfer lock' }).click()
  await expect(table.getByRole('columnheader', { name: /Transfer lock/ })).toHaveAttribute('aria-sort', 'ascending')
  // The column by its header: which columns show depends on the table's width (issue 39).
  const lockColumn = await table
    .locator('thead th')
    .evaluateAll((ths) => ths.findIndex((th) => th.textContent?.includes('Transfer lock')))
  const locks = await table
    .locator('tbody tr:not(.spacer)')
    .evaluateAll((trs, i) => trs.map((tr) => tr.querySelectorAll('td')[i]?.textContent?.trim() ?? ''), lockColumn)
  expect(locks.filter(Boolean)).toEqual([...locks.filter(Boolean)].sort())
})

test('one attention setting for the domain list and "Expiring soon"', async ({ app, harness }) => {
  const sb = await harness.demo()
  await openDomains(app)
  await app.getByLabel('Expiring within (days)').selectOption('90')
  const within = (days: number) => {
    const today = new Date()
    return sb.state.domains.filter((d) => {
      const t = Date.UTC(
        Number(d.expirationdate.slice(0, 4)),
        Number(d.expirationdate.slice(5, 7)) - 1,
        Number(d.expirationdate.slice(8, 10)),
      )
      return (t - Date.UTC(today.getFullYear(), today.getMonth(), today.getDate())) / 86_400_000 <= days
    }).length
  }
  await expect(app.getByLabel(/Only expired or expiring within 90 days/)).toBeVisible()
  await expect(app.getByLabel(new RegExp(`within 90 days \\(${within(90)}\\)`))).toBeVisible()
  await app.getByRole('navigation').getByRole('link', { name: 'Expiring soon' }).click()
  await expect(app.getByLabel('Expiring within (days)')).toHaveValue('90')
  await reloadApp(app)
  await expect(app.getByLabel('Expiring within (days)')).toHaveValue('90')
})

test('a domain’s overview is a summary: status in words, days to expiry with Renew when near, DNSSEC and DNS record count', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const today = new Date().toISOString().slice(0, 10)
  const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10)
  const d = sb.state.domains.find((x) => x.expirationdate > today && x.expirationdate <= soon)!
  await openDomains(app)
  await openDomain(app, d)
  const panel = app.getByRole('tabpanel', { name: 'Overview' })
  await expect(panel).toContainText(/Expires in \d+ days/)
  await expect(panel).toContainText('DNSSEC')
  // What the service answers for its DNS, counted by the records model.
  const zone = await (await harness.services.accounts.client('demo')).call('domains.dns.get', { domain: d.domainname })
  const records = parse(zone.records).filter((r) => r.kind === 'record').length
  await expect(panel).toContainText(records === 1 ? '1 record' : `${records} records`)
  await snap(app, 'domain-overview-summary')
  await panel.getByRole('button', { name: 'Renew…' }).click()
  await expect(app.getByRole('tab', { name: 'Expiration' })).toHaveAttribute('aria-selected', 'true')
})

test('servers and service IPs are flagged like domains; paid and allocations read in words', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const today = new Date().toISOString().slice(0, 10)
  const expired = sb.state.servers.a.find((s) => s.expirationdate < today)!
  await app.getByRole('navigation').getByRole('link', { name: 'Web servers' }).click()
  const table = app.getByRole('table', { name: 'Web servers' })
  await expect(table.getByRole('row', { name: new RegExp(`\\b${expired.webname}\\b`) })).toContainText('Expired')
  await table.getByRole('link', { name: expired.webname, exact: true }).click()
  const details = app.getByRole('region', { name: 'Details' })
  await expect(details).toContainText('Expired')
  await expect(details).toContainText(expired.paid === '1' ? 'Yes' : 'No')
  await expect(details).not.toContainText(/Paid\s*1/)
  await expect(app.getByRole('region', { name: 'Resources' })).toContainText('Plan default')

  const svcip = sb.state.svcips[0]!
  await app.getByRole('navigation').getByRole('link', { name: 'Service IPs' }).click()
  const svcTable = app.getByRole('table', { name: 'Service IPs' })
  await expect(svcTable.getByRole('row').nth(1)).toBeVisible()
  const flagged = await svcTable.locator('tr.expired, tr.soon').count()
  const expectedFlagged = sb.state.svcips.filter(
    (v) => v.expirationdate <= new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
  ).length
  expect(flagged).toBe(expectedFlagged)
  expect(svcip.vipid).toBeDefined()
})

test('a tab whose read hangs says it is loading, then that it is slow; it can be cancelled and tried again', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = sb.state.domains[4]!
  await openDomains(app)
  await openDomain(app, d)
  // The overview reads DNSSEC too: hang the tab's own read, after the overview has its answer.
  await expect(app.getByRole('tabpanel', { name: 'Overview' })).toContainText(
    /DNS records\s*\d+ record|DNS records\s*none/,
  )
  // Its DNSSEC answer is read apart from the DNS one: not yet at the service, it took the hang instead of the tab.
  await expect(app.getByRole('tabpanel', { name: 'Overview' })).toContainText(/DNSSEC\s*(Off|On \(\d+ DS\))/)
  sb.faults.inject('domains.dnssec.get', { hang: true, times: 1 })
  await app.getByRole('tab', { name: 'DNSSEC', exact: true }).click()
  const panel = app.getByRole('tabpanel', { name: 'DNSSEC' })
  await expect(panel.getByRole('status')).toContainText('Loading…')
  await expect(panel.getByRole('status')).toContainText('This is taking longer than usual.', { timeout: 8000 })
  await panel.getByRole('button', { name: 'Cancel' }).click()
  await expect(panel.getByRole('alert')).toContainText('cancelled')
  await panel.getByRole('button', { name: 'Retry' }).click()
  await expect(panel.getByRole('status')).toHaveCount(0)
  await expect(panel.getByRole('alert')).toHaveCount(0)
})

test('the domain overview and Expiring soon at 1024x640, in English and Japanese', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = sb.state.domains[2]!
  await app.setViewportSize({ width: 1024, height: 640 })
  for (const locale of ['en', 'ja'] as const) {
    await app.evaluate((l) => localStorage.setItem('hosting-admin.locale', l), locale)
    await app.goto(`${harness.url}#/domains/${d.domainname}`)
    await reloadApp(app)
    const overview = app.getByRole('tabpanel')
    await expect(overview).toContainText(d.registrar)
    await expect(overview).toContainText(locale === 'en' ? 'DNS records' : 'DNSレコード')
    await snap(app, `domain-overview-1024-${locale}`)
    await app.evaluate(() => (location.hash = '#/expiring'))
    await expect(app.getByRole('table')).toBeVisible()
    await expect(app.locator('.read-status')).toHaveCount(0)
    await snap(app, `expiring-1024-${locale}`)
  }
})

test('a tab filled from its read is filled by a retry too: nameservers after a cancelled read', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = sb.state.domains[5]!
  await openDomains(app)
  await openDomain(app, d)
  await expect(app.getByRole('tabpanel', { name: 'Overview' })).toContainText(d.ns[0]!)
  sb.faults.inject('domains.nameserver.get', { hang: true, times: 1 })
  await app.getByRole('tab', { name: 'Nameservers', exact: true }).click()
  const panel = app.getByRole('tabpanel', { name: 'Nameservers' })
  await panel.getByRole('button', { name: 'Cancel' }).click()
  await panel.getByRole('button', { name: 'Retry' }).click()
  await expect(panel.getByRole('textbox').first()).toHaveValue(d.ns.join('\n'))
})
