/**
 * The DNS records editor: table and raw modes, the plan before saving, a concurrent change
 * caught and shown in three versions, a failed save that keeps every edit, undo, BIND
 * import and export, and free DNS editing; each save checked against the sandbox.
 */
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import type { Sandbox } from '../../src/sandbox'
import { expect, snap, test } from './fixtures'

const svc1Domain = (sb: Sandbox) => sb.state.domains.find((d) => d.ns[0] === 'ns1.svc1.example.net')!
const lastDnsSet = (sb: Sandbox) => sb.received.filter((r) => r.endpoint === 'domains.dns.set').at(-1)

async function openZone(app: Page, name: string) {
  await app.getByRole('navigation').getByRole('link', { name: 'DNS', exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'DNS' })).toBeVisible()
  await app.getByLabel('Filter').fill(name)
  await app.getByRole('link', { name, exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: `DNS records of ${name}` })).toBeVisible()
}

test('edit in the table, see the plan, apply; a line the app does not understand is kept', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  d.dns.svc1.records = `# managed by ops\n${d.dns.svc1.records}`
  const original = d.dns.svc1.records
  await openZone(app, d.domainname)
  await expect(app.getByText('# managed by ops')).toBeVisible()
  await expect(app.getByText(`This domain’s nameservers now: ${d.ns.join(', ')}.`)).toBeVisible()

  await app.getByLabel('Value of row 2').fill('192.0.2.250')
  await app.getByLabel('Value of row 2').press('Tab')
  await app.getByRole('button', { name: 'Add a record' }).click()
  const n = d.dns.svc1.records.split('\n').length + 1
  await app.getByLabel(`Type of row ${n}`).selectOption('TXT')
  await app.getByLabel(`Host of row ${n}`).fill('_verify')
  await app.getByLabel(`Host of row ${n}`).press('Tab')
  await app.getByLabel(`Value of row ${n}`).fill('token-123')
  await app.getByLabel(`Value of row ${n}`).press('Tab')
  await app.getByRole('button', { name: 'Review changes…' }).click()
  const planBox = app.getByRole('region', { name: 'Plan: what will change' })
  await expect(planBox).toContainText('~ change A @: 192.0.2.')
  await expect(planBox).toContainText('→ 192.0.2.250')
  await expect(planBox).toContainText('+ add TXT _verify token-123')
  await snap(app, 'dns-plan')
  expect(lastDnsSet(sb)).toBeUndefined()
  await planBox.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(app.getByRole('status').filter({ hasText: `The records of ${d.domainname} were saved.` })).toBeVisible()

  const sent = lastDnsSet(sb)!.body as { records: string; ns_type: string }
  const lines = original.split('\n')
  lines[1] = lines[1]!.replace(/\d+\.\d+\.\d+\.\d+$/, '192.0.2.250').replace(/^a\s+@\s+/, 'a @ ')
  expect(sent.ns_type).toBe('svc1')
  expect(sent.records).toBe([...lines, 'txt _verify token-123'].join('\n'))
  expect(sent.records.startsWith('# managed by ops\n')).toBe(true)
})

test('raw mode edits the same records; validation explains; undo and redo', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await openZone(app, d.domainname)
  await app.getByRole('button', { name: 'Raw text' }).click()
  const box = app.getByLabel('Records, one per line: type host value')
  await box.fill(`${d.dns.svc1.records}\na broken 999.1.1.1`)
  await box.blur()
  await expect(app.getByText(/An A record needs an IPv4 address/)).toBeVisible()
  await expect(app.getByRole('button', { name: 'Review changes…' })).toBeDisabled()
  await app.getByRole('button', { name: 'Table' }).click()
  const rows = d.dns.svc1.records.split('\n').length
  await expect(app.getByLabel(`Value of row ${rows + 1}`)).toHaveValue('999.1.1.1')
  await app.getByRole('button', { name: `Delete row ${rows + 1}` }).click()
  await expect(app.getByLabel(`Value of row ${rows + 1}`)).toHaveCount(0)
  await app.getByRole('button', { name: 'Undo' }).click()
  await expect(app.getByLabel(`Value of row ${rows + 1}`)).toHaveValue('999.1.1.1')
  await app.getByRole('button', { name: 'Redo' }).click()
  await expect(app.getByLabel(`Value of row ${rows + 1}`)).toHaveCount(0)
  await expect(app.getByRole('button', { name: 'Review changes…' })).toBeDisabled() // back to the loaded records

  // Sorting changes the view, not the zone: nothing to save afterwards.
  await app.getByLabel('Show in order').selectOption({ label: 'By type' })
  const firstType = await app.locator('table.records tbody tr').first().locator('select').inputValue()
  const types = d.dns.svc1.records.split('\n').map((l) => l.split(' ')[0]!).sort()
  expect(firstType).toBe(types[0])
  await expect(app.getByRole('button', { name: 'Review changes…' })).toBeDisabled()
})

test('a large zone: filter, page, edit and delete on a later page change exactly those records', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  // 300 records: six pages. Rows on a page are reused as the filter and page change, so
  // this checks every input still edits the record whose number it shows.
  const lines = Array.from({ length: 300 }, (_, i) => `a host${i} 192.0.2.${i % 250}`)
  d.dns.svc1.records = lines.join('\n')
  await openZone(app, d.domainname)
  await expect(app.getByText('Page 1 of 6')).toBeVisible()
  await app.getByLabel('Filter', { exact: true }).last().fill('host1')
  // host1, host10-19, host100-199: 111 rows, three pages.
  await expect(app.getByText('111 rows')).toBeVisible()
  await app.getByRole('button', { name: 'Next page' }).click()
  await expect(app.getByText('Page 2 of 3')).toBeVisible()
  // Page 2 of the filtered rows starts at host139 (the 51st hit), which is line 140.
  await expect(app.getByLabel('Host of row 140', { exact: true })).toHaveValue('host139')
  await app.getByLabel('Value of row 140', { exact: true }).fill('198.51.100.139')
  await app.getByLabel('Value of row 140', { exact: true }).press('Tab')
  await app.getByRole('button', { name: 'Delete row 141', exact: true }).click()
  await expect(app.getByText('110 rows')).toBeVisible()
  // The row that moved into the deleted one's place is the next record, not a stale copy.
  await expect(app.getByLabel('Host of row 141', { exact: true })).toHaveValue('host141')
  await app.getByLabel('Filter', { exact: true }).last().fill('')
  await expect(app.getByText('Page 1 of 6')).toBeVisible()
  await expect(app.getByLabel('Host of row 1', { exact: true })).toHaveValue('host0')

  await app.getByRole('button', { name: 'Review changes…' }).click()
  const planBox = app.getByRole('region', { name: 'Plan: what will change' })
  await expect(planBox.getByRole('listitem')).toHaveCount(2)
  await expect(planBox).toContainText('~ change A host139: 192.0.2.139 → 198.51.100.139')
  await expect(planBox).toContainText('− remove A host140 192.0.2.140')
  await planBox.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  const expected = [...lines]
  expected[139] = 'a host139 198.51.100.139'
  expected.splice(140, 1)
  expect((lastDnsSet(sb)!.body as { records: string }).records).toBe(expected.join('\n'))
})

test('a change made at the service after loading is caught; a failed save keeps every edit', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await openZone(app, d.domainname)
  await app.getByLabel('Value of row 1').fill('192.0.2.77')
  await app.getByLabel('Value of row 1').press('Tab')
  d.dns.svc1.records = `${d.dns.svc1.records}\na theirs 192.0.2.66`
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await app.getByRole('button', { name: 'Apply these changes' }).click()
  const conflict = app.getByRole('alert').filter({ hasText: 'Changed since you opened it' })
  await expect(conflict.getByRole('heading', { name: 'Now at the service (theirs)' })).toBeVisible()
  await expect(conflict).toContainText('a theirs 192.0.2.66')
  await expect(conflict).toContainText('a @ 192.0.2.77')
  expect(lastDnsSet(sb)).toBeUndefined()
  await snap(app, 'dns-conflict')

  sb.faults.inject('domains.dns.set', { status: 500, times: 1 })
  await conflict.getByRole('button', { name: 'Save mine (replaces theirs)' }).click()
  await expect(app.getByRole('alert').filter({ hasText: 'internal error' })).toContainText(/Request ID: req-/)
  await expect(app.getByLabel('Value of row 1')).toHaveValue('192.0.2.77')
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await app.getByRole('button', { name: 'Apply these changes' }).click()
  await app.getByRole('alert').filter({ hasText: 'Changed since you opened it' }).getByRole('button', { name: 'Save mine (replaces theirs)' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  expect(d.dns.svc1.records).not.toContain('theirs')
  expect(d.dns.svc1.records.split('\n')[0]).toBe('a @ 192.0.2.77')
})

test('BIND import replaces the editor’s records, and export writes a zone file', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await openZone(app, d.domainname)
  await app.getByText('BIND zone file: import or export').click()
  await app.getByLabel(/Paste a zone file to import/).fill(`$TTL 900\n@ IN A 192.0.2.5\nwww IN CNAME ${d.domainname}.\n@ IN HINFO "x" "y"`)
  await app.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(app.getByText('Record type HINFO is not supported')).toBeVisible()
  await expect(app.getByLabel('Value of row 1')).toHaveValue('192.0.2.5')
  await expect(app.getByLabel('TTL')).toHaveValue('900')
  const download = app.waitForEvent('download')
  await app.getByRole('button', { name: 'Export as a zone file' }).click()
  const text = readFileSync((await (await download).path())!, 'utf8')
  expect(text).toContain(`$ORIGIN ${d.domainname}.`)
  expect(text).toContain('@ IN A 192.0.2.5')
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await app.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  expect(lastDnsSet(sb)!.body).toEqual({ ns_type: 'svc1', records: `a @ 192.0.2.5\ncname www ${d.domainname}.`, ttl: 900 })
})

test('free DNS records are edited with the same editor', async ({ app, harness }) => {
  const sb = await harness.demo()
  const f = sb.state.freedns[1]!
  await app.getByRole('navigation').getByRole('link', { name: 'Free DNS' }).click()
  await app.getByRole('table', { name: 'Free DNS', exact: true }).getByRole('link', { name: f.domainname }).click()
  await app.getByLabel('Value of row 2').fill('192.0.2.123')
  await app.getByLabel('Value of row 2').press('Tab')
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await app.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  const sent = sb.received.filter((r) => r.endpoint === 'freedns.set').at(-1)!
  expect(sent.path).toBe(`/v1/freedns/${f.domainname}`)
  expect((sent.body as { records: string }).records.split('\n')[1]).toBe('a www 192.0.2.123')
})
