/**
 * The WHOIS and DNSSEC tabs of a domain: the WHOIS error count matches the fields on screen,
 * DNSSEC algorithms and digest types by name with a whole DS line pasted in, and both tabs
 * showing a read that hangs (loading, slow, cancel, retry) and filling their form from the retry.
 */
import type { Locator } from '@playwright/test'
import type { Sandbox } from '../../src/sandbox'
import { openDomain } from './domain-screens'
import { expect, reloadInLanguage, snap, test } from './fixtures'
import { z } from 'zod'
import { sentBody } from '../helpers/sent-body'

const last = (sb: Sandbox, endpoint: string) => sb.received.filter((r) => r.endpoint === endpoint).at(-1)

/** A paste as the browser delivers it: a paste event carrying the text on its clipboard data. */
async function paste(field: Locator, text: string) {
  await field.focus()
  await field.evaluate((el, value) => {
    const data = new DataTransfer()
    data.setData('text/plain', value)
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
  }, text)
}

const DIGEST_256 = '2BB183AF5F22588179A53B0A98631FAD1A292118D8F2E3A2FD8AC0E1A4B06E0A'
const DIGEST_384 = '0A5C8DD5D8D8B3C0A1E7F0B2A4CE3C1B9D7E5F3A1C2B4D6E8F0A1B2C3D4E5F6A7B8C9D0E1F2A3B4C5D6E7F8091A2B3C4'

test('WHOIS: the count of fields to fix is the count of fields marked on screen', async ({ app, harness }) => {
  const sb = await harness.demo()
  // Seeded contacts: admin, tech and billing are copies of the registrant, shown as "same as registrant".
  const d = sb.state.domains[4]!
  const panel = await openDomain(app, d.domainname, 'WHOIS')
  const registrant = panel.getByRole('group', { name: 'Registrant' })
  const admin = panel.getByRole('group', { name: 'Administrative contact' })
  await expect(admin.getByLabel('Same as registrant')).toBeChecked()
  await registrant.getByLabel('Phone').fill('03-1234-5678')
  await panel.getByRole('button', { name: 'Save' }).click()
  const marked = panel.locator('input[aria-invalid="true"]')
  // One field is wrong on screen; the three hidden copies of it are not counted again.
  await expect(panel.getByRole('alert')).toHaveText('1 field needs attention; it is marked above.')
  await expect(marked).toHaveCount(1)
  await expect(marked).toBeFocused()
  expect(last(sb, 'domains.whois.set')).toBeUndefined()
  await snap(app, 'whois-count-one')

  // The admin contact shown on its own: its copy of the phone is on screen, and counted.
  await admin.getByLabel('Same as registrant').uncheck()
  await expect(admin.getByLabel('Phone')).toHaveValue('03-1234-5678')
  await expect(panel.getByRole('alert')).toHaveText('2 fields need attention; they are marked above.')
  await expect(marked).toHaveCount(2)
  await registrant.getByLabel('Phone').fill('+81.312345678')
  await expect(panel.getByRole('alert')).toHaveText('1 field needs attention; it is marked above.')
  await expect(marked).toHaveCount(1)
  await admin.getByLabel('Phone').fill('+81.398765432')
  await expect(panel.getByRole('alert')).toHaveCount(0)
  await panel.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'WHOIS saved.' })).toBeVisible()
  expect(last(sb, 'domains.whois.set')?.body).toMatchObject({
    contact: {
      registrant: { phone: '+81.312345678' },
      admin: { phone: '+81.398765432' },
      tech: { phone: '+81.312345678' },
    },
  })
})

test('WHOIS: a read that hangs shows loading, then slow, can be cancelled, and the retry fills the form', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = sb.state.domains[3]!
  await openDomain(app, d.domainname, 'Overview')
  // Every read of the overview answered first: the hang is for the tab's own read.
  await expect.poll(() => sb.received.filter((r) => r.status === 0).length).toBe(0)
  sb.faults.inject('domains.whois.get', { hang: true })
  await app.getByRole('tab', { name: 'WHOIS', exact: true }).click()
  const panel = app.getByRole('tabpanel', { name: 'WHOIS', exact: true })
  const status = panel.getByRole('status')
  await expect(status).toContainText('Loading…')
  await expect(status).toContainText('This is taking longer than usual.')
  await panel.getByRole('button', { name: 'Cancel' }).click()
  const alert = panel.getByRole('alert')
  await expect(alert).toContainText('Cancelled')
  sb.faults.clear()
  await alert.getByRole('button', { name: 'Retry' }).click()
  await expect(panel.getByRole('group', { name: 'Registrant' }).getByLabel('Last name')).toHaveValue(
    d.contact.registrant.lastname,
  )
  await expect(panel.getByRole('alert')).toHaveCount(0)
})

test('DNSSEC: a read that hangs shows loading, then slow, can be cancelled, and the retry shows the DS records read', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = sb.state.domains.find((x) => x.ds.length === 1)!
  await openDomain(app, d.domainname, 'Overview')
  // Every read of the overview answered first: the hang is for the tab's own read.
  await expect.poll(() => sb.received.filter((r) => r.status === 0).length).toBe(0)
  sb.faults.inject('domains.dnssec.get', { hang: true })
  await app.getByRole('tab', { name: 'DNSSEC', exact: true }).click()
  const panel = app.getByRole('tabpanel', { name: 'DNSSEC', exact: true })
  const status = panel.getByRole('status')
  await expect(status).toContainText('Loading…')
  await expect(status).toContainText('This is taking longer than usual.')
  await expect(panel.getByRole('button', { name: 'Save' })).toHaveCount(0)
  await snap(app, 'dnssec-slow')
  await panel.getByRole('button', { name: 'Cancel' }).click()
  sb.faults.clear()
  await panel.getByRole('alert').getByRole('button', { name: 'Retry' }).click()
  // The records of the retry, not an empty list that a save would send as "no DS records".
  const rec = panel.getByRole('group', { name: 'DS record 1' })
  await expect(rec.getByLabel('Key tag')).toHaveValue(String(d.ds[0]!.keytag))
  await expect(rec.getByLabel('Algorithm').locator('option:checked')).toHaveText('13 — ECDSAP256SHA256')
  await expect(rec.getByLabel('Digest type').locator('option:checked')).toHaveText('2 — SHA-256')
})

test('DNSSEC: algorithms and digest types by name, a pasted DS line fills the fields, and RFC 8624 advice', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = sb.state.domains.find((x) => x.ds.length === 0)!
  const panel = await openDomain(app, d.domainname, 'DNSSEC')
  await expect(panel).toContainText('This domain has no DS records.')
  await panel.getByRole('button', { name: 'Add a DS record' }).click()
  const first = panel.getByRole('group', { name: 'DS record 1' })
  // The line field is focused, ready for a paste.
  await expect(first.getByLabel('Whole DS line')).toBeFocused()
  const algorithms = await first.getByLabel('Algorithm').locator('option').allTextContents()
  for (const name of [
    '8 — RSASHA256',
    '13 — ECDSAP256SHA256',
    '14 — ECDSAP384SHA384',
    '15 — ED25519',
    '16 — ED448',
    '5 — RSASHA1 (not recommended)',
    '1 — RSAMD5 (must not be used)',
  ]) {
    expect(algorithms).toContain(name)
  }
  expect(await first.getByLabel('Digest type').locator('option').allTextContents()).toEqual([
    '1 — SHA-1 (must not be used)',
    '2 — SHA-256',
    '4 — SHA-384',
  ])

  await paste(first.getByLabel('Whole DS line'), `12345 8 2 ${DIGEST_256}`)
  await expect(first.getByLabel('Key tag')).toHaveValue('12345')
  await expect(first.getByLabel('Algorithm').locator('option:checked')).toHaveText('8 — RSASHA256')
  await expect(first.getByLabel('Digest type').locator('option:checked')).toHaveText('2 — SHA-256')
  await expect(first.getByLabel('Digest (hex)')).toHaveValue(DIGEST_256)
  await expect(panel.getByRole('status').filter({ hasText: 'DS record 1 filled from the pasted line.' })).toBeVisible()

  // Two records as a DNS operator hands them over, pasted into the key tag of a new record.
  await panel.getByRole('button', { name: 'Add a DS record' }).click()
  const second = panel.getByRole('group', { name: 'DS record 2' })
  await paste(
    second.getByLabel('Key tag'),
    `${d.domainname}. 3600 IN DS 2371 ECDSAP256SHA256 2 ${DIGEST_256.slice(0, 32)} ${DIGEST_256.slice(32)}\n${d.domainname}. 3600 IN DS 2371 13 4 (\n  ${DIGEST_384.slice(0, 48)}\n  ${DIGEST_384.slice(48)} )`,
  )
  await expect(second.getByLabel('Key tag')).toHaveValue('2371')
  await expect(second.getByLabel('Algorithm').locator('option:checked')).toHaveText('13 — ECDSAP256SHA256')
  const third = panel.getByRole('group', { name: 'DS record 3' })
  await expect(third.getByLabel('Digest type').locator('option:checked')).toHaveText('4 — SHA-384')
  await expect(third.getByLabel('Digest (hex)')).toHaveValue(DIGEST_384)
  await expect(
    panel.getByRole('status').filter({ hasText: '2 DS records filled from the pasted lines.' }),
  ).toBeVisible()

  // A line that is not a DS record says so, and changes nothing.
  const line = third.getByLabel('Whole DS line')
  await line.fill('2371 13 two ABC')
  await line.press('Enter')
  await expect(third).toContainText('This is not a DS record')
  await expect(line).toHaveAttribute('aria-invalid', 'true')
  await expect(third.getByLabel('Key tag')).toHaveValue('2371')
  expect(last(sb, 'domains.dnssec.set')).toBeUndefined()

  // RFC 8624's advice when an algorithm or digest type should not be used.
  await first.getByLabel('Algorithm').selectOption({ label: '5 — RSASHA1 (not recommended)' })
  await expect(first).toContainText('RFC 8624: RSASHA1 is not recommended for DNSSEC signing.')
  await first.getByLabel('Digest type').selectOption('1')
  await expect(first).toContainText('RFC 8624: SHA-1 must not be used for new DS records')
  await snap(app, 'dnssec-named')
  await first.getByLabel('Algorithm').selectOption('8')
  await first.getByLabel('Digest type').selectOption('2')
  await expect(first.locator('.advice')).toHaveCount(0)

  await panel.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'DNSSEC saved.' })).toBeVisible()
  expect(sentBody(last(sb, 'domains.dnssec.set'), z.object({ ds_records: z.array(z.unknown()) })).ds_records).toEqual([
    { keytag: 12345, alg: 8, digesttype: 2, digest: DIGEST_256 },
    { keytag: 2371, alg: 13, digesttype: 2, digest: DIGEST_256 },
    { keytag: 2371, alg: 13, digesttype: 4, digest: DIGEST_384 },
  ])
})

test('WHOIS and DNSSEC in Japanese, and on a smaller window', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = sb.state.domains.find((x) => x.ds.length === 1)!
  await app.setViewportSize({ width: 1024, height: 640 })
  const ds = await openDomain(app, d.domainname, 'DNSSEC')
  await snap(app, 'dnssec-1024')
  await app.getByRole('tab', { name: 'WHOIS', exact: true }).click()
  const whois = app.getByRole('tabpanel', { name: 'WHOIS', exact: true })
  await whois.getByRole('group', { name: 'Registrant' }).getByLabel('Phone').fill('0312345678')
  await whois.getByRole('button', { name: 'Save' }).click()
  await expect(whois.getByRole('alert')).toHaveText('1 field needs attention; it is marked above.')
  await snap(app, 'whois-1024')
  void ds

  await reloadInLanguage(app, 'ja')
  const dsJa = await openDomain(app, d.domainname, 'DNSSEC', { domains: 'ドメイン', filter: '絞り込み' })
  const rec = dsJa.getByRole('group', { name: 'DSレコード 1' })
  await expect(rec.getByLabel('アルゴリズム').locator('option:checked')).toHaveText('13 — ECDSAP256SHA256')
  await dsJa.getByRole('button', { name: 'DSレコードを追加' }).click()
  const added = dsJa.getByRole('group', { name: 'DSレコード 2' })
  await added.getByLabel('アルゴリズム').selectOption('5')
  await expect(added.locator('.advice')).toContainText('RFC 8624: RSASHA1 はDNSSECの署名には推奨されません。')
  await paste(added.getByLabel('DSレコード1行分'), 'not a ds line')
  await expect(added).toContainText('DSレコードとして読めません。')
  await snap(app, 'dnssec-ja')
  await app.setViewportSize({ width: 1280, height: 800 })
  await snap(app, 'dnssec-ja-1280')

  await app.getByRole('tab', { name: 'WHOIS', exact: true }).click()
  const whoisJa = app.getByRole('tabpanel', { name: 'WHOIS', exact: true })
  await whoisJa.getByRole('group', { name: '登録者' }).getByLabel('電話').fill('03-1234-5678')
  await whoisJa.getByRole('button', { name: '保存' }).click()
  await expect(whoisJa.getByRole('alert')).toContainText('1 件の項目を確認してください')
  await snap(app, 'whois-ja')
})
