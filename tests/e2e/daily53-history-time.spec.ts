/**
 * Issue 53, points 5 and 10, in English and Japanese at 1024x700, against the sandbox:
 * - a domain's own auto-renewal turned on from its page: its history says that change, and never
 *   "on → none" for the account's settings the write did not touch (they were not read after);
 * - two changes of a zone from outside within a minute: the history entries and the snapshots
 *   are told apart (seconds where the minute is the same), in the window's one time format;
 * - the domain's Transfers tab shows the service's "2026-11-28 10:10:00" in that format too.
 * (A team refusal's time, local from main's ISO time, is in tests/unit/time-format.test.ts: it needs PostgreSQL here.)
 */
import type { Locator } from '@playwright/test'
import { expect, reloadInLanguage, test } from './fixtures'
import { expectNoAxeViolationsIn } from './axe'
import { openDomain } from './domain-screens'
import { svc1Domain } from './dns-screens'

const WORDS = {
  en: {
    domains: 'Domains',
    filter: 'Filter',
    activity: /^Activity/,
    refresh: 'Refresh',
    checkNow: 'Check this account for changes now',
    checked: /lists read again/,
    autorenewTab: 'Auto-renewal',
    renewDomain: 'Renew this domain automatically',
    save: 'Save',
    saved: 'Auto-renewal saved.',
    historyTab: 'History',
    domainOn: 'Auto-renewal (this domain): off → on',
    none: '→ none',
    zoneOutside: 'DNS records changed outside this app',
    snapshots: 'Zone snapshots',
    transfersTab: 'Transfers',
    // "Nov 28, 2026, 10:10 AM"; with seconds "Nov 28, 2026, 10:10:05 AM" (and thousandths in the same second).
    minute: /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/,
    second: /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2}(\.\d{3})? [AP]M$/,
  },
  ja: {
    domains: 'ドメイン',
    filter: '絞り込み',
    activity: /^アクティビティ/,
    refresh: '再読み込み',
    checkNow: 'このアカウントの変更を今すぐ確認',
    checked: /件の一覧を読み直しました/,
    autorenewTab: '自動更新',
    renewDomain: 'このドメインを自動更新',
    save: '保存',
    saved: '自動更新を保存しました。',
    historyTab: '履歴',
    domainOn: '自動更新(このドメイン): オフ → オン',
    none: '→ なし',
    zoneOutside: 'DNS レコードがこのアプリ以外で変更されました',
    snapshots: 'ゾーンのスナップショット',
    transfersTab: '移管',
    // "2026/11/28 10:10"; with seconds "2026/11/28 10:10:05" (and thousandths in the same second).
    minute: /^\d{4}\/\d{1,2}\/\d{1,2} \d{1,2}:\d{2}$/,
    second: /^\d{4}\/\d{1,2}\/\d{1,2} \d{1,2}:\d{2}:\d{2}(\.\d{3})?$/,
  },
} as const

type Words = (typeof WORDS)[keyof typeof WORDS]

/** Each `time` element's shown text and its ISO time, in the order shown. */
async function timesIn(where: Locator): Promise<{ text: string; iso: string }[]> {
  return where
    .locator('time')
    .evaluateAll((els) =>
      els.map((e) => ({ text: e.textContent?.trim() ?? '', iso: e.getAttribute('datetime') ?? '' })),
    )
}

/** Times of one list: each in the one format; two of the same minute with their seconds, so never two alike. */
function expectTold(times: { text: string; iso: string }[], w: Words) {
  const minuteOf = (iso: string) => new Date(iso).toISOString().slice(0, 16)
  for (const t of times) {
    const sameMinute = times.some((o) => o !== t && minuteOf(o.iso) === minuteOf(t.iso) && o.iso !== t.iso)
    expect(t.text).toMatch(sameMinute ? w.second : w.minute)
  }
  const distinctIso = new Set(times.map((t) => t.iso))
  const distinctText = new Set(times.map((t) => t.text))
  expect(distinctText.size).toBe(distinctIso.size)
}

for (const lang of ['en', 'ja'] as const) {
  test(`history says only what changed, and every time reads in one local format (${lang})`, async ({
    app,
    harness,
  }) => {
    test.setTimeout(120_000)
    const w = WORDS[lang]
    await app.setViewportSize({ width: 1024, height: 700 })
    const sb = await harness.demo()
    const d = svc1Domain(sb)
    const domain = d.domainname
    // The account-wide setting on, this domain's own off: the state users had when they met "on → none".
    Object.assign(d, { autorenew: 1, autorenew_all: 10, autorenew_domain: 0 })
    if (lang === 'ja') await reloadInLanguage(app, 'ja')

    // Every list read once (the values before a write, and the baseline of drift).
    const activity = app.getByRole('navigation').getByRole('link', { name: w.activity })
    await activity.click()
    await app.getByRole('button', { name: w.checkNow }).click()
    await expect(app.getByRole('status').filter({ hasText: w.checked })).toBeVisible()

    // The zone changed twice from outside, each found by a refresh of the DNS list: two entries and
    // two snapshots, most likely within one minute.
    await app.getByRole('navigation').getByRole('link', { name: 'DNS', exact: true }).click()
    await expect(app.getByRole('table')).toContainText(domain)
    const original = d.dns.svc1.records
    for (const [i, host] of ['panel-one', 'panel-two'].entries()) {
      d.dns.svc1.records = `${original}\na ${host} 203.0.113.${40 + i}`
      await app.getByRole('button', { name: w.refresh }).click()
      await expect(activity.locator('.badge')).toHaveText(String(i + 1))
    }

    // This domain's auto-renewal turned on from its page; the account-wide one left as it is.
    const auto = await openDomain(app, domain, w.autorenewTab, w)
    await auto.getByLabel(w.renewDomain).check()
    await auto.getByRole('button', { name: w.save }).click()
    await expect(app.getByRole('status').filter({ hasText: w.saved })).toBeVisible()
    expect(sb.received.filter((r) => r.endpoint === 'domains.autorenew.set').at(-1)?.body).toEqual({
      autorenew_domain: 10,
    })

    await app.getByRole('tab', { name: w.historyTab, exact: true }).click()
    const panel = app.getByRole('tabpanel', { name: w.historyTab, exact: true })
    const entries = panel.locator('.history-list > li')
    const write = entries.first()
    await expect(write).toContainText(w.domainOn)
    // The settings the write did not touch are not said to have become "none".
    await expect(panel.locator('.history-list')).not.toContainText(w.none)
    await expect(entries.filter({ hasText: w.zoneOutside })).toHaveCount(2)
    expectTold(await timesIn(panel.locator('.history-list')), w)
    const snapshots = panel.getByRole('region', { name: w.snapshots })
    await expect(snapshots.getByRole('row')).toHaveCount(3)
    expectTold(await timesIn(snapshots), w)
    await expectNoAxeViolationsIn(app, 'main', `domain history with times (${lang})`)

    // The service's own time of a transfer request, in the same format (never its raw "2026-11-28 10:10:00").
    const tr = sb.state.transfers[0]!
    const transfers = await openDomain(app, tr.domainname, w.transfersTab, w)
    const row = transfers.getByRole('row', { name: new RegExp(tr.transferorderid) })
    await expect(row).not.toContainText(tr.starttime)
    const clock = /^\d{4}-\d{2}-\d{2} (\d{2}:\d{2}):\d{2}$/.exec(tr.starttime)?.[1]
    expect(clock).toBeDefined()
    const cells = (await row.getByRole('cell').allTextContents()).map((c) => c.trim())
    const started = cells.filter((c) => w.minute.test(c))
    expect(started, cells.join(' | ')).toHaveLength(1)
    expect(started[0]).toContain(clock!.replace(/^0/, ''))
    await expectNoAxeViolationsIn(app, 'main', `domain transfers with their start time (${lang})`)
  })
}
