/**
 * Domain search, the register wizard and the transfer-in wizard, checked against what the
 * sandbox received.
 */
import { expect, snap, test } from './fixtures'

test('search many names at once, then register an available one through the wizard', async ({ app, harness }) => {
  const sb = await harness.demo()
  const source = sb.state.domains[0]!
  await app.getByRole('navigation').getByRole('link', { name: 'Domain search' }).click()
  await app.getByLabel('Domain names').fill(`fresh-idea.com, taken.com\n${source.domainname} not_a_name`)
  await app.getByRole('button', { name: 'Check 4 names' }).click()
  await expect(app.getByRole('row', { name: /fresh-idea\.com/ })).toContainText('Available')
  await expect(app.getByRole('row', { name: /taken\.com/ })).toContainText('Not available')
  await expect(app.getByRole('row', { name: new RegExp(source.domainname.replace(/\./g, '\\.')) })).toContainText('Not available')
  expect(sb.received.filter((r) => r.endpoint === 'domainsearch.check').at(-1)?.query.domainnames).toBe(
    `fresh-idea.com,taken.com,${source.domainname},not_a_name`,
  )
  await snap(app, 'domain-search')
  await app.getByRole('button', { name: 'Register fresh-idea.com' }).click()

  await expect(app.getByRole('heading', { level: 1, name: 'Register a domain' })).toBeVisible()
  await expect(app.getByLabel('Domain name')).toHaveValue('fresh-idea.com')
  await app.getByLabel('Years').selectOption('2')
  await app.getByRole('button', { name: 'Next' }).click()
  await app.getByLabel('Nameservers').fill('ns1.svc1.example.net\nns2.svc1.example.net')
  await app.getByRole('button', { name: 'Next' }).click()
  // Contacts copied from an existing domain's WHOIS.
  await app.getByLabel('Copy contacts from an existing domain').selectOption(source.domainname)
  await app.getByRole('button', { name: 'Copy', exact: true }).click()
  await expect(app.getByRole('group', { name: 'Registrant' }).getByLabel('Last name')).toHaveValue(source.contact.registrant.lastname)
  await app.getByRole('button', { name: 'Next' }).click()
  await expect(app.getByRole('heading', { name: 'Review' })).toBeVisible()
  await expect(app.locator('dl')).toContainText('ns1.svc1.example.net, ns2.svc1.example.net')
  await snap(app, 'domain-register-review')
  expect(sb.received.some((r) => r.endpoint === 'domains.register')).toBe(false)

  await app.getByRole('button', { name: 'Register…' }).click()
  await expect(app.getByRole('dialog')).toContainText('Register fresh-idea.com for 2 years.')
  await expect(app.getByRole('dialog')).toContainText('never retried automatically')
  await app.getByRole('dialog').getByRole('button', { name: 'Register' }).click()
  await expect(app.getByRole('heading', { name: 'Registered' })).toBeVisible()
  await expect(app.getByRole('status').filter({ hasText: 'Registered' })).toContainText('fresh-idea')
  const sent = sb.received.filter((r) => r.endpoint === 'domains.register')
  expect(sent).toHaveLength(1)
  expect(sent[0]!.body).toMatchObject({
    sld: 'fresh-idea',
    tld: 'com',
    years: 2,
    ns: ['ns1.svc1.example.net', 'ns2.svc1.example.net'],
    whois_proxy: 1,
    contact: { registrant: { lastname: source.contact.registrant.lastname, phone: source.contact.registrant.phone } },
  })
  expect(sb.state.domains.some((d) => d.domainname === 'fresh-idea.com')).toBe(true)
})

test('the wizard will not go on with invalid contacts, and explains each field', async ({ app }) => {
  await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
  await app.getByRole('link', { name: 'Register a domain' }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'Register a domain' })).toBeVisible()
  await app.getByLabel('Domain name').fill('brand-new.net')
  await app.getByRole('button', { name: 'Next' }).click()
  await app.getByLabel('Nameservers').fill('ns1.example.net ns2.example.net')
  await app.getByRole('button', { name: 'Next' }).click()
  const registrant = app.getByRole('group', { name: 'Registrant' })
  await registrant.getByLabel('Phone').fill('12345')
  await app.getByRole('button', { name: 'Next' }).click()
  await expect(registrant).toContainText('Write it as +<country code>.<number>')
  await expect(registrant).toContainText('This field is required.')
  await expect(app.getByRole('heading', { name: 'Review' })).toHaveCount(0)
})

test('transfer a domain in, and see it in the account’s transfer list', async ({ app, harness }) => {
  const sb = await harness.demo()
  await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
  await app.getByRole('link', { name: 'Transfer a domain in' }).click()
  const list = app.getByRole('region', { name: 'Transfer requests of this account' })
  await expect(list.getByRole('row')).toHaveCount(sb.state.transfers.length + 1)
  await app.getByLabel('Domain to transfer in').fill('moving-here.org')
  await app.getByLabel('Transfer code (authcode)').fill('Xy-9911-Q')
  await app.getByRole('button', { name: 'Request transfer…' }).click()
  await expect(app.getByRole('dialog')).toContainText('Request the transfer of moving-here.org into this account.')
  await app.getByRole('dialog').getByRole('button', { name: 'Request transfer' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Transfer of moving-here.org requested' })).toBeVisible()
  // The service's status word is put in the user's words; its raw word stays at hand.
  const transferRow = list.getByRole('row', { name: /moving-here\.org/ })
  await expect(transferRow).toContainText('In progress')
  await expect(transferRow.getByRole('cell', { name: 'In progress' })).toHaveAttribute('title', 'As the service sent it: STAY')
  const sent = sb.received.filter((r) => r.endpoint === 'domains.transfer.request')
  expect(sent).toHaveLength(1)
  expect(sent[0]).toMatchObject({ path: '/v1/domains/moving-here.org/transfer', body: { authcode: 'Xy-9911-Q', whois_proxy: 1 } })
})
