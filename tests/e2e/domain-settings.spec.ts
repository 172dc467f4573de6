/**
 * One setting across every domain: each of the API's account-wide domain lists.
 */
import { expect, test } from './fixtures'
import { expectNoAxeViolations } from './axe'

test('every account-wide domain list is reachable, read in full and shown', async ({ app, harness }) => {
  const sb = await harness.demo()
  await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
  await app.getByRole('link', { name: 'Settings of all domains' }).click()
  const cases = [
    ['Auto-renewal', 'domains.autorenew.list', 'Renew this domain automatically'],
    ['Transfer lock', 'domains.transferlock.list', 'Locked'],
    ['WHOIS', 'domains.whois.list', sb.state.domains[0]!.contact.registrant.lastname],
    ['Nameservers', 'domains.nameserver.list', sb.state.domains[0]!.ns[0]!],
    ['Dynamic DNS', 'domains.dynamicdns.list', 'Off'],
    ['DNSSEC', 'domains.dnssec.list', `${sb.state.domains.find((d) => d.ds.length)!.ds[0]!.keytag}/2`],
    ['Owner change', 'domains.localtransfer.list', 'demo-user'],
  ] as const
  for (const [label, endpoint, text] of cases) {
    await app.getByLabel('Setting').selectOption({ label })
    const table = app.getByRole('table', { name: label })
    await expect(table.getByRole('row')).toHaveCount(sb.state.domains.length + 1)
    await expect(table).toContainText(text)
    expect(
      sb.received.some((r) => r.endpoint === endpoint),
      endpoint,
    ).toBe(true)
  }
  await expectNoAxeViolations(app, 'domain settings')
})
