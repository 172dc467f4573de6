/**
 * The app as the live service writes its records and values (issue 22): an MX edited in the
 * table and in raw text is sent in the service's form; a zone the service holds with duplicate
 * lines saves unchanged, a duplicate goes in one click; an account whose service reports 10 for
 * auto-renewal shows it on everywhere; a save whose TTL the service raised says so at once, and
 * the next refresh records no change from outside.
 */
import { expect, snap, test } from './fixtures'
import { lastDnsSet, openZone, svc1Domain, sentRecords } from './dns-screens'

test('an MX edited in the table and in raw text is sent as “mx <mail server> <priority>”; an MX for a subdomain cannot be written', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  const lines = d.dns.svc1.records.split('\n')
  const mx = lines.findIndex((l) => l.startsWith('mx ')) + 1
  await openZone(app, d.domainname)
  // The table: a new mail server for the zone's MX.
  await app.getByLabel(`Mail server of row ${mx}`, { exact: true }).fill('mx1.example.net.')
  await app.getByLabel(`Mail server of row ${mx}`, { exact: true }).press('Tab')
  // A host on an MX is refused on the host field: the form has none.
  await app.getByLabel(`Host of row ${mx}`, { exact: true }).fill('www')
  await app.getByLabel(`Host of row ${mx}`, { exact: true }).press('Tab')
  await expect(app.getByLabel(`Host of row ${mx}`, { exact: true })).toHaveAccessibleDescription(
    /an MX for “www” cannot be written/,
  )
  await expect(app.getByRole('button', { name: 'Review changes…' })).toBeDisabled()
  await app.getByLabel(`Host of row ${mx}`, { exact: true }).fill('@')
  await app.getByLabel(`Host of row ${mx}`, { exact: true }).press('Tab')
  // A mail server with dots and no final dot: the service appends the zone, which the row says.
  await app.getByRole('button', { name: 'Add a record' }).click()
  const n = lines.length + 1
  await app.getByLabel(`Type of row ${n}`).selectOption('MX')
  await app.getByLabel(`Priority of row ${n}`).fill('1')
  await app.getByLabel(`Mail server of row ${n}`).fill('smtp.google.com')
  await app.getByLabel(`Mail server of row ${n}`).press('Tab')
  await expect(app.locator(`tr[data-index="${n - 1}"]`)).toContainText(`mail would go to smtp.google.com.<your domain>`)
  await app.getByLabel(`Mail server of row ${n}`).fill('smtp.google.com.')
  await app.getByLabel(`Mail server of row ${n}`).press('Tab')
  // Raw text: the priority changed in place.
  await app.getByRole('button', { name: 'Raw text' }).click()
  const box = app.getByLabel('Records, one per line: type host value')
  await expect(box).toHaveValue(/\nmx smtp\.google\.com\. 1$/)
  await box.fill((await box.inputValue()).replace('mx mx1.example.net. 10', 'mx mx1.example.net. 5'))
  await box.blur()
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await app
    .getByRole('region', { name: 'Plan: what will change' })
    .getByRole('button', { name: 'Apply these changes' })
    .click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  const sent = sentRecords(lastDnsSet(sb)).split('\n')
  expect(sent.filter((l) => l.startsWith('mx '))).toEqual(['mx mx1.example.net. 5', 'mx smtp.google.com. 1'])
  expect(sent.filter((l) => l.startsWith('mx @'))).toEqual([])
})

test('a zone the service holds with duplicate lines saves unchanged; a duplicate is a warning, removed in one click', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  // As recorded: the same TXT and CNAME lines stored and served twice.
  const records = [
    ...d.dns.svc1.records.split('\n'),
    'txt _acme-challenge token-1',
    'cname help docs.example.com.',
    'txt _acme-challenge token-1',
    'cname help docs.example.com.',
  ].join('\n')
  d.dns.svc1.records = records
  await openZone(app, d.domainname)
  await expect(app.locator('.problems')).toHaveCount(0)
  const note = app.getByRole('note')
  await expect(note).toContainText('The service keeps and serves both')
  await snap(app, 'dns-duplicates')
  // Another change saves the zone with its duplicates as they were.
  await app.getByLabel('TTL').fill('7200')
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await app
    .getByRole('region', { name: 'Plan: what will change' })
    .getByRole('button', { name: 'Apply these changes' })
    .click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  expect(lastDnsSet(sb)!.body).toMatchObject({ records, ttl: 7200 })
  // One click removes a copy.
  const n = records.split('\n').length
  await note.getByRole('button', { name: `Remove this copy (row ${n})` }).click()
  await app.getByRole('button', { name: 'Review changes…' }).click()
  const planBox = app.getByRole('region', { name: 'Plan: what will change' })
  await expect(planBox).toContainText('remove CNAME help docs.example.com.')
  const savesBefore = sb.received.filter((r) => r.endpoint === 'domains.dns.set').length
  await planBox.getByRole('button', { name: 'Apply these changes' }).click()
  // The first save's notice may still be up: wait for the second save itself.
  await expect.poll(() => sb.received.filter((r) => r.endpoint === 'domains.dns.set').length).toBe(savesBefore + 1)
  await expect(app.getByRole('status').filter({ hasText: 'were saved' }).last()).toBeVisible()
  expect(sentRecords(lastDnsSet(sb))).toBe(records.split('\n').slice(0, -1).join('\n'))
})

test('an account whose service writes 10 for auto-renewal shows it on in every screen, and turning it on sends 10', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = sb.state.domains.find((x) => x.autorenew_domain === 10 && x.autorenew_all === 0)!
  const off = sb.state.domains.find((x) => x.autorenew_domain === 0 && x.autorenew_all === 0)!
  await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
  await app.getByLabel('Filter', { exact: true }).fill(d.domainname)
  await expect(app.getByRole('row', { name: new RegExp(d.domainname) })).toContainText('On (own setting)')
  await expect(app.locator('main')).not.toContainText('its settings say')
  await app.getByRole('link', { name: d.domainname, exact: true }).click()
  await expect(app.getByRole('tabpanel', { name: 'Overview' })).toContainText('On, because its own setting is on.')
  await app.getByRole('tab', { name: 'Auto-renewal' }).click()
  const tab = app.getByRole('tabpanel', { name: 'Auto-renewal' })
  await expect(tab.getByLabel('Renew this domain automatically')).toBeChecked()
  await expect(tab).not.toContainText('its settings say')
  // A server the service reports with 10: on in the list and on its page.
  const server = sb.state.servers.a.find((s) => s.autorenew_server === 10 && s.autorenew_all === 0)!
  await app.getByRole('navigation').getByRole('link', { name: 'Web servers' }).click()
  await expect(app.getByRole('row', { name: new RegExp(server.webname) })).toContainText('On (own setting)')
  await app.getByRole('link', { name: server.webname, exact: true }).click()
  await expect(
    app.getByRole('region', { name: 'Auto-renewal' }).getByLabel('Renew this server automatically'),
  ).toBeChecked()
  // Turning a domain's own setting on sends the service's own number.
  await app.goto(`${harness.url}#/domains/${encodeURIComponent(off.domainname)}?tab=autorenew`)
  const offTab = app.getByRole('tabpanel', { name: 'Auto-renewal' })
  await offTab.getByLabel('Renew this domain automatically').check()
  await offTab.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Auto-renewal saved.' })).toBeVisible()
  expect(sb.received.filter((r) => r.endpoint === 'domains.autorenew.set').at(-1)?.body).toEqual({
    autorenew_domain: 10,
  })
  await expect(offTab.getByLabel('Renew this domain automatically')).toBeChecked()
  await expect(app.locator('main')).not.toContainText('The service changed this')
})

test('a save whose TTL the service raised says so right away, and the next refresh records no change from outside', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  sb.service.minTtl = 120
  const d = svc1Domain(sb)
  await app.getByRole('navigation').getByRole('link', { name: 'DNS', exact: true }).click()
  await expect(app.getByRole('table')).toContainText(d.domainname)
  await openZone(app, d.domainname)
  await app.getByLabel('TTL').fill('60')
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await app
    .getByRole('region', { name: 'Plan: what will change' })
    .getByRole('button', { name: 'Apply these changes' })
    .click()
  await expect(app.getByRole('status').filter({ hasText: 'The service changed this' })).toContainText(
    'TTL 60 was stored as 3600.',
  )
  await expect(app.getByLabel('TTL')).toHaveValue('3600')
  // The next refresh of every list of the account: nothing changed outside this app.
  await app
    .getByRole('navigation')
    .getByRole('link', { name: /^Activity/ })
    .click()
  await app.getByRole('button', { name: 'Check this account for changes now' }).click()
  await expect(
    app.getByRole('status').filter({ hasText: 'lists read again: no change from outside this app' }),
  ).toBeVisible()
  await expect(
    app
      .getByRole('navigation')
      .getByRole('link', { name: /^Activity/ })
      .locator('.badge'),
  ).toHaveCount(0)
})

test('lines the service holds that the app would not write (issue 52) are no error of their zone; a new relative target is a warning, sent as typed', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  // Saved through the API, which takes them: a CNAME to the apex and to a single label, an SRV to one, an address that is none.
  const held = ['cname shop @', 'cname x www', 'srv _xmpp-server._tcp 5 0 5269 xmpp', 'a bad 999.0.0.1']
  const records = [...d.dns.svc1.records.split('\n'), ...held].join('\n')
  d.dns.svc1.records = records
  await openZone(app, d.domainname)
  await expect(app.locator('.problems')).toHaveCount(0)
  const note = app.getByRole('note')
  await expect(note).toContainText(
    'The service holds “a bad 999.0.0.1”, which is not in a form it documents; it is kept exactly as it is.',
  )
  await expect(note).not.toContainText('target “@”')
  // A new CNAME to a single label: warned of, not refused, and sent as typed.
  const n = records.split('\n').length + 1
  await app.getByRole('button', { name: 'Add a record' }).click()
  await app.getByLabel(`Type of row ${n}`).selectOption('CNAME')
  await app.getByLabel(`Host of row ${n}`).fill('y')
  await app.getByLabel(`Host of row ${n}`).press('Tab')
  await app.getByLabel(`Value of row ${n}`).fill('www')
  await app.getByLabel(`Value of row ${n}`).press('Tab')
  await expect(app.locator(`tr[data-index="${n - 1}"]`)).toContainText(
    'The CNAME target “www” is www.<your domain> as a zone file reads it',
  )
  await expect(app.locator('.problems')).toHaveCount(0)
  await app.getByRole('button', { name: 'Review changes…' }).click()
  const planBox = app.getByRole('region', { name: 'Plan: what will change' })
  await expect(planBox).toContainText('+ add CNAME y www')
  await planBox.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  expect(sentRecords(lastDnsSet(sb))).toBe(`${records}\ncname y www`)
})
