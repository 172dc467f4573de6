/**
 * Domain search, the register wizard and the transfer-in wizard, checked against what the
 * sandbox received.
 */
import { expect, reloadInLanguage, snap, test } from './fixtures'
import { expectNoAxeViolations } from './axe'

test('search many names at once, then register an available one through the wizard', async ({ app, harness }) => {
  const sb = await harness.demo()
  const source = sb.state.domains[0]!
  await app.getByRole('navigation').getByRole('link', { name: 'Domain search' }).click()
  await app.getByLabel('Domain names').fill(`fresh-idea.com, taken.com\n${source.domainname} not_a_name`)
  // A name the domain-name rule refuses is named with its problem, and not sent.
  await expect(app.locator('#search-invalid')).toContainText(
    'not_a_name: Only letters a–z, digits, hyphens and dots can be used; remove “_”.',
  )
  await app.getByRole('button', { name: 'Check 3 names' }).click()
  const results = app.getByRole('table', { name: 'Availability' })
  await expect(results.getByRole('row', { name: /fresh-idea\.com/ })).toContainText('Available')
  await expect(results.getByRole('row', { name: /taken\.com/ })).toContainText('Not available')
  await expect(results.getByRole('row', { name: new RegExp(source.domainname.replace(/\./g, '\\.')) })).toContainText(
    'Not available',
  )
  await expect(results.getByRole('row')).toHaveCount(4)
  // A state to read, with an icon; the service's own text only in the tooltip.
  const available = results.getByRole('row', { name: /fresh-idea\.com/ }).getByRole('cell', { name: 'Available' })
  await expect(available).toHaveAttribute('title', 'As the service sent it: 210 Domain name available')
  await expect(available.locator('svg')).toBeVisible()
  await expect(
    results.getByRole('row', { name: /taken\.com/ }).getByRole('cell', { name: 'Not available' }),
  ).toHaveAttribute('title', 'As the service sent it: 211 Domain name not available')
  await expect(results).not.toContainText('210 Domain name available')
  await expect(results.getByRole('button', { name: /^Register taken\.com/ })).toHaveCount(0)
  expect(sb.received.filter((r) => r.endpoint === 'domainsearch.check').at(-1)?.query.domainnames).toBe(
    `fresh-idea.com,taken.com,${source.domainname}`,
  )
  await snap(app, 'domain-search')
  await expectNoAxeViolations(app, 'search results')
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
  await expect(app.getByRole('group', { name: 'Registrant' }).getByLabel('Last name')).toHaveValue(
    source.contact.registrant.lastname,
  )
  await expect(app.getByRole('status').filter({ hasText: `Contacts copied from ${source.domainname}.` })).toBeVisible()
  await app.getByRole('button', { name: 'Next' }).click()
  await expect(app.getByRole('heading', { name: 'Review' })).toBeVisible()
  await expect(app.locator('dl')).toContainText('ns1.svc1.example.net, ns2.svc1.example.net')
  await snap(app, 'domain-register-review')
  await expectNoAxeViolations(app, 'domain register')
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

  // The next registration starts from this one's nameservers and contacts; only the name is new.
  await app.getByRole('button', { name: 'Register another domain with these nameservers and contacts' }).click()
  await expect(app.getByLabel('Domain name')).toBeFocused()
  await expect(app.getByLabel('Domain name')).toHaveValue('')
  await app.getByLabel('Domain name').fill('fresh-idea.net')
  await app.getByRole('button', { name: 'Next' }).click()
  await expect(app.getByLabel('Nameservers')).toHaveValue('ns1.svc1.example.net\nns2.svc1.example.net')
  await app.getByRole('button', { name: 'Next' }).click()
  await expect(app.getByRole('group', { name: 'Registrant' }).getByLabel('Last name')).toHaveValue(
    source.contact.registrant.lastname,
  )
})

test('names are held to the domain-name rule before they are checked or registered', async ({ app, harness }) => {
  const sb = await harness.demo()
  await app.getByRole('navigation').getByRole('link', { name: 'Domain search' }).click()
  await app.getByLabel('Domain names').fill('nodot -start.com bad..com 日本語.jp example.123')
  const invalid = app.locator('#search-invalid')
  await expect(invalid).toContainText('These 5 names are not valid, so they are not checked:')
  await expect(invalid).toContainText('nodot: Add the top-level domain, as in nodot.com.')
  await expect(invalid).toContainText('-start.com: A part cannot start or end with a hyphen: “-start”.')
  await expect(invalid).toContainText('bad..com: Each part between dots needs at least one character')
  await expect(invalid).toContainText(
    '日本語.jp: A name in other scripts is checked and registered in its ASCII (xn--) form: xn--wgv71a119e.jp.',
  )
  await expect(invalid).toContainText('example.123: “123” is not a top-level domain')
  await expect(app.getByRole('button', { name: 'Check 0 names' })).toBeDisabled()
  await expect(app.getByLabel('Domain names')).toHaveAccessibleDescription(/These 5 names are not valid/)
  await snap(app, 'domain-search-invalid')
  await expectNoAxeViolations(app, 'search')
  await app.setViewportSize({ width: 1024, height: 640 })
  await snap(app, 'domain-search-invalid-1024')
  expect(sb.received.some((r) => r.endpoint === 'domainsearch.check')).toBe(false)

  // The wizard holds its name to the same rule, and "Next" says what is wrong.
  await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
  await app.getByRole('link', { name: 'Register a domain' }).click()
  await app.getByRole('button', { name: 'Next' }).click()
  const name = app.getByLabel('Domain name')
  await expect(name).toBeFocused()
  await expect(app.getByRole('alert')).toHaveText('Enter a domain name such as example.com.')
  await name.fill('my_shop.com')
  await expect(name).toHaveAccessibleDescription('Only letters a–z, digits, hyphens and dots can be used; remove “_”.')
  await app.getByRole('button', { name: 'Next' }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'Register a domain' })).toBeVisible()
  await expect(app.getByLabel('Nameservers')).toHaveCount(0)
  await name.fill('My-Shop.com.')
  await app.getByRole('button', { name: 'Next' }).click()
  await expect(app.getByLabel('Nameservers')).toBeVisible()
  await app.getByRole('button', { name: 'Back' }).click()
  await expect(name).toHaveValue('my-shop.com')
})

test('a taken name stays at the first step; the account’s usual nameservers are filled in; an emptied step says what is missing; nameservers are copied from another domain', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const other = sb.state.domains.find((d) => !d.ns[0]!.includes('svc'))!
  await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
  await app.getByRole('link', { name: 'Register a domain' }).click()
  // A name the service says is taken does not pass the first step.
  const taken = sb.state.domains[0]!.domainname
  await app.getByLabel('Domain name').fill(taken)
  await app.getByRole('button', { name: 'Next' }).click()
  await expect(app.getByRole('alert')).toHaveText(`${taken} is already registered: choose another name.`)
  await expect(app.getByLabel('Domain name')).toBeVisible()
  expect(sb.received.filter((r) => r.endpoint === 'domainsearch.check').at(-1)?.query).toMatchObject({
    domainnames: taken,
  })
  await app.getByLabel('Domain name').fill('copy-the-ns.org')
  await app.getByRole('button', { name: 'Next' }).click()
  const ns = app.getByLabel('Nameservers')
  // The set most of the account's domains use.
  const sets = new Map<string, number>()
  for (const d of sb.state.domains) sets.set(d.ns.join('\n'), (sets.get(d.ns.join('\n')) ?? 0) + 1)
  const usual = [...sets].sort((a, b) => b[1] - a[1])[0]!
  await expect(ns).toHaveValue(usual[0])
  await expect(
    app.getByRole('status').filter({
      hasText: `Filled with the nameservers ${usual[1]} of this account’s ${sb.state.domains.length} domains use`,
    }),
  ).toBeVisible()
  await ns.fill('')
  await app.getByRole('button', { name: 'Next' }).click()
  await expect(app.getByRole('alert')).toHaveText(
    'The nameservers are missing: enter at least two host names, one per line, or copy them from a domain of this account above.',
  )
  await expect(ns).toBeFocused()
  await expect(ns).toHaveAttribute('aria-invalid', 'true')
  await expect(app.getByRole('heading', { name: 'Review' })).toHaveCount(0)
  await snap(app, 'domain-register-ns-missing')
  await app.setViewportSize({ width: 1024, height: 640 })

  await app.getByLabel('Copy from domain').selectOption(other.domainname)
  await app.getByRole('button', { name: 'Copy', exact: true }).click()
  await expect(ns).toHaveValue(other.ns.join('\n'))
  await expect(
    app.getByRole('status').filter({ hasText: `2 nameservers copied from ${other.domainname}.` }),
  ).toBeVisible()
  await expect(app.getByRole('alert')).toHaveCount(0)
  const read = sb.received.filter((r) => r.endpoint === 'domains.nameserver.get').at(-1)
  expect(read?.path).toBe(`/v1/domains/${other.domainname}/nameserver`)
  await snap(app, 'domain-register-ns-copied-1024')
  await app.getByRole('button', { name: 'Next' }).click()
  await expect(app.getByRole('group', { name: 'Registrant' })).toBeVisible()
})

test('the search and the wizard in Japanese, and on a smaller window', async ({ app, harness }) => {
  const sb = await harness.demo()
  await reloadInLanguage(app, 'ja')
  await app.setViewportSize({ width: 1024, height: 640 })
  await app.getByRole('navigation').getByRole('link', { name: 'ドメイン検索' }).click()
  await app.getByLabel('ドメイン名').fill(`new-name.jp ${sb.state.domains[1]!.domainname} under_score.jp`)
  await expect(app.locator('#search-invalid')).toContainText('次の 1 件は正しいドメイン名ではないため、確認しません:')
  await app.getByRole('button', { name: '2 件を確認' }).click()
  const results = app.getByRole('table', { name: '空き状況' })
  await expect(results.getByRole('row', { name: /new-name\.jp/ })).toContainText('取得可能')
  await expect(
    results.getByRole('row', { name: /new-name\.jp/ }).getByRole('cell', { name: '取得可能' }),
  ).toHaveAttribute('title', /210 Domain name available/)
  await snap(app, 'domain-search-ja')
  await app.getByRole('button', { name: 'new-name.jp を登録' }).click()
  await app.getByRole('button', { name: '次へ' }).click()
  await expect(app.getByRole('status').filter({ hasText: '件が使っているネームサーバーを入れました' })).toBeVisible()
  await app.getByLabel('ネームサーバー').fill('')
  await app.getByRole('button', { name: '次へ' }).click()
  await expect(app.getByRole('alert')).toContainText('ネームサーバーが入力されていません。')
  await snap(app, 'domain-register-ns-ja')
  await app.setViewportSize({ width: 1280, height: 800 })
  await snap(app, 'domain-register-ns-ja-1280')
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
  await expectNoAxeViolations(app, 'transfer in')
  await app.getByLabel('Domain to transfer in').fill('moving-here.org')
  await app.getByLabel('Transfer code (authcode)').fill('Xy-9911-Q')
  await app.getByRole('button', { name: 'Request transfer…' }).click()
  await expect(app.getByRole('dialog')).toContainText('Request the transfer of moving-here.org into this account.')
  await app.getByRole('dialog').getByRole('button', { name: 'Request transfer' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Transfer of moving-here.org requested' })).toBeVisible()
  // The service's status word is put in the user's words; its raw word stays at hand.
  const transferRow = list.getByRole('row', { name: /moving-here\.org/ })
  await expect(transferRow).toContainText('In progress')
  await expect(transferRow.getByRole('cell', { name: 'In progress' })).toHaveAttribute(
    'title',
    'As the service sent it: STAY',
  )
  const sent = sb.received.filter((r) => r.endpoint === 'domains.transfer.request')
  expect(sent).toHaveLength(1)
  expect(sent[0]).toMatchObject({
    path: '/v1/domains/moving-here.org/transfer',
    body: { authcode: 'Xy-9911-Q', whois_proxy: 1 },
  })
})
