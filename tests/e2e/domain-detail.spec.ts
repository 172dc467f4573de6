/**
 * Every tab of the domain detail, checked against what the sandbox received.
 */
import type { Sandbox } from '../../src/sandbox'
import { expect, snap, test } from './fixtures'
import { expectNoAxeViolations } from './axe'
import { openDomain } from './domain-screens'
import { z } from 'zod'
import { sentBody } from '../helpers/sent-body'

const last = (sb: Sandbox, endpoint: string) => sb.received.filter((r) => r.endpoint === endpoint).at(-1)

test('overview, renewal confirmed with the domain, years and new date, and auto-renewal', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = sb.state.domains[2]!
  const overview = await openDomain(app, d.domainname, 'Overview')
  await expect(overview).toContainText(d.registrar)
  for (const ns of d.ns) await expect(overview).toContainText(ns)
  await snap(app, 'domain-overview')
  await expectNoAxeViolations(app, 'domain tab Overview')

  const exp = await (async () => {
    await app.getByRole('tab', { name: 'Expiration' }).click()
    return app.getByRole('tabpanel', { name: 'Expiration' })
  })()
  await expectNoAxeViolations(app, 'domain tab Expiration')
  await exp.getByLabel('Years').selectOption('3')
  await exp.getByRole('button', { name: 'Renew for 3 years…' }).click()
  const dialog = app.getByRole('dialog')
  await expect(dialog).toContainText(`Renew ${d.domainname} by 3 years. Its expiration date moves from`)
  await dialog.getByRole('button', { name: 'Renew for 3 years' }).click()
  await expect(app.getByRole('status').filter({ hasText: `${d.domainname} renewed` })).toBeVisible()
  expect(last(sb, 'domains.expiration.renew')).toMatchObject({
    method: 'PUT',
    path: '/v1/domains/expiration',
    body: { domain: d.domainname, years: 3 },
  })

  await app.getByRole('tab', { name: 'Auto-renewal' }).click()
  const auto = app.getByRole('tabpanel', { name: 'Auto-renewal' })
  await expect(auto.getByLabel('Renew this domain automatically')).toBeVisible()
  await expectNoAxeViolations(app, 'domain tab Auto-renewal')
  await auto.getByLabel('Renew this domain automatically').setChecked(!d.autorenew_domain)
  // On is sent as the number the service itself writes for it in this account (10).
  const wanted = d.autorenew_domain ? 0 : 10
  await auto.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Auto-renewal saved.' })).toBeVisible()
  expect(last(sb, 'domains.autorenew.set')?.body).toMatchObject({ autorenew_domain: wanted })
})

test('the years control offers only 1 to 9', async ({ app, harness }) => {
  const sb = await harness.demo()
  const panel = await openDomain(app, sb.state.domains[1]!.domainname, 'Expiration')
  const options = await panel.getByLabel('Years').locator('option').allTextContents()
  expect(options).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9'])
})

test('transfer lock: unlock, and the transfer code only on request', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = sb.state.domains.find((x) => x.transfer_lock === 1)!
  const panel = await openDomain(app, d.domainname, 'Transfer lock')
  await expect(panel.getByLabel('Transfer code (authcode)')).toHaveCount(0)
  await expectNoAxeViolations(app, 'domain tab Transfer lock')
  await expect(panel).not.toContainText(d.authcode)
  await panel.getByRole('button', { name: 'Show transfer code' }).click()
  await expect(panel.getByLabel('Transfer code (authcode)')).toHaveValue(d.authcode)
  await panel.getByRole('button', { name: 'Unlock transfers' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Transfers are unlocked.' })).toBeVisible()
  expect(last(sb, 'domains.transferlock.set')?.body).toEqual({ transfer_lock: 0 })
  expect(d.transfer_lock).toBe(0)
})

test('WHOIS: validation explains itself; a failed save keeps the input and shows the request ID; then it saves', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = sb.state.domains[4]!
  const panel = await openDomain(app, d.domainname, 'WHOIS')
  const registrant = panel.getByRole('group', { name: 'Registrant' })
  await expect(registrant.getByLabel('Phone')).toBeVisible()
  await expectNoAxeViolations(app, 'domain tab WHOIS')
  await registrant.getByLabel('Phone').fill('03-1234-5678')
  await registrant.getByLabel('Country code').fill('jp')
  await registrant.getByLabel('City').fill('千代田区')
  await panel.getByRole('button', { name: 'Save' }).click()
  await expect(registrant).toContainText('Write it as +<country code>.<number>')
  await expect(registrant).toContainText('Use a two-letter country code in capitals')
  await expect(registrant).toContainText('Use alphabetic characters only')
  expect(last(sb, 'domains.whois.set')).toBeUndefined()
  await snap(app, 'domain-whois-invalid')

  await registrant.getByLabel('Phone').fill('+81.312345678')
  await registrant.getByLabel('Country code').fill('JP')
  await registrant.getByLabel('City').fill('Chiyoda-ku')
  await registrant.getByLabel('Organization').fill('Example Holdings')
  sb.faults.inject('domains.whois.set', { status: 500, times: 1 })
  await panel.getByRole('button', { name: 'Save' }).click()
  await expect(panel.getByRole('alert').filter({ hasText: 'internal error' })).toContainText(/Request ID: req-/)
  await expect(registrant.getByLabel('Organization')).toHaveValue('Example Holdings')
  await expect(registrant.getByLabel('City')).toHaveValue('Chiyoda-ku')

  await panel.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'WHOIS saved.' })).toBeVisible()
  const sent = last(sb, 'domains.whois.set')!
  expect(sent).toMatchObject({ method: 'PUT', path: '/v1/domains/whois' })
  expect(sent.body).toMatchObject({
    domain: d.domainname,
    contact: { registrant: { organization: 'Example Holdings', city: 'Chiyoda-ku', phone: '+81.312345678' } },
  })
  // Same-as-registrant roles followed the registrant.
  expect(
    sentBody(sent, z.object({ contact: z.object({ admin: z.object({ organization: z.string() }) }) })).contact.admin
      .organization,
  ).toBe('Example Holdings')
  expect(d.contact.registrant.organization).toBe('Example Holdings')
})

test('WHOIS: a change made elsewhere after loading is shown, and the user decides', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = sb.state.domains[6]!
  const panel = await openDomain(app, d.domainname, 'WHOIS')
  await panel.getByRole('group', { name: 'Registrant' }).getByLabel('Organization').fill('Mine Ltd')
  // Someone else changes it directly at the service.
  d.contact.registrant.organization = 'Theirs Inc'
  await panel.getByRole('button', { name: 'Save' }).click()
  const conflict = panel.getByRole('alert').filter({ hasText: 'Changed since you opened it' })
  await expect(conflict).toContainText('Theirs Inc')
  await expect(conflict).toContainText('Mine Ltd')
  expect(last(sb, 'domains.whois.set')).toBeUndefined()
  await snap(app, 'domain-whois-conflict')
  await conflict.getByRole('button', { name: 'Save mine anyway' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'WHOIS saved.' })).toBeVisible()
  expect(d.contact.registrant.organization).toBe('Mine Ltd')
})

test('nameservers: host names are checked, the change is previewed, a concurrent change is caught', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = sb.state.domains[8]!
  const panel = await openDomain(app, d.domainname, 'Nameservers')
  const box = panel.getByLabel('Nameservers')
  await expect(box).toHaveValue(d.ns.join('\n'))
  await expectNoAxeViolations(app, 'domain tab Nameservers')
  await box.fill('ns1.example.net\nnot a host')
  await expect(panel).toContainText('“not” is not a valid host name.')
  await expect(panel.getByRole('button', { name: 'Save' })).toBeDisabled()
  await box.fill('ns1.example.net\nns2.example.net')
  const preview = panel.getByRole('region', { name: 'Preview of the change' })
  await expect(preview).toContainText('add ns1.example.net')
  await expect(preview).toContainText(`remove ${d.ns[0]}`)

  d.ns = ['ns9.elsewhere.example', 'ns10.elsewhere.example']
  await panel.getByRole('button', { name: 'Save' }).click()
  const conflict = panel.getByRole('alert').filter({ hasText: 'Changed since you opened it' })
  await expect(conflict).toContainText('ns9.elsewhere.example')
  await conflict.getByRole('button', { name: 'Keep theirs and discard mine' }).click()
  await expect(box).toHaveValue('ns9.elsewhere.example\nns10.elsewhere.example')
  expect(last(sb, 'domains.nameserver.set')).toBeUndefined()

  await box.fill('ns1.example.net\nns2.example.net')
  await panel.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Nameservers saved.' })).toBeVisible()
  expect(last(sb, 'domains.nameserver.set')?.body).toEqual({ ns: ['ns1.example.net', 'ns2.example.net'] })
})

test('private nameservers: create with validation, then delete after confirming', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = sb.state.domains[3]!
  const panel = await openDomain(app, d.domainname, 'Private nameservers')
  await expect(panel.getByLabel('Host name')).toBeVisible()
  await expectNoAxeViolations(app, 'domain tab Private nameservers')
  await panel.getByLabel('Host name').fill('ns5.elsewhere.com')
  await expect(panel).toContainText(`Use a host name under ${d.domainname}`)
  await panel.getByLabel('Host name').fill(`ns5.${d.domainname}`)
  await panel.getByLabel('IPv4').fill('192.0.2.300')
  await expect(panel).toContainText('Enter an IPv4 address')
  await panel.getByLabel('IPv4').fill('192.0.2.55')
  await panel.getByLabel('IPv6').fill('2001:db8::55')
  await panel.getByRole('button', { name: 'Add nameserver' }).click()
  await expect(panel.getByRole('row', { name: new RegExp(`ns5`) })).toContainText('192.0.2.55')
  expect(last(sb, 'domains.privatenameserver.create')?.body).toEqual({
    hostname: `ns5.${d.domainname}`,
    ipv4: '192.0.2.55',
    ipv6: '2001:db8::55',
  })

  await panel.getByRole('button', { name: `Details of ns5.${d.domainname}` }).click()
  await expect(panel.getByRole('region', { name: `Details of ns5.${d.domainname}` })).toContainText('2001:db8::55')
  expect(last(sb, 'domains.privatenameserver.get')?.path).toBe(
    `/v1/domains/${d.domainname}/privatenameserver/ns5.${d.domainname}`,
  )
  await panel.getByRole('button', { name: `Delete ns5.${d.domainname}` }).click()
  await expect(app.getByRole('dialog')).toContainText(`Delete the private nameserver ns5.${d.domainname}?`)
  await app.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(panel.getByRole('row', { name: /ns5/ })).toHaveCount(0)
  expect(last(sb, 'domains.privatenameserver.delete')?.path).toBe(
    `/v1/domains/${d.domainname}/privatenameserver/ns5.${d.domainname}`,
  )
})

test('dynamic DNS with a generated password, and DNSSEC with digest checks', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = sb.state.domains[5]!
  const ddns = await openDomain(app, d.domainname, 'Dynamic DNS')
  await expect(ddns.getByLabel('Dynamic DNS on')).toBeVisible()
  await expectNoAxeViolations(app, 'domain tab Dynamic DNS')
  await ddns.getByLabel('Dynamic DNS on').check()
  await ddns.getByRole('button', { name: 'Generate' }).click()
  const pw = await ddns.getByLabel(/New password/).inputValue()
  expect(pw).toMatch(/^[A-Za-z0-9]{20}$/)
  await ddns.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Dynamic DNS is on.' })).toBeVisible()
  expect(last(sb, 'domains.dynamicdns.set')?.body).toEqual({ dynamicdns: 1, password: pw })
  // The update address for a router: the demo's own dynamic DNS address, the password masked on
  // screen and whole in what is copied; the sandbox serves it as the live one does.
  const routerUrl = ddns.getByRole('region', { name: 'Update address for a router or an updater' })
  await routerUrl.getByLabel(/^Host/).fill('www')
  const shown = routerUrl.getByTestId('ddns-url')
  await expect(shown).toContainText(`/cgi-bin/dyn.fcg?d=${d.domainname}&p=`)
  await expect(shown).toContainText('&h=www')
  await expect(shown).not.toContainText(pw)
  await expectNoAxeViolations(app, 'domain tab Dynamic DNS, update address')
  await routerUrl.getByRole('button', { name: 'Copy the address with its password' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible()
  const copied = new URL(harness.desktop.copied.at(-1) ?? '')
  expect(Object.fromEntries(copied.searchParams)).toEqual({ d: d.domainname, p: pw, h: 'www' })
  const answer = await (await fetch(copied)).text()
  expect(answer).toMatch(/^status=(0|8)\n/)

  await app.getByRole('tab', { name: 'DNSSEC' }).click()
  const ds = app.getByRole('tabpanel', { name: 'DNSSEC' })
  await expect(ds.getByRole('button', { name: 'Add a DS record' })).toBeVisible()
  await expectNoAxeViolations(app, 'domain tab DNSSEC')
  await ds.getByRole('button', { name: 'Add a DS record' }).click()
  const rec = ds.getByRole('group').last()
  await rec.getByLabel('Key tag').fill('54321')
  await rec.getByLabel('Digest type').selectOption('2')
  await rec.getByLabel('Digest (hex)').fill('abc')
  await expect(rec).toContainText('A digest of type 2 has 64 hexadecimal characters; this one has 3.')
  await rec.getByLabel('Digest (hex)').fill('ab'.repeat(32))
  await ds.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'DNSSEC saved.' })).toBeVisible()
  const body = sentBody(last(sb, 'domains.dnssec.set'), z.object({ ds_records: z.array(z.unknown()) }))
  expect(body.ds_records.at(-1)).toEqual({ keytag: 54321, alg: 13, digesttype: 2, digest: 'ab'.repeat(32) })
})

test('transfers: status with the failure reason, and cancel', async ({ app, harness }) => {
  const sb = await harness.demo()
  const failed = sb.state.transfers.find((x) => x.status === 'FAILED')!
  const panel = await openDomain(app, failed.domainname, 'Transfers')
  const row = panel.getByRole('row', { name: new RegExp(failed.transferorderid) })
  await expect(row).toContainText('Failed')
  await expect(row).toContainText(failed.failurereason)
  await expectNoAxeViolations(app, 'domain tab Transfers')
  await row.getByRole('button', { name: `Details of ${failed.transferorderid}` }).click()
  await expect(panel.getByRole('region', { name: `Details of ${failed.transferorderid}` })).toContainText(
    String(failed.domainid),
  )
  expect(last(sb, 'domains.transfer.get')?.path).toBe(
    `/v1/domains/${failed.domainname}/transfer/${failed.transferorderid}`,
  )
  await row.getByRole('button', { name: 'Cancel transfer…' }).click()
  await app.getByRole('dialog').getByRole('button', { name: 'Cancel transfer' }).click()
  await expect(panel).toContainText('No transfer requests for this domain.')
  expect(last(sb, 'domains.transfer.cancel')?.path).toBe(
    `/v1/domains/${failed.domainname}/transfer/${failed.transferorderid}`,
  )
})

test('owner change and removal are confirmed by typing the domain name', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = sb.state.domains[9]!
  const owner = await openDomain(app, d.domainname, 'Owner change')
  await expect(owner.getByLabel('Destination user name')).toBeVisible()
  await expectNoAxeViolations(app, 'domain tab Owner change')
  await owner.getByLabel('Destination user name').fill('new-owner')
  await owner.getByLabel('Message to the destination user').fill('Please accept')
  await owner.getByRole('button', { name: 'Change owner…' }).click()
  const dialog = app.getByRole('dialog')
  await expect(dialog.getByRole('button', { name: 'Change owner' })).toBeDisabled()
  await dialog.getByRole('textbox').fill(d.domainname)
  await dialog.getByRole('button', { name: 'Change owner' }).click()
  await expect(
    app.getByRole('status').filter({ hasText: `${d.domainname} is being handed to new-owner.` }),
  ).toBeVisible()
  expect(last(sb, 'domains.localtransfer.set')?.body).toEqual({ username: 'new-owner', message: 'Please accept' })

  // Removing is in the danger zone at the foot of the overview, not a tab.
  await app.getByRole('tab', { name: 'Overview' }).click()
  const remove = app.getByRole('region', { name: 'Danger zone' })
  await expect(remove).toContainText('The domain itself stays registered until it expires.')
  await expectNoAxeViolations(app, 'domain danger zone')
  await remove.getByRole('button', { name: 'Remove from account…' }).click()
  await app.getByRole('dialog').getByRole('textbox').fill('wrong.example')
  await expect(app.getByRole('dialog').getByRole('button', { name: 'Remove from account' })).toBeDisabled()
  await app.getByRole('dialog').getByRole('textbox').fill(d.domainname)
  await app.getByRole('dialog').getByRole('button', { name: 'Remove from account' }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'Domains' })).toBeVisible()
  expect(last(sb, 'domains.remove')?.path).toBe(`/v1/domains/${d.domainname}`)
  expect(sb.state.domains.some((x) => x.domainname === d.domainname)).toBe(false)
})

test('tabs work by keyboard', async ({ app, harness }) => {
  const sb = await harness.demo()
  await openDomain(app, sb.state.domains[0]!.domainname, 'Overview')
  await app.getByRole('tab', { name: 'Overview' }).focus()
  await app.keyboard.press('ArrowRight')
  await expect(app.getByRole('tab', { name: 'Expiration' })).toBeFocused()
  await expect(app.getByRole('tab', { name: 'Expiration' })).toHaveAttribute('aria-selected', 'true')
  await app.keyboard.press('End')
  await expect(app.getByRole('tab', { name: 'History' })).toBeFocused()
})

test('typed work is kept: nameservers, WHOIS and DNSSEC left unsaved for another screen are offered back, until saved or discarded', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = sb.state.domains[6]!
  let panel = await openDomain(app, d.domainname, 'Nameservers')
  await panel.getByLabel('Nameservers').fill('ns1.kept.example\nns2.kept.example')
  panel = await openDomain(app, d.domainname, 'WHOIS')
  await panel.getByRole('group', { name: 'Registrant' }).getByLabel('City').fill('Kept-city')

  // Back on each form after another screen: the service's values, and the edit offered.
  panel = await openDomain(app, d.domainname, 'Nameservers')
  const box = panel.getByLabel('Nameservers')
  await expect(box).toHaveValue(d.ns.join('\n'))
  const nsOffer = panel.getByRole('status').filter({ hasText: 'Your unsaved changes to this form' })
  await nsOffer.getByRole('button', { name: 'Restore my changes' }).click()
  await expect(box).toHaveValue('ns1.kept.example\nns2.kept.example')
  await expect(nsOffer).toHaveCount(0)
  await panel.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Nameservers saved.' })).toBeVisible()
  expect(d.ns).toEqual(['ns1.kept.example', 'ns2.kept.example'])

  panel = await openDomain(app, d.domainname, 'WHOIS')
  const city = panel.getByRole('group', { name: 'Registrant' }).getByLabel('City')
  await expect(city).not.toHaveValue('Kept-city')
  await expectNoAxeViolations(app, 'domain tab WHOIS with an unsaved edit offered')
  await panel
    .getByRole('status')
    .filter({ hasText: 'Your unsaved changes to this form' })
    .getByRole('button', { name: 'Discard them' })
    .click()
  // Discarded: not offered again, and a saved form leaves nothing to offer either.
  panel = await openDomain(app, d.domainname, 'Nameservers')
  await expect(panel.getByLabel('Nameservers')).toHaveValue('ns1.kept.example\nns2.kept.example')
  panel = await openDomain(app, d.domainname, 'WHOIS')
  await expect(panel.getByRole('group', { name: 'Registrant' }).getByLabel('City')).toBeVisible()
  await expect(app.getByText('Your unsaved changes to this form')).toHaveCount(0)
  expect(last(sb, 'domains.whois.set')).toBeUndefined()

  // A DS record typed and left: offered back, then saved.
  panel = await openDomain(app, d.domainname, 'DNSSEC')
  await panel.getByRole('button', { name: 'Add a DS record' }).click()
  const rec = panel.getByRole('group').last()
  await rec.getByLabel('Key tag').fill('24680')
  await rec.getByLabel('Digest (hex)').fill('cd'.repeat(32))
  panel = await openDomain(app, d.domainname, 'Nameservers')
  panel = await openDomain(app, d.domainname, 'DNSSEC')
  await expect(panel.getByLabel('Key tag')).toHaveCount(d.ds.length)
  await panel
    .getByRole('status')
    .filter({ hasText: 'Your unsaved changes to this form' })
    .getByRole('button', { name: 'Restore my changes' })
    .click()
  await expect(panel.getByRole('group').last().getByLabel('Key tag')).toHaveValue('24680')
  await panel.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'DNSSEC saved.' })).toBeVisible()
  // The service keeps a digest in capitals.
  expect(d.ds.at(-1)).toEqual({ keytag: 24680, alg: 13, digesttype: 2, digest: 'CD'.repeat(32) })
  // Saved, and the service's capitals are what the form holds: nothing is offered back later.
  panel = await openDomain(app, d.domainname, 'Nameservers')
  panel = await openDomain(app, d.domainname, 'DNSSEC')
  await expect(panel.getByLabel('Key tag')).toHaveCount(d.ds.length)
  await expect(app.getByText('Your unsaved changes to this form')).toHaveCount(0)
})

test('a WHOIS save the service kept in its own form shows what it holds, and is not offered back later as an unsaved edit', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = sb.state.domains[7]!
  let panel = await openDomain(app, d.domainname, 'WHOIS')
  await panel.getByRole('group', { name: 'Registrant' }).getByLabel('Phone').fill('+81.312345678')
  // The save is held at the service until the phone is kept in the service's own way, which
  // the read after the save then reports.
  sb.faults.inject('domains.whois.set', { hold: true })
  await panel.getByRole('button', { name: 'Save' }).click()
  await expect.poll(() => sb.faults.held('domains.whois.set')).toBe(1)
  sb.faults.inject('domains.whois.get', { hold: true })
  sb.faults.release(1)
  await expect.poll(() => sb.faults.held('domains.whois.get')).toBe(1)
  // The same rewriting for every role (the form sends the registrant's phone for the roles "same as registrant").
  for (const role of ['registrant', 'admin', 'tech', 'billing'] as const)
    if (d.contact[role].phone === '+81.312345678') d.contact[role].phone = '+81.3-1234-5678'
  sb.faults.clear()
  const told = app.getByRole('status').filter({ hasText: 'The service changed this' })
  await expect(told).toContainText('Registrant: Phone: +81.312345678 was sent; the service stored +81.3-1234-5678.')
  await expect(panel.getByRole('group', { name: 'Registrant' }).getByLabel('Phone')).toHaveValue('+81.3-1234-5678')
  panel = await openDomain(app, d.domainname, 'Nameservers')
  panel = await openDomain(app, d.domainname, 'WHOIS')
  await expect(panel.getByRole('group', { name: 'Registrant' }).getByLabel('Phone')).toHaveValue('+81.3-1234-5678')
  await expect(app.getByText('Your unsaved changes to this form')).toHaveCount(0)
})
