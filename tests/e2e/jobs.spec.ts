/**
 * Money and ownership, end to end: a bulk renewal confirmed on one account goes to that account
 * only, with the confirmed years, whatever the user does in the window meanwhile; a reload or a
 * quit loses no record of what was sent; a lost answer is "outcome unknown", checked in the
 * service's log, and not sent twice; quitting while writes run asks first.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { installBridge, startHarness } from '../../support/harness'
import { profileFor } from '../../support/profile'
import { expect, reloadApp, snap, test } from './fixtures'
import { expectNoAxeViolations } from './axe'
import { z } from 'zod'
import { sentBody } from '../helpers/sent-body'
import { firstItems } from '../helpers/first-items'

const renewals = (sb: Sandbox) => sb.received.filter((r) => r.endpoint === 'domains.expiration.renew')

async function openDomains(app: Page) {
  await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'Domains' })).toBeVisible()
  await expect(app.getByText(/Showing \d+ of \d+/)).toBeVisible()
}

async function renewSelected(app: Page, names: string[], years: number) {
  for (const n of names) await app.getByLabel(`Select ${n}`).check()
  await app.getByLabel('Years').selectOption(String(years))
  await app.getByRole('button', { name: `Renew ${names.length} domains…` }).click()
  return app.getByRole('dialog')
}

test('a bulk renewal confirmed on one account goes there only, with the confirmed years, while the user switches account and changes the years', async ({
  app,
  harness,
}) => {
  const a = await harness.demo()
  // The second account's sandbox is seeded like the first: the same domain names in both.
  const b = await startSandbox({ keys: { full: 'key-of-b' } })
  try {
    const second = await harness.services.accounts.create(profileFor(b, 'Second'), 'key-of-b', 'session')
    // The first account added becomes the active one; the renewal starts on the demo account.
    await harness.services.accounts.setActive('demo')
    await reloadApp(app)
    const names = [...a.state.domains]
      .map((d) => d.domainname)
      .sort()
      .slice(0, 12)
    expect(names.every((n) => b.state.domains.some((d) => d.domainname === n))).toBe(true)
    const before = Object.fromEntries(
      names.map((n) => [n, a.state.domains.find((d) => d.domainname === n)!.expirationdate]),
    )

    await openDomains(app)
    // A's renewals are held at its sandbox until the user is done: the job is running throughout.
    a.faults.inject('domains.expiration.renew', { hold: true })
    const dialog = await renewSelected(app, names, 2)
    await expect(dialog).toContainText('Account: Demo (local sandbox)')
    await expect(dialog).toContainText('Renew 12 domains by 2 years each:')
    // Each domain's own dates, as main read them for this confirmation.
    const first = names[0]!
    await expect(dialog.getByRole('listitem').filter({ hasText: first })).toContainText(/expires .+ now, .+ after/)
    await snap(app, 'jobs-confirm-bulk')
    await dialog.getByRole('button', { name: 'Renew 12 domains' }).click()
    await expect.poll(() => a.faults.held()).toBeGreaterThan(0)

    // While A's job runs: switch to B and change the years there.
    await app.getByLabel('Account').selectOption({ label: 'Second' })
    await expect(app.getByLabel('Account')).toHaveValue(second.id)
    await openDomains(app)
    // The bulk actions open once a domain is ticked.
    await app
      .getByLabel(/^Select /)
      .first()
      .check()
    await app.getByLabel('Years').selectOption('5')
    // All this happened while A's renewals were still on their way.
    expect(renewals(a).filter((r) => r.status === 200).length).toBeLessThan(12)
    expect(a.faults.held()).toBeGreaterThan(0)
    a.faults.clear()
    await expect.poll(() => renewals(a).filter((r) => r.status === 200).length, { timeout: 20_000 }).toBe(12)

    // A received exactly 12 renewals of the confirmed 2 years; B received nothing.
    expect(renewals(a)).toHaveLength(12)
    expect(
      renewals(a)
        .map((r) => sentBody(r, z.object({ domain: z.string() })).domain)
        .sort(),
    ).toEqual(names)
    expect(renewals(a).every((r) => sentBody(r, z.object({ years: z.number() })).years === 2)).toBe(true)
    expect(renewals(b)).toHaveLength(0)
    for (const n of names)
      expect(Number(a.state.domains.find((d) => d.domainname === n)!.expirationdate.slice(0, 4))).toBe(
        Number(before[n]!.slice(0, 4)) + 2,
      )

    // And the results say so, on A's screen and on the Writes screen.
    await app.getByLabel('Account').selectOption({ label: 'Demo (local sandbox)' })
    await openDomains(app)
    await expect(app.getByRole('heading', { name: 'Results: 12 done, 0 failed' })).toBeVisible()
    await expect(app.getByRole('heading', { name: 'Renew domains · Demo (local sandbox)' })).toBeVisible()
    // Renewed domains left the selection: the next click cannot charge them again.
    await expect(app.getByRole('heading', { name: 'Bulk actions (0 selected)' })).toBeVisible()
    await app
      .getByRole('navigation')
      .getByRole('link', { name: /^Writes/ })
      .click()
    const row = app.getByRole('row', { name: /Renew domains/ }).first()
    await expect(row).toContainText('Demo (local sandbox)')
    await expect(row).toContainText('Results: 12 done, 0 failed')
    await expectNoAxeViolations(app, 'jobs')
  } finally {
    await b.close()
  }
})

test('a reload in the middle of a bulk job changes nothing: it runs on in main and its results are there', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const names = [...sb.state.domains]
    .map((d) => d.domainname)
    .sort()
    .slice(12, 21)
  await openDomains(app)
  // The renewals wait at the sandbox; one is let through before the reload, the rest after it.
  sb.faults.inject('domains.expiration.renew', { hold: true })
  await (await renewSelected(app, names, 1)).getByRole('button', { name: 'Renew 9 domains' }).click()
  await expect.poll(() => sb.faults.held()).toBeGreaterThan(0)
  sb.faults.release(1)
  await expect.poll(() => renewals(sb).filter((r) => r.status === 200).length, { timeout: 10_000 }).toBeGreaterThan(0)
  await reloadApp(app)
  await expect(app.getByRole('heading', { level: 1 })).toBeVisible()
  expect(renewals(sb).filter((r) => r.status === 200).length).toBeLessThan(9)
  sb.faults.clear()
  await app
    .getByRole('navigation')
    .getByRole('link', { name: /^Writes/ })
    .click()
  await app.getByRole('link', { name: 'Renew domains' }).first().click()
  await expect(app.getByRole('heading', { name: 'Results: 9 done, 0 failed' })).toBeVisible({ timeout: 20_000 })
  await expectNoAxeViolations(app, 'job detail')
  expect(renewals(sb)).toHaveLength(9)
})

test('a quit in the middle of a bulk job: at the next start the journal shows what was done, what was cut off and what was never sent', async ({
  browser,
}) => {
  const sb = await startSandbox({ keys: { full: 'key-q' } })
  const userDataDir = mkdtempSync(join(tmpdir(), 'e2e-quit-'))
  // Stands for the keychain, which outlives the app.
  const keychain = new SessionSecretStore()
  const first = await startHarness({ userDataDir, keychain })
  let accountId = ''
  try {
    const acct = await first.services.accounts.create(profileFor(sb, 'Production'), 'key-q', 'keychain')
    accountId = acct.id
    await first.services.accounts.setActive(acct.id)
    const page = await browser.newPage()
    await page.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
    await installBridge(page, first)
    await page.goto(first.url)
    const names = [...sb.state.domains]
      .map((d) => d.domainname)
      .sort()
      .slice(0, 9)
    await openDomains(page)
    // The first three renewals answer; the three sent after them are held until the quit cuts
    // them off; the last three are never sent.
    sb.faults.inject('domains.expiration.renew', { hold: true })
    await (await renewSelected(page, names, 1)).getByRole('button', { name: 'Renew 9 domains' }).click()
    await expect.poll(() => sb.faults.held(), { timeout: 10_000 }).toBe(3)
    sb.faults.release(3)
    await expect
      .poll(() => renewals(sb).filter((r) => r.status === 200).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(3)
    await expect.poll(() => sb.faults.held(), { timeout: 10_000 }).toBe(3)
    await page.close()
    await first.close()
  } catch (err) {
    await first.close()
    throw err
  }

  sb.faults.clear()
  // The harness's cleanup took the key out of the stand-in keychain; a real keychain keeps it.
  await keychain.set(accountId, 'key-q')
  const second = await startHarness({ userDataDir, keychain })
  try {
    const page = await browser.newPage()
    await page.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
    await installBridge(page, second)
    await page.goto(second.url)
    await page
      .getByRole('navigation')
      .getByRole('link', { name: /^Writes/ })
      .click()
    await expect(page.getByRole('row', { name: /Renew domains/ }).first()).toContainText(
      'Interrupted: the app was closed',
    )
    await page.getByRole('link', { name: 'Renew domains' }).first().click()
    const received = new Set(renewals(sb).map((r) => sentBody(r, z.object({ domain: z.string() })).domain))
    const answered = new Set(
      renewals(sb)
        .filter((r) => r.status === 200)
        .map((r) => sentBody(r, z.object({ domain: z.string() })).domain),
    )
    for (const n of [...sb.state.domains]
      .map((d) => d.domainname)
      .sort()
      .slice(0, 9)) {
      const row = page.getByRole('row', { name: new RegExp(`^${n.replace(/\./g, '\\.')}`) })
      // Never sent is said only of what the service never received.
      if (!received.has(n)) await expect(row).toContainText('Not sent')
      else if (answered.has(n)) await expect(row).toContainText(/Done|Outcome unknown/)
      else await expect(row).toContainText(/Outcome unknown|Done/)
    }
    await expect(page.getByRole('button', { name: /Retry the \d+ failed or unsent/ })).toBeVisible()
    await snap(page, 'jobs-after-quit')
    await page.close()
  } finally {
    await second.close()
    await sb.close()
    rmSync(userDataDir, { recursive: true, force: true })
  }
})

/** A transfer lock change whose answer the service loses after acting on it: shown as outcome unknown on its tab. */
async function loseTransferLockAnswer(app: Page, sb: Sandbox, domain: string) {
  await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
  await app.getByLabel('Filter').fill(domain)
  await app.getByRole('link', { name: domain, exact: true }).click()
  await app.getByRole('tab', { name: 'Transfer lock', exact: true }).click()
  const panel = app.getByRole('tabpanel', { name: 'Transfer lock' })
  sb.faults.inject('domains.transferlock.set', { lostAnswer: 'reset', times: 1 })
  await panel.getByRole('button', { name: /Lock transfers|Unlock transfers/ }).click()
  await expect(panel.getByRole('alert')).toContainText('Outcome unknown')
  return panel
}

test.describe('an answer lost after the service acted', () => {
  test.use({ harnessOptions: { logCheckDelaysMs: [60_000] } })

  test('is "outcome unknown", is not sent again without the user, and the service’s log says it was received', async ({
    app,
    harness,
  }) => {
    const sb = await harness.demo()
    const d = sb.state.domains[7]!
    await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
    await app.getByLabel('Filter').fill(d.domainname)
    await app.getByRole('link', { name: d.domainname, exact: true }).click()
    await app.getByRole('tab', { name: 'Transfer lock', exact: true }).click()
    const panel = app.getByRole('tabpanel', { name: 'Transfer lock' })
    const toggle = panel.getByRole('button', { name: /Lock transfers|Unlock transfers/ })
    const label = await toggle.innerText()
    sb.faults.inject('domains.transferlock.set', { lostAnswer: 'reset', times: 1 })
    await toggle.click()
    await expect(panel.getByRole('alert')).toContainText('Outcome unknown')
    await expect(panel.getByRole('alert')).toContainText('it may have been done')
    const sent = () => sb.received.filter((r) => r.endpoint === 'domains.transferlock.set').length
    expect(sent()).toBe(1)

    // A second click is refused without sending: the earlier outcome is unknown.
    await panel.getByRole('button', { name: label }).click()
    await expect(panel.getByRole('alert')).toContainText('has an unknown outcome')
    expect(sent()).toBe(1)

    await panel.getByRole('link', { name: 'Writes' }).first().click()
    await app.getByRole('link', { name: 'Set the transfer lock' }).first().click()
    await expect(app.getByRole('row', { name: new RegExp(d.domainname.replace(/\./g, '\\.')) }).first()).toContainText(
      'Outcome unknown',
    )
    await app.getByRole('button', { name: 'Check the log' }).click()
    await expect(app.getByRole('row', { name: new RegExp(d.domainname.replace(/\./g, '\\.')) }).first()).toContainText(
      'Done (the service’s log shows it was received and carried out)',
    )
    await snap(app, 'jobs-unknown-resolved')
  })

  test('settled by the log while its screen is open: the screen is told, Writes marks it until then, the sidebar counts it', async ({
    app,
    harness,
  }) => {
    const sb = await harness.demo()
    const d = sb.state.domains[8]!
    const panel = await loseTransferLockAnswer(app, sb, d.domainname)
    const writes = app.getByRole('navigation').getByRole('link', { name: /^Writes/ })
    await expect(writes.getByTestId('jobs-attention')).toHaveAttribute(
      'aria-label',
      '1 write needs attention (outcome unknown)',
    )

    // Main's look in the service's log (its timer, here run at once) finds the request received.
    const job = harness.services.jobs
      .list()
      .find((j) => j.operation === 'domains.transferlock.set' && j.items[0]?.label === d.domainname)!
    await harness.services.jobs.checkLog(job.id, 0)
    await expect(
      app
        .getByRole('status')
        .filter({ hasText: `${d.domainname}: the service’s log shows it was received after all.` }),
    ).toBeVisible()
    await expect(panel.getByRole('alert')).toHaveCount(0)
    await expect(writes.getByTestId('jobs-attention')).toHaveCount(0)
  })

  test('a renewal whose answer was lost: a later read of the list that shows the expiry moved is said beside it', async ({
    app,
    harness,
  }) => {
    const sb = await harness.demo()
    const [d, e] = firstItems(
      [...sb.state.domains].sort((a, b) => a.domainname.localeCompare(b.domainname)).slice(10, 12),
      2,
    )
    const from = d.expirationdate
    await openDomains(app)
    sb.faults.inject('domains.expiration.renew', { lostAnswer: 'reset', times: 2 })
    await (
      await renewSelected(app, [d.domainname, e.domainname], 1)
    )
      .getByRole('button', { name: 'Renew 2 domains' })
      .click()
    await expect(app.getByRole('heading', { name: 'Results: 0 done, 0 failed' })).toBeVisible()
    // The service did renew it; the list read again now shows the new date.
    await app.getByRole('button', { name: 'Refresh' }).first().click()
    await expect(
      app
        .getByRole('table', { name: 'Domains' })
        .getByRole('row', { name: new RegExp(d.domainname.replace(/\./g, '\\.')) }),
    ).toContainText(d.expirationdate.slice(0, 4))
    await app
      .getByRole('navigation')
      .getByRole('link', { name: /^Writes/ })
      .click()
    await app.getByRole('link', { name: 'Renew domains' }).first().click()
    await expect(app.locator('.expiry-moved')).toContainText(
      `${d.domainname}: a later read of the domain list shows it expiring`,
    )
    expect(d.expirationdate.slice(0, 4)).toBe(String(Number(from.slice(0, 4)) + 1))
  })

  test('Writes marks a job whose outcome is still unknown, not as "Finished"', async ({ app, harness }) => {
    const sb = await harness.demo()
    const d = sb.state.domains[9]!
    await loseTransferLockAnswer(app, sb, d.domainname)
    await app
      .getByRole('navigation')
      .getByRole('link', { name: /^Writes/ })
      .click()
    const row = app.getByRole('row', { name: /Set the transfer lock/ }).first()
    await expect(row).toContainText('Needs attention: 1 outcome unknown')
    await expect(row).not.toContainText('Finished')
  })
})

test('quitting while writes run asks first, and names what is still running', async ({ app, harness }) => {
  const sb = await harness.demo()
  const names = [...sb.state.domains]
    .map((d) => d.domainname)
    .sort()
    .slice(30, 36)
  await openDomains(app)
  // Held at the sandbox: the job is still running when the window is closed, however slow the machine.
  sb.faults.inject('domains.expiration.renew', { hold: true })
  await (await renewSelected(app, names, 1)).getByRole('button', { name: 'Renew 6 domains' }).click()
  await expect(app.getByRole('navigation').getByRole('link', { name: /^Writes/ })).toContainText('1')
  // What main does when the window is closed while writes run.
  await app.evaluate(() => window.__haQuitRequest!())
  const dialog = app.getByRole('dialog')
  await expect(dialog).toContainText('1 write is still running: Renew domains')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  expect(harness.quitsConfirmed).toBe(0)
  await app.evaluate(() => window.__haQuitRequest!())
  await app.getByRole('dialog').getByRole('button', { name: 'Quit anyway' }).click()
  await expect.poll(() => harness.quitsConfirmed).toBe(1)
  sb.faults.clear()
})
