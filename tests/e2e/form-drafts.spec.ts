/**
 * Typed work in the smaller forms outlives a visit elsewhere (issue 27, point 1): a private
 * nameserver, dynamic DNS, an owner change, the register and transfer-in wizards, a new account,
 * a server's allocation and a service IP's settings. Each is offered back when its screen opens
 * again, until it is sent or discarded; a secret typed into one (a transfer code, an API key, a
 * dynamic DNS password) is never kept. The offer is walked in Japanese too.
 */
import type { Page } from '@playwright/test'
import { expect, reloadInLanguage, test } from './fixtures'
import { openDomain } from './domain-screens'

const OFFER = 'Your unsaved changes to this form'
const OFFER_NEW = 'What you typed into this form at'
const offer = (app: Page, text: string) => app.getByRole('status').filter({ hasText: text })

async function openScreen(app: Page, nav: string, heading: string) {
  await app.getByRole('navigation').getByRole('link', { name: nav, exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: heading })).toBeVisible()
}

test('a domain’s smaller forms keep typed work: a private nameserver, dynamic DNS and an owner change', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = sb.state.domains[4]!
  const host = `ns7.${d.domainname}`

  let panel = await openDomain(app, d.domainname, 'Private nameservers')
  await panel.getByRole('textbox', { name: 'Host name' }).fill(host)
  await panel.getByLabel('IPv4').fill('192.0.2.77')
  panel = await openDomain(app, d.domainname, 'Dynamic DNS')
  const ddnsOn = panel.getByLabel('Dynamic DNS on')
  const wasOn = await ddnsOn.isChecked()
  await ddnsOn.setChecked(!wasOn)
  await panel.getByLabel(/New password/).fill('typed-secret-pass-1')
  panel = await openDomain(app, d.domainname, 'Owner change')
  await panel.getByLabel('Destination user name').fill('someone-else')

  // Another screen, then each form again: as it starts, with the typed work offered.
  await openScreen(app, 'Service IPs', 'Service IPs')
  panel = await openDomain(app, d.domainname, 'Private nameservers')
  await expect(panel.getByRole('textbox', { name: 'Host name' })).toHaveValue('')
  await expect(offer(app, OFFER_NEW)).toContainText('Secrets (an API key, a transfer code, a password) are never kept')
  await offer(app, OFFER_NEW).getByRole('button', { name: 'Restore my changes' }).click()
  await expect(panel.getByRole('textbox', { name: 'Host name' })).toHaveValue(host)
  await expect(panel.getByLabel('IPv4')).toHaveValue('192.0.2.77')
  await panel.getByRole('button', { name: 'Add nameserver' }).click()
  await expect(panel.getByRole('row', { name: /ns7/ })).toContainText('192.0.2.77')
  expect(sb.received.filter((r) => r.endpoint === 'domains.privatenameserver.create').at(-1)?.body).toEqual({
    hostname: host,
    ipv4: '192.0.2.77',
  })

  // Dynamic DNS: the switch as the service holds it, the edit offered; the password was not kept.
  panel = await openDomain(app, d.domainname, 'Dynamic DNS')
  await expect(panel.getByLabel('Dynamic DNS on')).toBeChecked({ checked: wasOn })
  await expect(offer(app, OFFER)).toContainText('The form below is as the service holds it now.')
  await offer(app, OFFER).getByRole('button', { name: 'Restore my changes' }).click()
  await expect(panel.getByLabel('Dynamic DNS on')).toBeChecked({ checked: !wasOn })
  await expect(panel.getByLabel(/New password/)).toHaveValue('')

  // The owner change: discarded, and then not offered again; nothing was sent.
  panel = await openDomain(app, d.domainname, 'Owner change')
  await expect(panel.getByLabel('Destination user name')).toHaveValue('')
  await offer(app, OFFER_NEW).getByRole('button', { name: 'Discard them' }).click()
  await expect(offer(app, OFFER_NEW)).toHaveCount(0)
  panel = await openDomain(app, d.domainname, 'Private nameservers')
  await expect(panel.getByRole('textbox', { name: 'Host name' })).toHaveValue('')
  await expect(app.getByText(OFFER_NEW)).toHaveCount(0)
  panel = await openDomain(app, d.domainname, 'Owner change')
  await expect(panel.getByLabel('Destination user name')).toBeVisible()
  await expect(app.getByText(OFFER_NEW)).toHaveCount(0)
  expect(
    sb.received.some((r) => r.endpoint === 'domains.localtransfer.set' || r.endpoint === 'domains.dynamicdns.set'),
  ).toBe(false)
})

test('wizards and other screens keep typed work: register, transfer in, a new account, a server’s allocation, a service IP’s settings', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  await openScreen(app, 'Domains', 'Domains')
  await app.getByRole('link', { name: 'Register a domain' }).click()
  await app.getByLabel('Domain name').fill('kept-name.org')
  await app.getByRole('button', { name: 'Next' }).click()
  await app.getByLabel('Nameservers').fill('ns1.kept.example\nns2.kept.example')
  await app.getByRole('button', { name: 'Next' }).click()
  await app.getByRole('group', { name: 'Registrant' }).getByLabel('Last name').fill('Keptname')
  await openScreen(app, 'Domains', 'Domains')
  await app.getByRole('link', { name: 'Transfer a domain in' }).click()
  await app.getByLabel('Domain to transfer in').fill('kept-transfer.org')
  await app.getByLabel('Transfer code (authcode)').fill('PLANTED-CODE-1')
  await openScreen(app, 'Accounts & settings', 'Accounts & settings')
  const accountForm = app.getByRole('region', { name: 'Add an account' })
  await accountForm.getByLabel('Name', { exact: true }).fill('Kept account')
  await accountForm.getByLabel('API key').fill('planted-key-not-kept')
  const server = sb.state.servers.a[0]!
  await app.evaluate((hash) => (location.hash = hash), `#/servers/a/${server.webid}`)
  await expect(app.getByRole('heading', { level: 1, name: `Server ${server.webname}` })).toBeVisible()
  await app.getByRole('region', { name: 'Resources' }).getByLabel('New allocation').fill('42')
  const vip = sb.state.svcips[0]!
  await openScreen(app, 'Service IPs', 'Service IPs')
  await app.getByRole('table', { name: 'Service IPs' }).getByRole('link', { name: vip.vipname }).click()
  await expect(app.getByRole('heading', { level: 1, name: `Service IP ${vip.vipname}` })).toBeVisible()
  await app.getByRole('region', { name: 'Settings' }).getByLabel('Domain name').fill('kept.example.com')
  await openScreen(app, 'Web servers', 'Web servers')
  const create = app.getByRole('region', { name: 'Create a server (Web servers)' })
  await create.getByLabel('Server name').fill('keptserver')
  await openScreen(app, 'Free DNS', 'Free DNS')
  const freeDns = app.getByRole('region', { name: 'Add a domain held elsewhere' })
  await freeDns.getByLabel('Domain name').fill('kept-free.example')

  // Back on each: the form as it starts, the typed work offered and restored; no secret kept.
  await openScreen(app, 'Domains', 'Domains')
  await app.getByRole('link', { name: 'Register a domain' }).click()
  await expect(app.getByLabel('Domain name')).toHaveValue('')
  await offer(app, OFFER_NEW).getByRole('button', { name: 'Restore my changes' }).click()
  await expect(app.getByLabel('Domain name')).toHaveValue('kept-name.org')
  await app.getByRole('button', { name: 'Next' }).click()
  await expect(app.getByLabel('Nameservers')).toHaveValue('ns1.kept.example\nns2.kept.example')
  await app.getByRole('button', { name: 'Next' }).click()
  await expect(app.getByRole('group', { name: 'Registrant' }).getByLabel('Last name')).toHaveValue('Keptname')

  await openScreen(app, 'Domains', 'Domains')
  await app.getByRole('link', { name: 'Transfer a domain in' }).click()
  await offer(app, OFFER_NEW).getByRole('button', { name: 'Restore my changes' }).click()
  await expect(app.getByLabel('Domain to transfer in')).toHaveValue('kept-transfer.org')
  await expect(app.getByLabel('Transfer code (authcode)')).toHaveValue('')

  await openScreen(app, 'Accounts & settings', 'Accounts & settings')
  await offer(app, OFFER_NEW).getByRole('button', { name: 'Restore my changes' }).click()
  await expect(accountForm.getByLabel('Name', { exact: true })).toHaveValue('Kept account')
  await expect(accountForm.getByLabel('API key')).toHaveValue('')

  await app.evaluate((hash) => (location.hash = hash), `#/servers/a/${server.webid}`)
  const resources = app.getByRole('region', { name: 'Resources' })
  await expect(resources.getByLabel('New allocation')).toHaveValue('0')
  await offer(app, OFFER_NEW).getByRole('button', { name: 'Restore my changes' }).click()
  await expect(resources.getByLabel('New allocation')).toHaveValue('42')

  await openScreen(app, 'Service IPs', 'Service IPs')
  await app.getByRole('table', { name: 'Service IPs' }).getByRole('link', { name: vip.vipname }).click()
  const settings = app.getByRole('region', { name: 'Settings' })
  await expect(settings.getByLabel('Domain name')).toHaveValue(vip.domainname)
  await offer(app, OFFER).getByRole('button', { name: 'Restore my changes' }).click()
  await expect(settings.getByLabel('Domain name')).toHaveValue('kept.example.com')
  await settings.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible()
  await openScreen(app, 'Web servers', 'Web servers')
  await expect(create.getByLabel('Server name')).toHaveValue('')
  await create
    .getByRole('status')
    .filter({ hasText: OFFER_NEW })
    .getByRole('button', { name: 'Restore my changes' })
    .click()
  await expect(create.getByLabel('Server name')).toHaveValue('keptserver')
  await openScreen(app, 'Free DNS', 'Free DNS')
  await freeDns
    .getByRole('status')
    .filter({ hasText: OFFER_NEW })
    .getByRole('button', { name: 'Restore my changes' })
    .click()
  await expect(freeDns.getByLabel('Domain name')).toHaveValue('kept-free.example')

  // Saved: nothing offered when the screen opens again.
  await openScreen(app, 'Service IPs', 'Service IPs')
  await app.getByRole('table', { name: 'Service IPs' }).getByRole('link', { name: vip.vipname }).click()
  await openScreen(app, 'Service IPs', 'Service IPs')
  await app.getByRole('table', { name: 'Service IPs' }).getByRole('link', { name: vip.vipname }).click()
  await expect(app.getByRole('region', { name: 'Settings' }).getByLabel('Domain name')).toHaveValue('kept.example.com')
  await expect(app.getByText(OFFER)).toHaveCount(0)
  expect(sb.received.filter((r) => r.method !== 'GET').map((r) => r.endpoint)).toEqual(['svcips.setting.set'])
})

test('in Japanese: a wizard’s typed work is offered back in the user’s words', async ({ app, harness }) => {
  await harness.demo()
  await reloadInLanguage(app, 'ja')
  await openScreen(app, 'ドメイン', 'ドメイン')
  await app.getByRole('link', { name: 'ドメインを登録' }).click()
  await app.getByLabel('ドメイン名').fill('kept-in-japanese.jp')
  await openScreen(app, 'ドメイン', 'ドメイン')
  await app.getByRole('link', { name: 'ドメインを登録' }).click()
  const kept = app.getByRole('status').filter({ hasText: 'にこのフォームへ入力して送信していない内容を保持しています' })
  await expect(kept).toContainText('秘密の値（API キー、移管コード、パスワード）は保持しない')
  await kept.getByRole('button', { name: '保持していた変更を復元する' }).click()
  await expect(app.getByLabel('ドメイン名')).toHaveValue('kept-in-japanese.jp')
})
