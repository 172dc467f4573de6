/**
 * In Japanese, the messages that come from outside the screen's own code are Japanese too:
 * a DNS record check, a DS digest check and a contact check (the shared rules send codes) and
 * an API error (the main process sends a code). Only the service's own words, quoted apart,
 * may be in the language the service speaks.
 */
import type { Locator } from '@playwright/test'
import { expect, reloadInLanguage, snap, test } from './fixtures'
import { openDomain } from './domain-screens'

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/
/** Three English words in a row: a sentence that was not translated. */
const ENGLISH_SENTENCE = /\b[A-Za-z]{2,}\s+[a-z]{2,}\s+[a-z]{2,}\b/

async function expectJapanese(where: Locator) {
  await expect(where).toBeVisible()
  const text = (await where.innerText()).trim()
  expect(text, 'the message is empty').not.toBe('')
  expect(text, `not Japanese: ${text}`).toMatch(JAPANESE)
  expect(text, `English left in: ${text}`).not.toMatch(ENGLISH_SENTENCE)
}

test('validation messages and an API error are in Japanese, not English', async ({ app, harness }) => {
  const sb = await harness.demo()
  await reloadInLanguage(app, 'ja')
  const svc1 = sb.state.domains.find((d) => d.ns[0] === 'ns1.svc1.example.net')!

  // A DNS record check (shared/dns/validate.ts sends a code).
  await app.getByRole('navigation').getByRole('link', { name: 'DNS', exact: true }).click()
  await app.getByLabel('絞り込み').fill(svc1.domainname)
  await app.getByRole('link', { name: svc1.domainname, exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: `${svc1.domainname} のDNSレコード` })).toBeVisible()
  const firstValue = app.getByLabel('1 行目の値', { exact: true })
  await firstValue.fill('192.0.2.300')
  await firstValue.press('Tab')
  const row = app.locator('table.records tr.invalid').first()
  await expectJapanese(row.locator('small.bad').first())
  await expect(row.locator('small.bad').first()).toContainText('192.0.2.300')

  // A DS digest check (shared/service/validation.ts).
  const d = sb.state.domains[6]!
  const ds = await openDomain(app, d.domainname, 'DNSSEC', { domains: 'ドメイン', filter: '絞り込み' })
  await ds.getByRole('button', { name: 'DSレコードを追加' }).click()
  const rec = ds.getByRole('group').last()
  await rec.getByLabel('ダイジェストタイプ').selectOption('2')
  await rec.getByLabel('ダイジェスト(16進)').fill('abc')
  await expectJapanese(rec.locator('small.bad'))

  // A contact check (shared/service/validation.ts), shown after a save is tried.
  await app.getByRole('tab', { name: 'WHOIS', exact: true }).click()
  const whois = app.getByRole('tabpanel', { name: 'WHOIS', exact: true })
  const registrant = whois.getByRole('group', { name: '登録者' })
  await registrant.getByLabel('電話').fill('03-1234-5678')
  await whois.getByRole('button', { name: '保存' }).click()
  await expectJapanese(registrant.locator('small.bad').first())
  expect(sb.received.some((r) => r.endpoint === 'domains.whois.set')).toBe(false)

  // An API error (the HTTP client sends a kind and a code): our words are Japanese; the
  // service's own message is quoted apart and may be in its language.
  sb.faults.inject('domains.get', { status: 500, times: 1 })
  await app.getByRole('tab', { name: '概要', exact: true }).click()
  const banner = app.getByRole('tabpanel').getByRole('alert')
  await expect(banner).toContainText(/req-/)
  await expectJapanese(banner.locator('strong'))
  await expectJapanese(banner.locator('p').first())
  await expect(banner.locator('.service-message')).toContainText('Internal Server Error')
  await snap(app, 'japanese-api-error')
})

test('an account’s server kinds left at their defaults, and the add-account form’s placeholders, are in Japanese', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const labels = { a: 'Web servers', b: 'Managed servers', c: 'Cloud servers' } as const
  const acct = await harness.services.accounts.create(
    {
      name: '本番',
      baseUrl: sb.url,
      serverKinds: {
        a: { path: sb.serverPaths.a, label: labels.a },
        b: { path: sb.serverPaths.b, label: labels.b },
        c: { path: sb.serverPaths.c, label: 'Hosting' },
      },
      nsTypes: { svc1: { word: 'svc1', label: 'svc1' }, svc11: { word: 'svc11', label: 'svc11' } },
      timeoutMs: 30_000,
      colour: 'slate',
      environment: 'none',
      readOnly: false,
    },
    sb.keys.full,
    'session',
  )
  await harness.services.accounts.setActive(acct.id)
  await reloadInLanguage(app, 'ja')
  const nav = app.getByRole('navigation')
  await expect(nav.getByRole('link', { name: 'Webサーバー', exact: true })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'マネージドサーバー', exact: true })).toBeVisible()
  // A name the user gave is the user's.
  await expect(nav.getByRole('link', { name: 'Hosting', exact: true })).toBeVisible()
  await nav.getByRole('link', { name: 'アカウントと設定' }).click()
  const form = app.locator('form').filter({ has: app.locator('#account-name') })
  // The server kinds are among the advanced settings, folded until asked for.
  await form.getByText('詳細設定', { exact: true }).click()
  const labelFields = form.getByRole('textbox', { name: /表示名/ })
  await expect(labelFields.first()).toHaveAttribute('placeholder', 'Webサーバー')
})
