/**
 * Issue 39, point 5: the service's rate limit is visible. While a bulk renewal waits out a block
 * of the service (its 429s), the job says "Waiting for the service's rate limit (about N s)"
 * instead of a progress that seems stuck; afterwards its summary says how often and how long it
 * waited. In English and Japanese, at 1024x700.
 */
import { expect, reloadInLanguage, test } from './fixtures'
import { expectNoAxeViolationsIn } from './axe'

const WORDS = {
  en: {
    domains: 'Domains',
    select: (n: string) => `Select ${n}`,
    years: 'Years',
    renew: /^Renew 4 domains/,
    waiting: /Waiting for the service’s rate limit \(about \d+ s\)\./,
    results: 'Results: 4 done, 0 failed',
    summary: /Waited for the service’s rate limit (once|\d+ times), \d+ seconds? in all\./,
  },
  ja: {
    domains: 'ドメイン',
    select: (n: string) => `${n} を選択`,
    years: '年数',
    renew: /^4 件のドメインを更新/,
    waiting: /サービスのレート制限の解除を待っています\(あと約 \d+ 秒\)。/,
    results: '結果: 完了 4 件、失敗 0 件',
    summary: /サービスのレート制限で \d+ 回待ちました\(合計 \d+ 秒\)。/,
  },
} as const

for (const lang of ['en', 'ja'] as const) {
  test(`a bulk renewal that meets the service's rate limit says it waits, and its summary says the waits (${lang})`, async ({
    app,
    harness,
  }) => {
    test.setTimeout(90_000)
    await app.setViewportSize({ width: 1024, height: 700 })
    const sb = await harness.demo()
    if (lang === 'ja') await reloadInLanguage(app, 'ja')
    const w = WORDS[lang]
    const names = [...sb.state.domains]
      .map((d) => d.domainname)
      .sort()
      .slice(0, 4)
    await app.getByRole('navigation').getByRole('link', { name: w.domains, exact: true }).click()
    await expect(app.getByRole('heading', { level: 1, name: w.domains })).toBeVisible()
    // The list read afresh first: rows painted from the store are replaced when it answers, and a
    // box ticked in between was once ticked on a row being replaced (under a full suite's load).
    await expect(app.locator('.read-status')).toHaveCount(0)
    for (const n of names) await app.getByLabel(w.select(n)).check()
    await app.getByLabel(w.years).selectOption('1')
    await app.getByRole('button', { name: w.renew }).click()
    const dialog = app.getByRole('dialog')
    await expect(dialog).toBeVisible()
    // From now on the service answers two requests, then refuses every request (its 429s, as the
    // live service was recorded doing) until the test lifts the limit: the renewals must wait. A
    // block of its own length (2 s) could begin and end while a loaded machine's window did not
    // paint, and the test never saw the wait; this one lasts until the test has seen it.
    sb.service.rateLimit = { limit: 2, windowMs: 6_000, blockMs: 3_600_000 }
    await dialog.getByRole('button', { name: w.renew }).click()
    await expect(app.getByRole('status').filter({ hasText: w.waiting })).toBeVisible({ timeout: 20_000 })
    await expectNoAxeViolationsIn(app, 'main', 'the domain list while a job waits for the rate limit')
    // The block ends: the app's next probe goes through (at most its longest wait between
    // probes, 19.2 s, later) and the renewals go on.
    sb.service.rateLimit = undefined
    await expect(app.getByRole('heading', { name: w.results })).toBeVisible({ timeout: 60_000 })
    await expect(app.getByText(w.summary)).toBeVisible()
    expect(sb.received.some((r) => r.status === 429)).toBe(true)
    expect(sb.received.filter((r) => r.endpoint === 'domains.expiration.renew' && r.status === 200)).toHaveLength(4)
    await expectNoAxeViolationsIn(app, 'main', 'the domain list with the job’s summary')
  })
}
