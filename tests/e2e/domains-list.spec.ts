/**
 * The domain list: all pages, filter, sort, expiry highlighting, bulk renew and
 * auto-renewal with per-domain results, and CSV export; its detail lists read once the stored list came whole.
 */
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, reloadApp, snap, test } from './fixtures'
import { expectNoAxeViolations } from './axe'
import { z } from 'zod'
import { sentBody } from '../helpers/sent-body'

async function openDomains(app: Page) {
  await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'Domains' })).toBeVisible()
}

test('reads every domain, filters as you type, sorts, and flags expired and expiring ones', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  await openDomains(app)
  const table = app.getByRole('table', { name: 'Domains' })
  await expect(app.getByText(`Showing ${sb.state.domains.length} of ${sb.state.domains.length}`)).toBeVisible()
  await expectNoAxeViolations(app, 'domains')

  const expired = sb.state.domains.find((d) => d.expirationdate < new Date().toISOString().slice(0, 10))!
  await app.getByLabel('Filter').fill(expired.domainname)
  await expect(table.getByRole('row')).toHaveCount(2)
  await expect(table.getByRole('row').nth(1)).toContainText('Expired')

  await app.getByLabel('Filter').fill('')
  await app.getByLabel(/Only expired or expiring within 30 days/).check()
  const attention = sb.state.domains.filter((d) => {
    const days = (Date.parse(d.expirationdate) - Date.parse(new Date().toISOString().slice(0, 10))) / 86_400_000
    return days <= 30
  })
  await expect(app.getByText(`Showing ${attention.length} of ${sb.state.domains.length}`)).toBeVisible()
  await snap(app, 'domains-attention')
  await app.getByLabel(/Only expired or expiring/).uncheck()

  await app.getByRole('button', { name: 'Sort by Expiration date' }).click()
  const earliest = [...sb.state.domains].sort((a, b) => a.expirationdate.localeCompare(b.expirationdate))[0]!
  await expect(table.getByRole('row').nth(1)).toContainText(earliest.domainname)
  await expect(app.getByRole('columnheader', { name: /Expiration date/ })).toHaveAttribute('aria-sort', 'ascending')
})

test('bulk renew: one request per domain, a failure reported with its request ID and never retried', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const names = [...sb.state.domains]
    .map((d) => d.domainname)
    .sort()
    .slice(0, 3)
  const before = Object.fromEntries(
    names.map((n) => [n, sb.state.domains.find((d) => d.domainname === n)!.expirationdate]),
  )
  await openDomains(app)
  for (const n of names) await app.getByLabel(`Select ${n}`).check()
  await expect(app.getByRole('heading', { name: 'Bulk actions (3 selected)' })).toBeVisible()
  await app.getByLabel('Years').selectOption('2')
  sb.faults.inject('domains.expiration.renew', { status: 500, times: 1 })
  await app.getByRole('button', { name: 'Renew 3 domains…' }).click()
  const dialog = app.getByRole('dialog')
  await expect(dialog).toContainText('Renew 3 domains by 2 years each:')
  // The confirmation names each domain to be charged, once (its list of items).
  for (const n of names) await expect(dialog.getByRole('listitem').filter({ hasText: n })).toHaveCount(1)
  await dialog.getByRole('button', { name: 'Renew 3 domains' }).click()

  await expect(app.getByRole('heading', { name: 'Results: 2 done, 1 failed' })).toBeVisible()
  const renewals = sb.received.filter((r) => r.endpoint === 'domains.expiration.renew')
  expect(renewals).toHaveLength(3)
  expect(renewals.map((r) => sentBody(r, z.object({ domain: z.string() })).domain).sort()).toEqual(names)
  expect(renewals.every((r) => sentBody(r, z.object({ years: z.number() })).years === 2)).toBe(true)
  const failed = renewals.find((r) => r.status === 500)!
  const failedName = sentBody(failed, z.object({ domain: z.string() })).domain
  const failedRow = app
    .getByRole('row', { name: new RegExp(failedName.replace(/\./g, '\\.')) })
    .filter({ hasText: 'Failed' })
  await expect(failedRow).toContainText('Internal Server Error')
  await expect(failedRow.getByRole('link', { name: /^req-/ })).toBeVisible()
  for (const n of names) {
    const now = sb.state.domains.find((d) => d.domainname === n)!.expirationdate
    if (n === failedName) expect(now).toBe(before[n])
    else expect(now > before[n]!).toBe(true)
  }
  await snap(app, 'domains-bulk-results')

  // The results can be exported.
  const download = app.waitForEvent('download')
  await app.getByRole('button', { name: 'Export results (CSV)' }).click()
  const csv = readFileSync((await (await download).path())!, 'utf8')
  expect(csv).toContain(`${failedName},Failed,Internal Server Error,req-`)
  expect(csv.split('\r\n').filter(Boolean)).toHaveLength(4)
})

test('bulk auto-renewal and CSV export of the list', async ({ app, harness }) => {
  const sb = await harness.demo()
  const names = [...sb.state.domains]
    .map((d) => d.domainname)
    .sort()
    .slice(3, 5)
  await openDomains(app)
  for (const n of names) await app.getByLabel(`Select ${n}`).check()
  await app.getByLabel('Turn auto-renewal on (off when unchecked)').uncheck()
  await app.getByRole('button', { name: 'Set auto-renewal…' }).click()
  await expect(app.getByRole('dialog')).toContainText('Turn off the own auto-renewal setting of 2 domains.')
  await app.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click()
  await expect(app.getByRole('heading', { name: 'Results: 2 done, 0 failed' })).toBeVisible()
  const sets = sb.received.filter((r) => r.endpoint === 'domains.autorenew.set')
  expect(sets.map((r) => r.path).sort()).toEqual(names.map((n) => `/v1/domains/${n}/autorenew`).sort())
  expect(sets.every((r) => sentBody(r, z.object({ autorenew_domain: z.number() })).autorenew_domain === 0)).toBe(true)

  await app.getByLabel('Filter').fill(names[0]!)
  const download = app.waitForEvent('download')
  await app.getByRole('button', { name: 'Export CSV' }).click()
  const csv = readFileSync((await (await download).path())!, 'utf8')
  const lines = csv
    .replace(/^\ufeff/, '')
    .split('\r\n')
    .filter(Boolean)
  expect(lines[0]).toBe('domainid,domainname,registrar,expirationdate,autorenew,autorenew_all,autorenew_domain')
  expect(lines).toHaveLength(2)
  expect(lines[1]).toContain(names[0]!)
})

test.describe('a stored domain list of several parts', () => {
  // 4,500 domains: three parts of the stored list (STORED_FIRST_PART_SIZE 500, then STORED_PART_SIZE 2,000).
  test.use({ harnessOptions: { demo: { domains: 4500 } } })

  test('its detail lists are asked for once its last part came, not between its parts', async ({ app, harness }) => {
    const sb = await harness.demo()
    const count = `Showing ${sb.state.domains.length} of ${sb.state.domains.length}`
    const named = z.object({ name: z.string(), part: z.number().optional(), from: z.string().optional() })
    const details = ['domains.nameserver.list', 'domains.transferlock.list', 'domains.dnssec.list']
    const isDetail = (c: { channel: string; payload: unknown }) =>
      c.channel === 'details.whoisPrivacy' ||
      (c.channel === 'store.list' && details.includes(named.safeParse(c.payload).data?.name ?? ''))
    // Read afresh in full, which stores the domain list and its detail lists.
    await openDomains(app)
    await expect(app.getByText(count)).toBeVisible()
    await expect
      .poll(() => harness.windowCalls.filter((c) => isDetail(c) && c.answered).length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(details.length + 1)
    // Every detail list in, not only every call asked so far answered: a list read in parts asks its next part
    // after the one before it came, so a moment with every call answered can fall between two parts (and that
    // next part then counted as the reloaded window's first call).
    await expect(app.locator('.read-status')).toHaveCount(0, { timeout: 30_000 })
    await expect.poll(() => harness.windowCalls.every((c) => c.answered), { timeout: 30_000 }).toBe(true)

    const since = harness.windowCalls.length
    await reloadApp(app)
    await openDomains(app)
    await expect(app.getByText(count)).toBeVisible()
    const calls = () => harness.windowCalls.slice(since)
    await expect
      .poll(() => calls().filter(isDetail).length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(details.length + 1)
    // The stored list's parts, each asked once the one before it came; then the list is read afresh (its first
    // part from the service, its others cut from what that read kept), whose parts are not the stored list's.
    const isDomainPart = (c: { channel: string; payload: unknown }) =>
      c.channel === 'store.list' && named.safeParse(c.payload).data?.name === 'domains.list'
    const fresh = calls().findIndex((c) => isDomainPart(c) && named.safeParse(c.payload).data?.from === 'service')
    const storedParts = calls()
      .slice(0, fresh === -1 ? undefined : fresh)
      .flatMap((c, i) => (isDomainPart(c) ? [{ i, part: named.safeParse(c.payload).data?.part }] : []))
    expect(storedParts.map((p) => p.part)).toEqual([0, 1, 2])
    const firstDetail = calls().findIndex(isDetail)
    expect(firstDetail).toBeGreaterThan(storedParts.at(-1)!.i)
  })
})

test.describe('a domain list longer than one sort step', () => {
  // Over ONE_SORT_UP_TO (16,384) rows: the table sorts in slices and the count of what needs attention is worked
  // out in slices once the list has painted.
  test.use({ harnessOptions: { demo: { domains: 17_000 } } })

  test('says how many need attention among the whole list, read afresh and painted from the store', async ({
    app,
    harness,
  }) => {
    const sb = await harness.demo()
    const total = sb.state.domains.length
    const today = Date.parse(new Date().toISOString().slice(0, 10))
    const attention = sb.state.domains.filter((d) => (Date.parse(d.expirationdate) - today) / 86_400_000 <= 30).length
    expect(attention).toBeGreaterThan(0)
    const label = `Only expired or expiring within 30 days (${attention})`
    await openDomains(app)
    await expect(app.getByText(`Showing ${total} of ${total}`)).toBeVisible({ timeout: 60_000 })
    await expect(app.getByRole('checkbox', { name: label })).toBeVisible()

    await reloadApp(app)
    await openDomains(app)
    await expect(app.getByText(`Showing ${total} of ${total}`)).toBeVisible({ timeout: 60_000 })
    await expect(app.getByRole('checkbox', { name: label })).toBeVisible()
    await app.getByRole('checkbox', { name: label }).check()
    await expect(app.getByText(`Showing ${attention} of ${total}`)).toBeVisible()
  })
})

test.describe('a domain list longer than the rows it draws', () => {
  // Over DataTable's RENDER_ALL_UP_TO (200): only the rows in view are drawn, each one kept while it stays in view
  // and what it shows stays the same (issue 54), drawn again when that changes.
  test.use({ harnessOptions: { demo: { domains: 1000 } } })

  test('a row scrolled out of view and back is drawn as its own: its selection, its flag, its detail columns', async ({
    app,
    harness,
  }) => {
    const sb = await harness.demo()
    const total = sb.state.domains.length
    await openDomains(app)
    await expect(app.getByText(`Showing ${total} of ${total}`)).toBeVisible()
    const table = app.getByRole('table', { name: 'Domains' })
    const first = (await table.getByRole('row').nth(1).getByRole('link').textContent()) ?? ''
    const firstDomain = sb.state.domains.find((d) => d.domainname === first)
    expect(firstDomain).toBeDefined()
    // Drawn before the detail lists came, and drawn again when they did.
    const firstRow = table.getByRole('row').filter({ has: app.getByRole('link', { name: first, exact: true }) })
    await expect(firstRow).toContainText(firstDomain!.ns[0]!, { timeout: 30_000 })

    const select = app.getByRole('checkbox', { name: `Select ${first}`, exact: true })
    await select.check()
    const scroller = table.locator('xpath=..')
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight))
    await expect(select).toHaveCount(0)
    await expect(table.getByRole('row').last()).toHaveAttribute('aria-rowindex', String(total + 1))

    /** Each drawn row's domain, its checkbox's name and state, and its text. */
    const drawnRows = () =>
      table.locator('tbody tr:not(.spacer)').evaluateAll((trs) =>
        trs.map((tr) => ({
          name: tr.querySelector('a')?.textContent ?? '',
          label: tr.querySelector('input')?.getAttribute('aria-label') ?? '',
          checked: tr.querySelector('input')?.checked ?? false,
          text: tr.textContent ?? '',
        })),
      )
    const today = new Date().toISOString().slice(0, 10)
    const inAMonth = new Date(Date.now() + 32 * 86_400_000).toISOString().slice(0, 10)
    const expectOwn = (drawn: Awaited<ReturnType<typeof drawnRows>>, selected: string | undefined) => {
      expect(drawn.length).toBeGreaterThan(5)
      for (const row of drawn) {
        const domain = sb.state.domains.find((d) => d.domainname === row.name)
        expect(domain, row.name).toBeDefined()
        expect(row.label).toBe(`Select ${row.name}`)
        expect(row.checked, row.name).toBe(row.name === selected)
        expect(row.text).toContain(domain!.ns[0]!)
        if (domain!.expirationdate < today) expect(row.text, row.name).toContain('Expired')
        if (domain!.expirationdate > inAMonth) expect(row.text, row.name).not.toMatch(/Expired|Expires in/)
      }
    }
    expectOwn(await drawnRows(), first)

    await scroller.evaluate((el) => (el.scrollTop = 0))
    await expect(select).toBeChecked()
    expectOwn(await drawnRows(), first)
    await select.uncheck()
    await expect(select).not.toBeChecked()
    expectOwn(await drawnRows(), undefined)
  })
})
