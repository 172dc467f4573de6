/**
 * The "Expiring soon" overview reads every account at once.
 */
import { startSandbox } from '../../src/sandbox'
import { expect, reloadApp, snap, test } from './fixtures'
import { expectNoAxeViolations } from './axe'
import { profileFor } from '../../support/profile'
import { z } from 'zod'
import { sentBody } from '../helpers/sent-body'

test('domains, servers and svcips of every account, by date; an unreadable account is reported', async ({
  app,
  harness,
}) => {
  const demo = await harness.demo()
  const other = await startSandbox({ seed: 99 })
  try {
    const fields = (name: string) => profileFor(other, name)
    await harness.services.accounts.create(fields('Second'), other.keys.full, 'session')
    await harness.services.accounts.create(fields('Broken'), 'not-the-key', 'session')
    await harness.services.accounts.setActive('demo')
    await reloadApp(app)

    await app.getByRole('navigation').getByRole('link', { name: 'Expiring soon' }).click()
    // The one attention setting, shared with the domain list: a year ahead.
    await app.getByLabel('Expiring within (days)').selectOption('365')
    const table = app.getByRole('table', { name: 'Expiring soon' })
    const today = new Date().toISOString().slice(0, 10)
    const soonDemo = demo.state.domains.find(
      (d) =>
        d.expirationdate > today &&
        d.expirationdate <= new Date(Date.now() + 25 * 86_400_000).toISOString().slice(0, 10),
    )!
    const soonOther = other.state.domains.find((d) => d.expirationdate < today)!
    await expect(table.getByRole('row', { name: new RegExp(soonDemo.domainname.replace(/\./g, '\\.')) })).toContainText(
      'Demo (local sandbox)',
    )
    await expect(
      table.getByRole('row', { name: new RegExp(soonOther.domainname.replace(/\./g, '\\.')) }),
    ).toContainText('Second')
    await expect(
      table.getByRole('row', { name: new RegExp(soonOther.domainname.replace(/\./g, '\\.')) }),
    ).toContainText('Expired')
    await expect(table).toContainText('Service IPs')
    await expect(app.getByText('The account “Broken” could not be read:')).toBeVisible()
    await expect(app.getByRole('alert').filter({ hasText: 'The API key was not accepted' })).toBeVisible()
    // Sorted by date: the first row is the most overdue.
    const when = (await table.locator('tbody tr').allInnerTexts()).map(
      (row) => /Expired|Expires in \d+ days?/.exec(row)?.[0] ?? '',
    )
    expect(when[0]).toBe('Expired')
    expect(when.at(-1)).toMatch(/^Expires in \d+ days$/)
    const lastExpired = when.lastIndexOf('Expired')
    expect(when.slice(0, lastExpired + 1).every((w) => w === 'Expired')).toBe(true)
    await snap(app, 'expiring-soon')
    await expectNoAxeViolations(app, 'expiring')
  } finally {
    await other.close()
  }
})

test('one failing part is reported for its account with a retry of its own; the rest of the account still shows', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  sb.faults.inject('svcips.expiration.list', { status: 500, times: 1 })
  await app.getByRole('navigation').getByRole('link', { name: 'Expiring soon' }).click()
  await app.getByLabel('Expiring within (days)').selectOption('365')
  const table = app.getByRole('table', { name: 'Expiring soon' })
  await expect(
    app.getByText('“Demo (local sandbox)”: Service IPs could not be read. Everything else is shown.'),
  ).toBeVisible()
  await expect(table).toContainText('Domains')
  await expect(table).not.toContainText('Service IPs')
  await app.getByRole('alert').getByRole('button', { name: 'Retry' }).click()
  await expect(table).toContainText('Service IPs')
  await expect(app.getByText('Service IPs could not be read')).toHaveCount(0)
})

test('filter by account and type; a row of another account opens in that account; the selection is renewed through a confirmed job', async ({
  app,
  harness,
}) => {
  const demo = await harness.demo()
  const other = await startSandbox({ seed: 99 })
  try {
    const second = await harness.services.accounts.create(profileFor(other, 'Second'), other.keys.full, 'session')
    await harness.services.accounts.setActive('demo')
    await reloadApp(app)
    await app.getByRole('navigation').getByRole('link', { name: 'Expiring soon' }).click()
    await app.getByLabel('Expiring within (days)').selectOption('365')
    const table = app.getByRole('table', { name: 'Expiring soon' })
    await expect(table).toContainText('Second')

    // Filters.
    await app.getByLabel('Account to show').selectOption({ label: 'Second' })
    await expect(table).not.toContainText('Demo (local sandbox)')
    await app.getByLabel('Type to show').selectOption({ label: 'Domains' })
    const rows = await table.locator('tbody tr').allInnerTexts()
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.every((r) => r.includes('Domains') && r.includes('Second'))).toBe(true)

    // Renew two domains of the other account: one job of that account, confirmed, sent to its sandbox.
    const names = (await table.locator('tbody tr').getByRole('link').allTextContents()).slice(0, 2)
    for (const n of names) await app.getByLabel(`Select ${n}`).click()
    await app.getByRole('button', { name: 'Renew 2 selected…' }).click()
    const dialog = app.getByRole('dialog')
    await expect(dialog).toContainText('Renew 2 items of the account “Second” by 1 year')
    await expect(dialog).toContainText('Second')
    await dialog.getByRole('button', { name: 'Renew' }).click()
    await expect(app.getByRole('status').filter({ hasText: '2 items renewed.' })).toBeVisible()
    const renewals = other.received.filter((r) => r.endpoint === 'domains.expiration.renew')
    expect(renewals.map((r) => sentBody(r, z.object({ domain: z.string() })).domain).sort()).toEqual([...names].sort())
    expect(demo.received.filter((r) => r.endpoint === 'domains.expiration.renew')).toEqual([])

    // A row of the other account opens there, after switching to it.
    await app.getByLabel('Type to show').selectOption({ label: 'Domains' })
    const first = (await table.locator('tbody tr').getByRole('link').first().textContent()) ?? ''
    await table.getByRole('link', { name: first }).click()
    await expect(app.getByRole('heading', { level: 1, name: first })).toBeVisible()
    await expect(app.getByLabel('Account', { exact: true })).toHaveValue(second.id)
    await expect(app.getByRole('status').filter({ hasText: 'Switched to the account “Second”.' })).toBeVisible()
  } finally {
    await other.close()
  }
})
