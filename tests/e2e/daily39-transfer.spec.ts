/**
 * Issue 39, point 10: a failed transfer's reason is the service's own English free text (API-SPEC:
 * FAILED "is accompanied by a failurereason text"; no message is recorded, so none is translated).
 * It is shown whole, wrapped, marked as the service's words and as English, beside what FAILED
 * means and what to do next in the user's language; and the transfer can be requested again from
 * there. In English and Japanese at 1024x700.
 */
import { expect, reloadInLanguage, snap, test } from './fixtures'
import { expectNoAxeViolationsIn } from './axe'

// A long free text standing in for the service's reason: the test's own, not a recorded message.
const LONG_REASON =
  'Sample reason written by this test: the losing registrar did not approve the request within the period allowed, and the request was closed without the domain moving; a long unbroken token follows to check the wrapping: ' +
  'x'.repeat(160)

const WORDS = {
  en: {
    list: 'Transfer requests of this account',
    seeBelow: 'See below',
    section: 'Failed transfers',
    explain:
      'turn off the domain’s transfer lock and get a current transfer code (auth code), then request the transfer again.',
    label: 'The service said:',
    again: (d: string) => `Request ${d} again`,
    domain: 'Domain to transfer in',
    authcode: 'Transfer code (authcode)',
  },
  ja: {
    list: 'このアカウントの移管申請',
    seeBelow: '下記を参照',
    section: '失敗した移管',
    explain: '移管ロックを解除し、最新の認証コード(AuthCode)を受け取ってから、もう一度移管を申請してください。',
    label: 'サービスからのメッセージ:',
    again: (d: string) => `${d} をもう一度申請`,
    domain: '移管するドメイン',
    authcode: '認証コード(authcode)',
  },
} as const

for (const lang of ['en', 'ja'] as const) {
  test(`a failed transfer's reason is shown whole as the service's English words, with what to do next (${lang})`, async ({
    app,
    harness,
  }) => {
    const w = WORDS[lang]
    await app.setViewportSize({ width: 1024, height: 700 })
    const sb = await harness.demo()
    const failed = sb.state.transfers.find((x) => x.status === 'FAILED')
    if (!failed) throw new Error('The demo sandbox has no failed transfer')
    failed.failurereason = LONG_REASON
    if (lang === 'ja') await reloadInLanguage(app, 'ja')
    await app.evaluate(() => (location.hash = '#/domains/transfer-in'))

    // The table's one-line cell points to the whole reason below instead of cutting it.
    const row = app.getByRole('table', { name: w.list }).getByRole('row').filter({ hasText: failed.domainname })
    await expect(row).toContainText(w.seeBelow)
    await expect(row).not.toContainText(LONG_REASON.slice(0, 40))
    // And the pointer itself is not cut at 1024 px.
    expect(
      await row
        .getByRole('cell')
        .last()
        .evaluate((el) => el.scrollWidth <= el.clientWidth),
    ).toBe(true)

    const section = app.getByRole('region', { name: w.section })
    await expect(section).toContainText(w.explain)
    const item = section.getByRole('article', { name: failed.domainname })
    await expect(item).toContainText(w.label)
    // Whole, marked as English, and wrapped inside the window: nothing hidden past its edge.
    const reason = item.locator('q[lang="en"]')
    await expect(reason).toHaveText(LONG_REASON)
    await item.scrollIntoViewIfNeeded()
    const box = await reason.boundingBox()
    if (!box) throw new Error('The reason is not laid out')
    expect(box.x + box.width).toBeLessThanOrEqual(1024)
    expect(
      await reason.evaluate((el) => el.closest('article')!.scrollWidth <= el.closest('article')!.clientWidth),
    ).toBe(true)
    await snap(app, `daily39-transfer-failed-${lang}`)
    await expectNoAxeViolationsIn(app, '.failed-transfers', `failed transfers with the service's reason (${lang})`)

    // Request again: the form takes the domain and asks for the transfer code.
    await item.getByRole('button', { name: w.again(failed.domainname) }).click()
    await expect(app.getByLabel(w.domain)).toHaveValue(failed.domainname)
    await expect(app.getByLabel(w.authcode, { exact: true })).toBeFocused()
  })
}
