/**
 * History keeps what changed, in words (issue 39, point 4), at 1024x700: a save of the zone's
 * TTL alone, a server extension (opened by an old link with its id) and dynamic DNS turned on
 * are each a row that says before → after in words, in English and in Japanese; the server is
 * named as the Servers screen names it and its link, reached by keyboard, opens its page.
 */
import type { Page } from '@playwright/test'
import { expect, reloadInLanguage, snap, test } from './fixtures'
import { expectNoAxeViolationsIn } from './axe'
import { openZone, svc1Domain } from './dns-screens'
import { openDomain } from './domain-screens'

/** A YYYY-MM-DD date as the window shows it in that language. */
const shown = (iso: string, locale: string) => {
  const [y, m, d] = iso.split('-').map(Number)
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(y!, m! - 1, d!))
}

/** Follows a link as a keyboard user does: focused, then Enter. */
async function followByKeyboard(app: Page, link: ReturnType<Page['getByRole']>) {
  await link.focus()
  await expect(link).toBeFocused()
  await app.keyboard.press('Enter')
}

test('a TTL change, a server extension and dynamic DNS are history rows in words, with a working server link, in English and Japanese', async ({
  app,
  harness,
}) => {
  test.setTimeout(120_000)
  await app.setViewportSize({ width: 1024, height: 700 })
  const sb = await harness.demo()

  // The zone's TTL alone, from the DNS editor.
  const zoneDomain = svc1Domain(sb)
  const ttlBefore = zoneDomain.dns.svc1.ttl
  const ttlAfter = ttlBefore === 600 ? 900 : 600
  await openZone(app, zoneDomain.domainname)
  await app.getByLabel('TTL', { exact: true }).fill(String(ttlAfter))
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await app.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(
    app.getByRole('status').filter({ hasText: `The records of ${zoneDomain.domainname} were saved.` }),
  ).toBeVisible()
  expect(zoneDomain.dns.svc1.ttl).toBe(ttlAfter)

  // Dynamic DNS on, for a domain where it is off.
  const ddnsDomain = sb.state.domains.find((d) => d !== zoneDomain)!
  ddnsDomain.dynamicdns = 0
  const ddns = await openDomain(app, ddnsDomain.domainname, 'Dynamic DNS')
  await ddns.getByLabel('Dynamic DNS on').check()
  await ddns.getByRole('button', { name: 'Generate' }).click()
  await ddns.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Dynamic DNS is on.' })).toBeVisible()

  // A server extension, the page opened by an old link with the server's id.
  const server = sb.state.servers.a[0]!
  const expiryBefore = server.expirationdate
  await app.evaluate((hash) => (location.hash = hash), `#/servers/a/${server.webid}`)
  await expect(app.getByRole('heading', { level: 1, name: `Server ${server.webname}` })).toBeVisible()
  const expiration = app.getByRole('region', { name: 'Expiration' })
  await expiration.getByLabel('Extend by (months)').fill('3')
  await expiration.getByRole('button', { name: 'Extend…' }).click()
  await app.getByRole('dialog').getByRole('button', { name: 'Extend' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Extended. The new expiration date is' })).toBeVisible()
  const expiryAfter = server.expirationdate
  expect(expiryAfter).not.toBe(expiryBefore)

  // The account's activity: each row in words, newest first.
  await app
    .getByRole('navigation')
    .getByRole('link', { name: /^Activity/ })
    .click()
  const rows = app.locator('.history-list > li')
  const extension = rows.filter({ hasText: 'Expiration date:' }).first()
  await expect(extension).toContainText(`Expiration date: ${shown(expiryBefore, 'en')} → ${shown(expiryAfter, 'en')}`)
  await expect(extension.getByRole('link', { name: `${server.webname} (Web servers)` })).toBeVisible()
  await expect(rows.filter({ hasText: ddnsDomain.domainname }).first()).toContainText('Dynamic DNS: off → on')
  const ttlRow = rows.filter({ hasText: 'TTL of the whole zone' }).first()
  await expect(ttlRow).toContainText(
    `TTL of the whole zone: ${ttlBefore.toLocaleString('en')} seconds → ${ttlAfter.toLocaleString('en')} seconds`,
  )
  await expect(ttlRow.getByRole('link', { name: zoneDomain.domainname })).toBeVisible()
  // No dash for a value the app knows, and no raw server reference.
  await expect(rows.filter({ hasText: '→ —' })).toHaveCount(0)
  await expect(rows.filter({ hasText: `a:${server.webid}` })).toHaveCount(0)
  expect(await app.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(
    true,
  )
  await expectNoAxeViolationsIn(app, 'main', 'the account’s activity, rows in words, at 1024x700')
  await snap(app, 'history-words-1024')

  // The server's link opens its page, by keyboard.
  await followByKeyboard(app, extension.getByRole('link', { name: `${server.webname} (Web servers)` }))
  await expect(app.getByRole('heading', { level: 1, name: `Server ${server.webname}` })).toBeVisible()

  // In Japanese.
  await reloadInLanguage(app, 'ja')
  await app
    .getByRole('navigation')
    .getByRole('link', { name: /^アクティビティ/ })
    .click()
  await expect(app.getByRole('heading', { level: 1, name: 'アクティビティ' })).toBeVisible()
  const rowsJa = app.locator('.history-list > li')
  const extensionJa = rowsJa.filter({ hasText: '有効期限:' }).first()
  await expect(extensionJa).toContainText(`有効期限: ${shown(expiryBefore, 'ja-JP')} → ${shown(expiryAfter, 'ja-JP')}`)
  await expect(rowsJa.filter({ hasText: ddnsDomain.domainname }).first()).toContainText('ダイナミックDNS: オフ → オン')
  await expect(rowsJa.filter({ hasText: 'ゾーン全体の TTL' }).first()).toContainText(
    `ゾーン全体の TTL: ${ttlBefore} 秒 → ${ttlAfter} 秒`,
  )
  const serverLinkJa = extensionJa.getByRole('link', { name: `${server.webname}（Webサーバー）` })
  await expect(serverLinkJa).toBeVisible()
  expect(await app.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(
    true,
  )
  await expectNoAxeViolationsIn(app, 'main', 'the account’s activity in Japanese, rows in words, at 1024x700')
  await snap(app, 'history-words-ja-1024')
  await followByKeyboard(app, serverLinkJa)
  await expect(app.getByRole('heading', { level: 1, name: `サーバー ${server.webname}` })).toBeVisible()
})
