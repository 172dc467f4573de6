/**
 * Free DNS: list, provisional registration, owner change with typed confirmation, removal,
 * and the owners list, checked against what the sandbox received.
 */
import { expect, test } from './fixtures'
import { expectNoAxeViolations } from './axe'
import { sentRecords } from './dns-screens'

test('free DNS: register provisionally, change the owner, remove', async ({ app, harness }) => {
  const sb = await harness.demo()
  await app.getByRole('navigation').getByRole('link', { name: 'Free DNS' }).click()
  const table = app.getByRole('table', { name: 'Free DNS', exact: true })
  await expect(table.getByRole('row')).toHaveCount(sb.state.freedns.length + 1)
  await expect(app.getByRole('table', { name: 'Owners of the free DNS entries' }).getByRole('row')).toHaveCount(
    sb.state.freedns.length + 1,
  )
  await expectNoAxeViolations(app, 'free dns')

  const form = app.getByRole('region', { name: 'Add a domain held elsewhere' })
  await expect(form).toContainText('This makes a provisional registration only')
  await form.getByLabel('Domain name').fill('held-elsewhere.net')
  await form.getByLabel('An e-mail to the domain’s contact').check()
  await form.getByRole('button', { name: 'Register provisionally' }).click()
  await expect(
    app.getByRole('status').filter({ hasText: 'held-elsewhere.net was registered provisionally' }),
  ).toBeVisible()
  expect(sb.received.filter((r) => r.endpoint === 'freedns.register').at(-1)?.body).toEqual({
    sld: 'held-elsewhere',
    tld: 'net',
    auth: 'email',
  })
  await expect(table).toContainText('held-elsewhere.net')

  const entry = sb.state.freedns[0]!
  await table.getByRole('link', { name: entry.domainname }).click()
  await expect(app.getByRole('heading', { level: 1, name: entry.domainname })).toBeVisible()
  // The records open in the editor: the first row holds the first record's value.
  await expect(app.getByRole('region', { name: 'Records' }).getByLabel('Value of row 1')).toHaveValue(
    entry.records.split('\n')[0]!.split(' ')[2]!,
  )
  // Which nameservers answer with these records, in plain words and the account's name for them.
  await expect(app.getByRole('region', { name: 'Records' })).toContainText(
    'These records are answered by the svc1 nameservers, the only ones free DNS uses. They take effect once the domain, registered with another company, uses those nameservers.',
  )
  await expectNoAxeViolations(app, 'free dns entry')

  await app.getByLabel('Destination user name').fill('friend-user')
  await app.getByRole('button', { name: 'Change owner…' }).click()
  await app.getByRole('dialog').getByRole('textbox').fill(entry.domainname)
  await app.getByRole('dialog').getByRole('button', { name: 'Change owner' }).click()
  await expect(
    app.getByRole('status').filter({ hasText: `${entry.domainname} is being handed to friend-user.` }),
  ).toBeVisible()
  expect(sb.received.filter((r) => r.endpoint === 'freedns.localtransfer.set').at(-1)).toMatchObject({
    path: `/v1/freedns/${entry.domainname}/localtransfer`,
    body: { username: 'friend-user' },
  })

  await app.getByRole('button', { name: 'Remove…' }).click()
  await expect(app.getByRole('dialog')).toContainText(
    `Remove the free DNS entry ${entry.domainname} from this account?`,
  )
  await app.getByRole('dialog').getByRole('button', { name: 'Remove' }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'Free DNS' })).toBeVisible()
  expect(sb.received.filter((r) => r.endpoint === 'freedns.remove').at(-1)?.path).toBe(
    `/v1/freedns/${entry.domainname}`,
  )
  await expect(app.getByRole('table', { name: 'Free DNS', exact: true })).not.toContainText(entry.domainname)
})

test('free DNS: the editor’s record fields and a new row work as for a domain', async ({ app, harness }) => {
  const sb = await harness.demo()
  const entry = sb.state.freedns[2]!
  const original = entry.records
  const n = original.split('\n').length
  await app.getByRole('navigation').getByRole('link', { name: 'Free DNS' }).click()
  await app.getByRole('table', { name: 'Free DNS', exact: true }).getByRole('link', { name: entry.domainname }).click()
  const records = app.getByRole('region', { name: 'Records' })
  await records.getByRole('button', { name: 'Add a record' }).click()
  await expect(records.getByLabel(`Type of row ${n + 1}`)).toBeFocused()
  await expect(records.locator('tr.invalid')).toHaveCount(0)
  await records.getByLabel(`Type of row ${n + 1}`).selectOption('MX')
  await records.getByLabel(`Priority of row ${n + 1}`).fill('10 mx.example.net.')
  await records.getByLabel(`Priority of row ${n + 1}`).press('Tab')
  await expect(records.getByLabel(`Mail server of row ${n + 1}`)).toHaveValue('mx.example.net.')
  await records.getByRole('button', { name: 'Review changes…' }).click()
  await records.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  const sent = sb.received.filter((r) => r.endpoint === 'freedns.set').at(-1)
  expect(sentRecords(sent)).toBe(`${original}\nmx mx.example.net. 10`)
})
