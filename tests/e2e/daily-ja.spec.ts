/**
 * Issue 27's daily-work points walked in Japanese: an outcome settled later reaches the screen
 * that sent it and Writes counts what needs attention (point 6); the DNS editor leads to its
 * history (point 11); a refused key is replaced over the editor and an unsaved edit is offered
 * back (point 1); a message of the service is explained (point 7); a locked keyring is said once,
 * as locked (point 2). Every text on the way is the Japanese catalogue's.
 */
import type { Page } from '@playwright/test'
import { startSandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { profileFor } from '../../support/profile'
import { LockableKeychain } from '../helpers/lockable-keychain'
import { expect, reloadInLanguage, snap, test } from './fixtures'

async function inJapanese(app: Page) {
  await reloadInLanguage(app, 'ja')
  await expect(app.getByRole('heading', { level: 1 })).toBeVisible()
}

async function openZone(app: Page, name: string) {
  await app.evaluate((hash) => (location.hash = hash), `#/dns/${encodeURIComponent(name)}`)
  await expect(app.getByRole('heading', { level: 1, name: `${name} のDNSレコード` })).toBeVisible()
}

test.describe('in Japanese', () => {
  test.use({ harnessOptions: { logCheckDelaysMs: [60_000] } })

  test('an unknown outcome: marked for attention, then settled on the screen that sent it; the DNS editor leads to its history', async ({
    app,
    harness,
  }) => {
    const sb = await harness.demo()
    await inJapanese(app)
    const d = sb.state.domains[8]!
    await app.evaluate((hash) => (location.hash = hash), `#/domains/${d.domainname}`)
    await app.getByRole('tab', { name: '移管ロック', exact: true }).click()
    const panel = app.getByRole('tabpanel', { name: '移管ロック' })
    sb.faults.inject('domains.transferlock.set', { lostAnswer: 'reset', times: 1 })
    await panel.getByRole('button', { name: /移管をロック|移管ロックを解除/ }).click()
    await expect(panel.getByRole('alert')).toContainText('結果が不明です')
    const writes = app.getByRole('navigation').getByRole('link', { name: /^書き込み/ })
    await expect(writes.getByTestId('jobs-attention')).toHaveAttribute(
      'aria-label',
      '確認が必要な書き込み 1 件 (結果不明)',
    )

    const job = harness.services.jobs
      .list()
      .find((j) => j.operation === 'domains.transferlock.set' && j.items[0]?.label === d.domainname)!
    await harness.services.jobs.checkLog(job.id, 0)
    await expect(
      app.getByRole('status').filter({ hasText: `${d.domainname}: サービスのログによると、受け付けられていました。` }),
    ).toBeVisible()
    await expect(panel.getByRole('alert')).toHaveCount(0)
    await expect(writes.getByTestId('jobs-attention')).toHaveCount(0)

    const zone = sb.state.domains.find((x) => nsFlavour(x) === 'svc1')!
    await openZone(app, zone.domainname)
    await app.getByRole('link', { name: '履歴とスナップショット (以前のゾーンに戻す)' }).click()
    await expect(app.getByRole('tab', { name: /^履歴/ })).toHaveAttribute('aria-selected', 'true')
  })

  test('a refused key replaced over the editor, and an unsaved edit offered back', async ({ app, harness }) => {
    const sb = await startSandbox({ domains: 6 })
    try {
      const d = sb.state.domains.find((x) => nsFlavour(x) === 'svc1')!
      const acct = await harness.services.accounts.create(profileFor(sb, 'ショップ'), sb.keys.full, 'session')
      await harness.services.accounts.setActive(acct.id)
      await inJapanese(app)
      await openZone(app, d.domainname)
      await app.getByRole('button', { name: 'テキスト' }).click()
      const raw = app.getByLabel('1行に1レコード: 種類 ホスト 値')
      await raw.fill(`${d.dns.svc1.records}\ntxt _verify typed-in-japanese`)
      await raw.blur()
      sb.keys.full = `${sb.keys.full}-rotated`
      await app.getByRole('button', { name: '変更を確認…' }).click()
      await app.getByRole('button', { name: 'この変更を適用' }).click()
      const refused = app.getByRole('alert').filter({ hasText: 'APIキーが受け付けられませんでした' })
      await refused.getByRole('button', { name: 'キーを置き換える…' }).click()
      const dialog = app.getByRole('dialog', { name: '「ショップ」の API キーを置き換える' })
      await expect(dialog).toContainText('この画面はそのままで')
      await dialog.getByLabel('新しいAPIキー').fill(sb.keys.full)
      await dialog.getByRole('button', { name: 'キーを置き換え' }).click()
      await expect(dialog).toBeHidden()
      await expect(raw).toHaveValue(/typed-in-japanese/)

      // Left for another screen before it is saved: offered back in Japanese.
      await app.evaluate(() => (location.hash = '#/domains'))
      await expect(app.getByRole('heading', { level: 1, name: 'ドメイン' })).toBeVisible()
      await openZone(app, d.domainname)
      const offer = app.getByRole('status').filter({ hasText: 'このゾーンへの未保存の変更を保持しています' })
      await offer.getByRole('button', { name: '保持していた変更を復元する' }).click()
      await app.getByRole('button', { name: '変更を確認…' }).click()
      await app.getByRole('button', { name: 'この変更を適用' }).click()
      await expect.poll(() => d.dns.svc1.records).toContain('txt _verify typed-in-japanese')
    } finally {
      await sb.close()
    }
  })
})

test.describe('in Japanese, the service’s own words', () => {
  test('a message the service is known to send is explained in Japanese, its words kept beside', async ({
    app,
    harness,
  }) => {
    await harness.demo()
    await inJapanese(app)
    // A domain this account does not hold: the service answers 400 "domainname is invalid." (recorded).
    await app.evaluate(() => (location.hash = '#/dns/not-held-here.example'))
    const banner = app.getByRole('alert').filter({ hasText: 'サービスがリクエストを拒否しました' })
    await expect(banner).toContainText('このアカウントではサービスがこのドメインを見つけられません。')
    await expect(banner.locator('.service-message')).toHaveText('サービスからのメッセージ: domainname is invalid.')
    await snap(app, 'service-message-ja')
  })
})

const lockable = new LockableKeychain()

test.describe('in Japanese, a locked keyring', () => {
  test.use({ harnessOptions: { keychain: lockable } })

  test('is said once, as locked (not as a lost key), with one retry', async ({ app, harness }) => {
    const other = await startSandbox({ domains: 5 })
    try {
      const acct = await harness.services.accounts.create(profileFor(other, '保管'), other.keys.full, 'keychain')
      await harness.services.accounts.setActive(acct.id)
      lockable.locked = true
      await inJapanese(app)
      await app.getByRole('navigation').getByRole('link', { name: 'ドメイン', exact: true }).click()
      await expect(app.getByRole('heading', { name: 'ドメイン', level: 1 })).toBeVisible()
      const locked = app.getByRole('alert').filter({ hasText: 'キーリングのロックを解除してから' })
      await expect(locked).toHaveCount(1)
      await expect(locked).toContainText('置き換える必要はありません')
      await expect(app.getByRole('alert')).toHaveCount(1)
      lockable.locked = false
      await locked.getByRole('button', { name: '再試行' }).click()
      await expect(app.getByRole('alert')).toHaveCount(0)
      await expect(app.getByRole('link', { name: other.state.domains[0]!.domainname, exact: true })).toBeVisible()
    } finally {
      lockable.locked = false
      await other.close()
    }
  })
})

test.describe('in Japanese, an unsaved form', () => {
  test('WHOIS left for another screen is offered back, then saved', async ({ app, harness }) => {
    const sb = await harness.demo()
    await inJapanese(app)
    const d = sb.state.domains[5]!
    const openWhois = async () => {
      await app.evaluate((hash) => (location.hash = hash), `#/domains/${d.domainname}`)
      await expect(app.getByRole('heading', { level: 1, name: d.domainname })).toBeVisible()
      await app.getByRole('tab', { name: 'WHOIS', exact: true }).click()
      return app.getByRole('tabpanel', { name: 'WHOIS' })
    }
    let panel = await openWhois()
    await panel.getByRole('group', { name: '登録者' }).getByLabel('市区町村').fill('Marunouchi')
    await app.evaluate(() => (location.hash = '#/domains'))
    await expect(app.getByRole('heading', { level: 1, name: 'ドメイン' })).toBeVisible()
    panel = await openWhois()
    const offer = panel.getByRole('status').filter({ hasText: 'このフォームへの未保存の変更を保持しています' })
    await offer.getByRole('button', { name: '保持していた変更を復元する' }).click()
    await expect(panel.getByRole('group', { name: '登録者' }).getByLabel('市区町村')).toHaveValue('Marunouchi')
    await panel.getByRole('button', { name: '保存' }).click()
    await expect(app.getByRole('status').filter({ hasText: 'WHOISを保存しました。' })).toBeVisible()
    await expect.poll(() => d.contact.registrant.city).toBe('Marunouchi')
  })
})
