/**
 * More reminders due at once than are shown one by one (SEPARATE_REMINDERS, 5): nine domains of
 * one account reach a threshold together on main's fixed clock (2030-01-01). Main tells the window
 * the five most urgent and that nine are due; the window shows five notifications at most: the
 * four most urgent one by one, most urgent first, and in the last place "5 more items expire
 * soon", whose click opens "Expiring soon". There the nine are listed, most urgent first, each
 * with its Acknowledge reachable by keyboard; one acknowledged by keyboard reads so, and the next
 * one snoozed by keyboard too: focus stays in each row, on its status, not on the body. A second
 * check (the window reloaded) finds none due: every one of the nine was recorded as sent, and no
 * notification comes again. In English and in Japanese, at 1024 x 700, axe finding nothing.
 */
import { startSandbox } from '../../src/sandbox'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { installBridge, startHarness } from '../../support/harness'
import { profileFor } from '../../support/profile'
import { expectNoAxeViolationsIn } from './axe'
import { farAway } from './far-away'
import { expect, reloadApp, screenshotPath, test } from './fixtures'
import { SEPARATE_REMINDERS } from '@shared/portfolio/reminders'
import type { Page } from '@playwright/test'

/** Main's "now" and the window's: 2030-01-01, 09:00 in this machine's time zone. */
const NOW = new Date(2030, 0, 1, 9, 0)

/** Days left of the nine due domains, most urgent first: thresholds 1 and 7 (four of them) and 30 (four). */
const DAYS_LEFT = [1, 2, 4, 6, 7, 12, 20, 25, 30]
/** The January 2030 day each expires on. */
const dayOf = (daysLeft: number) => 1 + daysLeft

/** What the user reads, in each language, from the catalogue (src/shared/i18n/locales). */
const WORDS = {
  en: {
    reminder: (name: string, days: number) =>
      `${name} expires in ${days} ${days === 1 ? 'day' : 'days'} | ` +
      `Domain of the account “Main”, expiring on Jan ${dayOf(days)}, 2030.`,
    more: (count: number) => `${count} more items expire soon | Open “Expiring soon” to see every one of them.`,
    title: 'Expiring soon',
    accountToShow: 'Account to show',
    acknowledge: (name: string) => `Acknowledge: ${name}`,
    acknowledged: 'Acknowledged',
    snooze: (name: string) => `Snooze 7 days: ${name}`,
    snoozed: 'Snoozed until',
  },
  ja: {
    reminder: (name: string, days: number) =>
      `${name} はあと ${days} 日で有効期限です | ` +
      `アカウント「Main」のドメイン、有効期限 2030/01/${String(dayOf(days)).padStart(2, '0')}。`,
    more: (count: number) =>
      `ほかに ${count} 件がまもなく有効期限です | 「期限が近いもの」を開くとすべて表示されます。`,
    title: '期限が近いもの',
    accountToShow: '表示するアカウント',
    acknowledge: (name: string) => `確認済みにする: ${name}`,
    acknowledged: '確認済み',
    snooze: (name: string) => `保留して 7 日後に再通知: ${name}`,
    snoozed: 'まで保留中',
  },
} as const

/** The aria-label of what has the keyboard focus after each Tab from `start`, at most `presses` of them. */
async function tabOrder(page: Page, start: string, presses: number): Promise<string[]> {
  await page.locator(start).focus()
  const labels: string[] = []
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab')
    labels.push(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''))
  }
  return labels
}

test.use({ viewport: { width: 1024, height: 700 } })

for (const lang of ['en', 'ja'] as const) {
  test(`nine due at once: four one by one, five summed up; "Expiring soon" by keyboard; none again (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000)
    const w = WORDS[lang]
    const sandbox = await startSandbox({ seed: 7, domains: 12 })
    farAway(sandbox)
    const picked = sandbox.state.domains.slice(0, DAYS_LEFT.length)
    if (picked.length !== DAYS_LEFT.length) throw new Error('the sandbox has too few domains')
    // The sandbox's first domain expires last and its ninth first: the order shown is urgency, not the list's.
    picked.forEach((d, n) => {
      d.expirationdate = `2030-01-${String(dayOf(DAYS_LEFT[DAYS_LEFT.length - 1 - n]!)).padStart(2, '0')}`
    })
    const byUrgency = [...picked].reverse().map((d) => d.domainname)

    const harness = await startHarness({ now: () => NOW, keychain: new SessionSecretStore() })
    try {
      const account = await harness.services.accounts.create(profileFor(sandbox, 'Main'), sandbox.keys.full, 'keychain')
      await harness.services.accounts.setActive(account.id)
      // The domain list read once, through main as the window reads it: the store has it.
      const read = await harness.router.client({
        url: harness.url,
        key: 'test',
        sendProgress: () => undefined,
        sendJob: () => true,
      })('all.domains.list', { accountId: account.id, callId: 'read' })
      expect(read.ok).toBe(true)

      // The window's clock on main's day: "Expiring soon" counts the days left from it.
      await page.clock.setFixedTime(NOW)
      await page.addInitScript((l) => localStorage.setItem('hosting-admin.locale', l), lang)
      await installBridge(page, harness)
      await page.goto(harness.url)

      // Main tells the window the five most urgent and how many are due in all.
      const dueAsked = () => harness.windowCalls.filter((c) => c.channel === 'reminders.due')
      await expect.poll(() => dueAsked().filter((c) => c.answered).length, { timeout: 15_000 }).toBe(1)
      const answer = dueAsked()[0]?.answer
      expect(answer).toMatchObject({ ok: true, value: { count: DAYS_LEFT.length } })
      expect(answer).toHaveProperty(
        'value.mostUrgent',
        byUrgency
          .slice(0, SEPARATE_REMINDERS)
          .map((name) => expect.objectContaining({ item: expect.objectContaining({ label: name }) })),
      )

      // On the desktop: five notifications, the four most urgent first, then the sum of the other five.
      const shown = () => harness.desktop.notifications.map((n) => `${n.title} | ${n.body}`)
      await expect.poll(() => harness.desktop.notifications.length).toBe(SEPARATE_REMINDERS)
      expect(shown()).toEqual([
        ...byUrgency.slice(0, SEPARATE_REMINDERS - 1).map((name, n) => w.reminder(name, DAYS_LEFT[n]!)),
        w.more(DAYS_LEFT.length - (SEPARATE_REMINDERS - 1)),
      ])

      // The sum's click opens "Expiring soon", which lists every one of them, most urgent first.
      harness.desktop.notifications[SEPARATE_REMINDERS - 1]?.click()
      await expect(page).toHaveURL(/#\/expiring$/)
      await expect(page.getByRole('heading', { level: 1, name: w.title })).toBeVisible()
      await expect(page.locator('.read-status')).toHaveCount(0)
      // The harness's demo account is there too, its items expired long before main's 2030: they never remind,
      // and the user shows the account of the nine.
      await page.getByLabel(w.accountToShow).selectOption(account.id)
      const table = page.getByRole('table', { name: w.title })
      const acknowledges = table.getByRole('button', { name: w.acknowledge('') })
      await expect(acknowledges).toHaveCount(DAYS_LEFT.length)
      await expect(table.locator('tbody tr')).toHaveCount(DAYS_LEFT.length)
      expect(await acknowledges.evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')))).toEqual(
        byUrgency.map(w.acknowledge),
      )
      await expectNoAxeViolationsIn(page, '#app', `nine reminders on "Expiring soon", ${lang}`)
      await page.screenshot({ path: screenshotPath(`reminders-many-${lang}-1024x700`) })

      // Every Acknowledge is reached by Tab, most urgent first (each row: its checkbox, its name, then these).
      const order = (await tabOrder(page, 'h1', 80)).filter((l) => l.startsWith(w.acknowledge('')))
      expect(order).toEqual(byUrgency.map(w.acknowledge))
      // The most urgent acknowledged by keyboard: its row says so, the other eight stay open.
      const first = byUrgency[0]!
      await page.locator('h1').focus()
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab')
        if (await page.evaluate((l) => document.activeElement?.getAttribute('aria-label') === l, w.acknowledge(first)))
          break
      }
      await expect(page.getByRole('button', { name: w.acknowledge(first), exact: true })).toBeFocused()
      await page.keyboard.press('Enter')
      const rowOf = (name: string) => table.locator('tbody tr').filter({ hasText: name })
      await expect(rowOf(first)).toContainText(w.acknowledged)
      // The keyboard's place is kept: focus is on the row's status, which a screen reader reads out, not on the body.
      const statusOf = (name: string) => rowOf(name).locator('.reminder-handled')
      await expect(statusOf(first)).toBeFocused()
      await expect(statusOf(first)).toHaveText(w.acknowledged)
      // The next one snoozed by keyboard: the same for its status.
      const second = byUrgency[1]!
      await page.getByRole('button', { name: w.snooze(second), exact: true }).focus()
      await page.keyboard.press('Enter')
      await expect(statusOf(second)).toBeFocused()
      await expect(statusOf(second)).toContainText(w.snoozed)
      expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false)
      await expect(acknowledges).toHaveCount(DAYS_LEFT.length - 2)
      await expectNoAxeViolationsIn(page, '#app', `nine reminders, one acknowledged and one snoozed, ${lang}`)

      // A second check (the window reloaded): all nine were recorded as sent, none is due, nothing shown again.
      await reloadApp(page)
      await expect.poll(() => dueAsked().filter((c) => c.answered).length, { timeout: 15_000 }).toBe(2)
      expect(dueAsked().at(-1)?.answer).toEqual({ ok: true, value: { mostUrgent: [], count: 0 } })
      expect(harness.desktop.notifications).toHaveLength(SEPARATE_REMINDERS)
      // Still listed on "Expiring soon" with its handling: notified once is not handled.
      await expect(page.locator('.read-status')).toHaveCount(0)
      await page.getByLabel(w.accountToShow).selectOption(account.id)
      await expect(rowOf(first)).toContainText(w.acknowledged)
      await expect(rowOf(second)).toContainText(w.snoozed)
      await expect(acknowledges).toHaveCount(DAYS_LEFT.length - 2)
    } finally {
      await harness.close()
      await sandbox.close()
    }
  })
}
