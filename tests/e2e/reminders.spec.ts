/**
 * Expiry reminders end to end: main's clock fixed on 2030-01-01, two accounts whose domains
 * expire on chosen dates (every other item years away), their lists read once so the store has
 * them. The window shows one desktop notification per item for the smallest threshold reached,
 * none for an auto-renewing domain, none again after a reload; clicking one switches to its
 * account and opens the domain. The Settings panel exports the dates as an .ics file (read back
 * here) and edits the thresholds, in English and in Japanese.
 */
import { readFileSync } from 'node:fs'
import { startSandbox } from '../../src/sandbox'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import type { Harness } from '../../support/harness'
import { installBridge, startHarness } from '../../support/harness'
import { profileFor } from '../../support/profile'
import { icsValue, readIcs } from '../helpers/ics-reader'
import { farAway } from './far-away'
import { expect, reloadApp, screenshotPath, test } from './fixtures'
import type { ChannelName, PayloadOf, Result, ResultOf } from '@shared/ipc/contract'

/** Main's "now": 2030-01-01, 09:00 in this machine's time zone (the window's too). */
const NOW = new Date(2030, 0, 1, 9, 0)

function call<C extends ChannelName>(
  harness: Harness,
  channel: C,
  payload: PayloadOf<C>,
): Promise<Result<ResultOf<C>>> {
  const sender = { url: harness.url, key: 'test', sendProgress: () => undefined, sendJob: () => true }
  return harness.router.client(sender)(channel, payload)
}
async function ok<C extends ChannelName>(harness: Harness, channel: C, payload: PayloadOf<C>): Promise<ResultOf<C>> {
  const r = await call(harness, channel, payload)
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`)
  return r.value
}

test('reminders of two accounts as desktop notifications; a click opens the domain in its account; the .ics export and the settings, in English and Japanese', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const main = await startSandbox({ seed: 3, domains: 8 })
  const other = await startSandbox({ seed: 4, domains: 8 })
  farAway(main)
  farAway(other)
  const [mainSoon, mainMonth, mainRenews] = main.state.domains
  const [otherTomorrow, otherTwoMonths, otherLater] = other.state.domains
  if (!mainSoon || !mainMonth || !mainRenews || !otherTomorrow || !otherTwoMonths || !otherLater)
    throw new Error('the sandboxes have too few domains')
  mainSoon.expirationdate = '2030-01-06' // 5 days: threshold 7 (60 and 30 passed with it)
  mainMonth.expirationdate = '2030-01-31' // 30 days: threshold 30
  Object.assign(mainRenews, { expirationdate: '2030-01-03', autorenew: 1, autorenew_domain: 1 }) // auto-renewing: none
  otherTomorrow.expirationdate = '2030-01-02' // 1 day: threshold 1
  otherTwoMonths.expirationdate = '2030-03-02' // 60 days: threshold 60
  otherLater.expirationdate = '2030-06-01' // 151 days: none with the default thresholds

  const harness = await startHarness({ now: () => NOW, keychain: new SessionSecretStore() })
  const page = await browser.newPage()
  try {
    const mainAccount = await harness.services.accounts.create(profileFor(main, 'Main'), main.keys.full, 'keychain')
    const otherAccount = await harness.services.accounts.create(profileFor(other, 'Other'), other.keys.full, 'keychain')
    await harness.services.accounts.setActive(mainAccount.id)
    // The domain list of each account read once, through main as the window reads it: the store has them.
    for (const a of [mainAccount, otherAccount])
      await ok(harness, 'all.domains.list', { accountId: a.id, callId: `read-${a.id}` })

    await page.addInitScript(() =>
      localStorage.setItem('hosting-admin.locale', localStorage.getItem('hosting-admin.locale') ?? 'en'),
    )
    await installBridge(page, harness)
    await page.goto(harness.url)

    // One notification per item, most urgent first, for the smallest threshold reached.
    const shown = () => harness.desktop.notifications.map((n) => `${n.title} | ${n.body}`)
    await expect.poll(() => harness.desktop.notifications.length).toBe(4)
    expect(shown()).toEqual([
      `${otherTomorrow.domainname} expires in 1 day | Domain of the account “Other”, expiring on Jan 2, 2030.`,
      `${mainSoon.domainname} expires in 5 days | Domain of the account “Main”, expiring on Jan 6, 2030.`,
      `${mainMonth.domainname} expires in 30 days | Domain of the account “Main”, expiring on Jan 31, 2030.`,
      `${otherTwoMonths.domainname} expires in 60 days | Domain of the account “Other”, expiring on Mar 2, 2030.`,
    ])
    expect(shown().join('\n')).not.toContain(mainRenews.domainname)
    // Which thresholds count as sent: the one reminded of and the larger ones passed with it.
    const sent = async (account: string, domain: string) =>
      (await harness.services.store.remindersSent())
        .filter((s) => s.accountId === account && s.itemKey === domain)
        .map((s) => s.threshold)
        .sort((a, b) => a - b)
    expect(await sent(otherAccount.id, otherTomorrow.domainname)).toEqual([1, 7, 30, 60])
    expect(await sent(mainAccount.id, mainSoon.domainname)).toEqual([7, 30, 60])
    expect(await sent(mainAccount.id, mainMonth.domainname)).toEqual([30, 60])
    expect(await sent(otherAccount.id, otherTwoMonths.domainname)).toEqual([60])
    expect(await sent(mainAccount.id, mainRenews.domainname)).toEqual([])

    // Not again: after a reload the window asks once more, and nothing is due.
    const dueAsked = () => harness.windowCalls.filter((c) => c.channel === 'reminders.due')
    const askedBefore = dueAsked().length
    await reloadApp(page)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    // The reloaded window's own check, answered: nothing due, so it shows nothing.
    await expect.poll(() => dueAsked().filter((c) => c.answered).length, { timeout: 15_000 }).toBe(askedBefore + 1)
    expect(dueAsked().at(-1)?.answer).toEqual({ ok: true, value: { mostUrgent: [], count: 0 } })
    expect(harness.desktop.notifications).toHaveLength(4)
    expect(await ok(harness, 'reminders.due', {})).toEqual({ mostUrgent: [], count: 0 })

    // A click on the other account's reminder: the window switches to that account and opens the domain.
    await expect(page.getByLabel('Account', { exact: true })).toHaveValue(mainAccount.id)
    harness.desktop.notifications[0]?.click()
    await expect(page).toHaveURL(new RegExp(`#/domains/${otherTomorrow.domainname.replace(/\./g, '\\.')}$`))
    await expect(page.getByLabel('Account', { exact: true })).toHaveValue(otherAccount.id)
    await expect(
      page.getByRole('heading', { level: 1, name: new RegExp(otherTomorrow.domainname.replace(/\./g, '\\.')) }),
    ).toBeVisible({ timeout: 15_000 })
    await expect(page.getByRole('status').filter({ hasText: 'Switched to the account “Other”.' })).toBeVisible()

    // The .ics export of every account, from the Settings panel, read back.
    await page.getByRole('link', { name: 'Accounts & settings' }).click()
    const calendar = page.getByRole('group', { name: 'Expiration dates as a calendar (.ics)' })
    await expect(calendar.getByLabel('Account to export')).toHaveValue('')
    const exportIcs = async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        calendar.getByRole('button', { name: 'Export expiration dates (.ics)' }).click(),
      ])
      return { name: download.suggestedFilename(), file: readIcs(readFileSync(await download.path(), 'utf8')) }
    }
    const all = await exportIcs()
    expect(all.name).toBe('expiration-dates-all.ics')
    expect(all.file.problems).toEqual([])
    expect(icsValue(all.file.calendar, 'VERSION')).toBe('2.0')
    expect(icsValue(all.file.calendar, 'PRODID')).toBeTruthy()
    const stored = await ok(harness, 'reminders.expirations', {})
    expect(all.file.events).toHaveLength(stored.length)
    const eventOf = (file: typeof all.file, domain: string) => {
      const e = file.events.find((ev) => icsValue(ev, 'SUMMARY')?.startsWith(`${domain} `))
      return (
        e && {
          start: icsValue(e, 'DTSTART'),
          end: icsValue(e, 'DTEND'),
          summary: icsValue(e, 'SUMMARY'),
          description: icsValue(e, 'DESCRIPTION'),
        }
      )
    }
    expect(eventOf(all.file, mainSoon.domainname)).toEqual({
      start: '20300106',
      end: '20300107',
      summary: `${mainSoon.domainname} expires (Domain, “Main”)`,
      description: undefined,
    })
    expect(eventOf(all.file, otherTomorrow.domainname)).toEqual({
      start: '20300102',
      end: '20300103',
      summary: `${otherTomorrow.domainname} expires (Domain, “Other”)`,
      description: undefined,
    })
    expect(eventOf(all.file, mainRenews.domainname)).toEqual({
      start: '20300103',
      end: '20300104',
      summary: `${mainRenews.domainname} expires (Domain, “Main”)`,
      description: 'Auto-renewal is on.',
    })
    for (const e of all.file.events) expect(icsValue(e, 'DTSTART')).toMatch(/^\d{8}$/)
    await expect(
      page.getByRole('status').filter({ hasText: `${stored.length} expiration dates exported.` }),
    ).toBeVisible()

    // One account only.
    await calendar.getByLabel('Account to export').selectOption(otherAccount.id)
    const one = await exportIcs()
    expect(one.name).toBe(`expiration-dates-${otherAccount.id}.ics`)
    expect(one.file.problems).toEqual([])
    expect(one.file.events).toHaveLength(other.state.domains.length)
    for (const e of one.file.events) expect(icsValue(e, 'SUMMARY')).toMatch(/\(Domain, “Other”\)$/)

    // The settings, in English.
    const reminders = page.getByRole('group', { name: 'Expiry reminders' })
    await expect(reminders.getByLabel('Days before expiry')).toHaveValue('60, 30, 7, 1')
    await expect(reminders.getByLabel('Show desktop notifications before items expire')).toBeChecked()
    await expect(reminders.getByLabel('Also remind of items that renew automatically')).not.toBeChecked()
    // The Settings panel (its heading names it in either language).
    const panel = page.locator('section[aria-labelledby="settings-heading"]')
    await panel.screenshot({ path: screenshotPath('reminders-settings-en') })

    // In Japanese: a wrong number is said where it is typed; new thresholds saved remind at once of what they reach.
    await page.getByLabel('Language').selectOption('ja')
    const remindersJa = page.getByRole('group', { name: '有効期限のリマインダー' })
    const days = remindersJa.getByLabel('有効期限の何日前')
    await days.fill('200, 400')
    await expect(remindersJa.getByText('400 日は先すぎます。最大 365 日です。')).toBeVisible()
    await expect(days).toHaveAttribute('aria-invalid', 'true')
    // The problem is read with the field, after its help.
    await expect(days).toHaveAccessibleDescription(/^0〜365 の整数を.*400 日は先すぎます。最大 365 日です。$/)
    await remindersJa.getByRole('button', { name: 'リマインダーの設定を保存' }).click()
    expect((await ok(harness, 'reminders.settings', {})).thresholds).toEqual([60, 30, 7, 1])
    await days.fill('7, 200, 1, 7')
    await remindersJa.getByRole('button', { name: 'リマインダーの設定を保存' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'リマインダーの設定を保存しました。' })).toBeVisible()
    await expect(days).toHaveValue('200, 7, 1')
    expect(await ok(harness, 'reminders.settings', {})).toEqual({
      enabled: true,
      thresholds: [200, 7, 1],
      includeAutorenewing: false,
    })
    // 151 days before otherLater: 200 is reached. The others were reminded more urgently already.
    await expect.poll(() => harness.desktop.notifications.length).toBe(5)
    expect(shown()[4]).toBe(
      `${otherLater.domainname} はあと 151 日で有効期限です | アカウント「Other」のドメイン、有効期限 2030/06/01。`,
    )
    await panel.screenshot({ path: screenshotPath('reminders-settings-ja') })
  } finally {
    await page.close()
    await harness.close()
    await main.close()
    await other.close()
  }
})
