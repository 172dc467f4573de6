/**
 * The DNS records editor: table and raw modes, the plan before saving, a concurrent change
 * caught and shown in three versions, a failed save that keeps every edit, undo, BIND
 * import and export, and free DNS editing; each save checked against the sandbox. Then the
 * daily work: fields per record type, a new row left alone until typed in, the keyboard,
 * warnings before the plan, the DNS setting in plain words, and the editor as it looks.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { expect, reloadApp, reloadInLanguage, snap, test } from './fixtures'
import { expectNoAxeViolations } from './axe'
import { lastDnsSet, openZone, svc1Domain, sentRecords, writeRawRecords } from './dns-screens'
import { profileFor } from '../../support/profile'
import { z } from 'zod'
import { sentBody } from '../helpers/sent-body'

test('edit in the table, see the plan, apply; a line the app does not understand is kept', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  d.dns.svc1.records = `# managed by ops\n${d.dns.svc1.records}`
  const original = d.dns.svc1.records
  await openZone(app, d.domainname)
  await expect(app.getByText('# managed by ops')).toBeVisible()
  await expect(app.getByText(`This domain’s nameservers now: ${d.ns.join(', ')}.`)).toBeVisible()
  await expectNoAxeViolations(app, 'dns zone')

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
  await expectNoAxeViolations(app, 'dns plan panel')
  expect(lastDnsSet(sb)).toBeUndefined()
  await planBox.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(app.getByRole('status').filter({ hasText: `The records of ${d.domainname} were saved.` })).toBeVisible()

  const sent = sentBody(lastDnsSet(sb), z.object({ records: z.string(), ns_type: z.string() }))
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
  await writeRawRecords(app, `${d.dns.svc1.records}\na broken 999.1.1.1`)
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
  const types = d.dns.svc1.records
    .split('\n')
    .map((l) => l.split(' ')[0]!)
    .sort()
  expect(firstType).toBe(types[0])
  await expect(app.getByRole('button', { name: 'Review changes…' })).toBeDisabled()
})

test('an edit in one row marks another row it now repeats; undo puts back a field typed in and not left', async ({
  app,
  harness,
}) => {
  // The table draws again only the row an edit changed, and the rows whose messages it changed
  // (issue 51); any other change of the rows, such as undo, draws again the rows it changed and
  // the row of the focused field, which holds the only text typed and not yet committed.
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  d.dns.svc1.records = 'a www 192.0.2.1\na mail 192.0.2.2\na www 192.0.2.3'
  await openZone(app, d.domainname)
  await app.getByLabel('Value of row 1', { exact: true }).fill('192.0.2.3')
  await app.getByLabel('Value of row 1', { exact: true }).press('Tab')
  const row3 = app.locator('table.records tr[data-index="2"]')
  await expect(row3).toContainText('The same record as row 1.')
  await expect(app.getByLabel('Value of row 3', { exact: true })).toHaveAttribute('aria-invalid', 'false')

  await app.getByLabel('Value of row 2', { exact: true }).fill('10.0.0.9')
  await app.getByLabel('Value of row 2', { exact: true }).press('Control+z')
  await expect(app.getByLabel('Value of row 1', { exact: true })).toHaveValue('192.0.2.1')
  await expect(app.getByLabel('Value of row 2', { exact: true })).toHaveValue('192.0.2.2')
  await expect(row3).not.toContainText('The same record as row 1.')
})

test('undo draws again the rows it changed and the focused field’s row, not the others (issue 51)', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  d.dns.svc1.records = 'a www 192.0.2.1\na mail 192.0.2.2\na ftp 192.0.2.3'
  await openZone(app, d.domainname)
  const value = (n: number) => app.getByLabel(`Value of row ${n}`, { exact: true })
  await value(1).fill('192.0.2.9')
  await value(1).press('Tab')
  // A probe, not an edit: row 3's field is given a text without an event, which only drawing that row again replaces.
  await value(3).evaluate((el) => {
    if (el instanceof HTMLInputElement) el.value = 'probe'
  })
  await value(2).fill('10.0.0.9')
  await value(2).press('Control+z')
  await expect(value(1)).toHaveValue('192.0.2.1')
  await expect(value(2)).toHaveValue('192.0.2.2')
  await expect(value(3)).toHaveValue('probe')
})

test('no line hides a record: a line separator, NEL or ESC in the raw text, a NEL in a BIND file, refused where it is (issue 41)', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await openZone(app, d.domainname)
  const line = d.dns.svc1.records.split('\n').length + 1
  const saves = () => sb.received.filter((r) => r.endpoint === 'domains.dns.set').length
  const before = saves()
  await app.getByRole('button', { name: 'Raw text' }).click()
  const box = app.getByLabel('Records, one per line: type host value')
  // (A textarea reads a lone CR as a line break of its own: there it hides nothing.)
  for (const [ch, name] of [
    ['\u2028', 'U+2028'],
    ['\u0085', 'U+0085'],
    ['\u001b', 'U+001B'],
  ] as const) {
    await box.fill(`${d.dns.svc1.records}\ntxt _note ok${ch}ns @ ns.evil.example.`)
    await box.blur()
    await expect(app.getByText(`Line ${line}, column 13 holds a control character (${name})`).first()).toBeVisible()
    await expect(app.getByRole('button', { name: 'Review changes…' })).toBeDisabled()
  }
  await box.fill(d.dns.svc1.records)
  await box.blur()
  await app.getByRole('button', { name: 'Table' }).click()
  await app.getByText('BIND zone file: import or export').click()
  await app
    .getByLabel(/Paste a zone file to import/)
    .fill(`$TTL 900\n@ IN A 192.0.2.5\nwww IN A 192.0.2.6\u0085@ IN NS ns.evil.example.`)
  await app.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(
    app.getByRole('alert').filter({ hasText: 'Line 3, column 19 holds a control character (U+0085)' }),
  ).toBeVisible()
  await expect(app.getByRole('button', { name: 'Review changes…' })).toBeDisabled()
  expect(saves()).toBe(before)
})

test('a large zone: filter, page, edit and delete on a later page change exactly those records', async ({
  app,
  harness,
}) => {
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
  expect(sentRecords(lastDnsSet(sb))).toBe(expected.join('\n'))
})

test('a change made at the service after loading is caught; a failed save keeps every edit', async ({
  app,
  harness,
}) => {
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
  await app
    .getByRole('alert')
    .filter({ hasText: 'Changed since you opened it' })
    .getByRole('button', { name: 'Save mine (replaces theirs)' })
    .click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  expect(d.dns.svc1.records).not.toContain('theirs')
  expect(d.dns.svc1.records.split('\n')[0]).toBe('a @ 192.0.2.77')
})

test('BIND import can replace the editor’s records, and export writes a zone file', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await openZone(app, d.domainname)
  await app.getByText('BIND zone file: import or export').click()
  await app
    .getByLabel(/Paste a zone file to import/)
    .fill(`$TTL 900\n@ IN A 192.0.2.5\nwww IN CNAME ${d.domainname}.\n@ IN HINFO "x" "y"`)
  await app.getByLabel('Replace them with the file’s records').check()
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
  expect(lastDnsSet(sb)!.body).toEqual({
    ns_type: 'svc1',
    records: `a @ 192.0.2.5\ncname www ${d.domainname}.`,
    ttl: 900,
  })
})

const haveCheckzone = spawnSync('named-checkzone', ['-v']).error === undefined

test('the window’s BIND export of an untouched zone names the domain’s nameservers, and named-checkzone accepts it', async ({
  app,
  harness,
}) => {
  test.skip(!haveCheckzone, 'bind9-utils (named-checkzone) not installed')
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await openZone(app, d.domainname)
  // The nameservers are read beside the zone: once they are shown, the export has them too.
  await expect(app.getByText(`This domain’s nameservers now: ${d.ns.join(', ')}.`)).toBeVisible()
  await app.getByText('BIND zone file: import or export').click()
  const download = app.waitForEvent('download')
  await app.getByRole('button', { name: 'Export as a zone file' }).click()
  const file = (await (await download).path())!
  const text = readFileSync(file, 'utf8')
  for (const ns of d.ns) expect(text).toContain(`@ IN NS ${ns}.`)
  const checked = spawnSync('named-checkzone', [d.domainname, file], { encoding: 'utf8' })
  expect({ code: checked.status, out: checked.stdout, text }).toEqual({
    code: 0,
    out: expect.stringContaining('OK'),
    text,
  })
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
  expect(sentRecords(sent).split('\n')[1]).toBe('a www 192.0.2.123')
})

// ------------------------------------------------------------------ daily work

const zoneLines = (sb: Sandbox) => svc1Domain(sb).dns.svc1.records.split('\n')

async function addRecord(app: Page, n: number, type: string) {
  await app.getByRole('button', { name: 'Add a record' }).click()
  await app.getByLabel(`Type of row ${n}`, { exact: true }).selectOption(type)
}
async function type(app: Page, label: string, value: string) {
  const field = app.getByLabel(label, { exact: true })
  await field.fill(value)
  await field.press('Tab')
}

test('fields follow the record type: MX, SRV and CAA in parts with examples, TXT explains quoting; MX in either order is saved in the service’s', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  const original = zoneLines(sb)
  const n = original.length
  await openZone(app, d.domainname)
  // The zone's MX, as the service writes it (`mx mail.example. 10`), in its two fields.
  const mx = original.findIndex((l) => l.startsWith('mx ')) + 1
  await expect(app.getByLabel(`Priority of row ${mx}`, { exact: true })).toHaveValue('10')
  await expect(app.getByLabel(`Mail server of row ${mx}`, { exact: true })).toHaveValue(`mail.${d.domainname}.`)

  // MX: the usual order, priority first, typed into one field, fills both.
  await addRecord(app, n + 1, 'MX')
  await expect(app.getByLabel(`Priority of row ${n + 1}`)).toHaveAttribute('placeholder', '10')
  await expect(app.getByLabel(`Mail server of row ${n + 1}`)).toHaveAttribute('placeholder', `mail.${d.domainname}.`)
  await type(app, `Mail server of row ${n + 1}`, '20 backup.example.net.')
  await expect(app.getByLabel(`Priority of row ${n + 1}`)).toHaveValue('20')
  await expect(app.getByLabel(`Mail server of row ${n + 1}`)).toHaveValue('backup.example.net.')

  // SRV: host like _sip._tcp, then four fields; the port typed before the weight stays the port.
  await addRecord(app, n + 2, 'SRV')
  await expect(app.getByLabel(`Host of row ${n + 2}`)).toHaveAttribute('placeholder', '_sip._tcp')
  await type(app, `Host of row ${n + 2}`, '_sip._tcp')
  await type(app, `Priority of row ${n + 2}`, '10')
  await type(app, `Port of row ${n + 2}`, '5060')
  await type(app, `Target of row ${n + 2}`, 'sip.example.net.')
  // The weight, not typed in yet, is not marked; nor is the port for the weight left empty.
  await expect(app.getByLabel(`Weight of row ${n + 2}`)).toHaveAttribute('aria-invalid', 'false')
  await expect(app.getByLabel(`Port of row ${n + 2}`)).toHaveAttribute('aria-invalid', 'false')
  await type(app, `Weight of row ${n + 2}`, 'heavy')
  await expect(app.getByLabel(`Weight of row ${n + 2}`)).toHaveAttribute('aria-invalid', 'true')
  await expect(app.getByLabel(`Weight of row ${n + 2}`)).toHaveAccessibleDescription(/An SRV weight is a whole number/)
  await expect(app.getByLabel(`Port of row ${n + 2}`)).toHaveAttribute('aria-invalid', 'false')
  await type(app, `Weight of row ${n + 2}`, '5')
  await expect(app.getByLabel(`Weight of row ${n + 2}`)).toHaveAttribute('aria-invalid', 'false')

  // CAA: flags, tag and value; the value without quotation marks.
  await addRecord(app, n + 3, 'CAA')
  await expect(app.getByLabel(`Flags of row ${n + 3}`)).toHaveValue('0')
  await expect(app.getByLabel(`Tag of row ${n + 3}`)).toHaveValue('issue')
  await expect(app.getByLabel(`Value of row ${n + 3}`)).toHaveAttribute('placeholder', 'letsencrypt.org')
  await type(app, `Value of row ${n + 3}`, 'letsencrypt.org')

  // TXT: the field says how quoting works, to a screen reader always and on screen while it matters.
  await addRecord(app, n + 4, 'TXT')
  const txt = app.getByLabel(`Value of row ${n + 4}`, { exact: true })
  await expect(txt).toHaveAccessibleDescription(/No quotation marks needed/)
  await expect(app.locator(`tr[data-index="${n + 3}"]`)).toContainText(
    'No quotation marks needed: type the text as it is.',
  )
  await type(app, `Host of row ${n + 4}`, 'sel._domainkey')
  await type(app, `Value of row ${n + 4}`, 'v=DKIM1; k=rsa; p=MIGf')
  await expect(app.locator(`tr[data-index="${n + 3}"]`)).not.toContainText('No quotation marks needed')

  // In the raw text, an MX written priority first is told that the priority goes after the
  // server, kept as typed until the user asks for the service's form.
  await app.getByRole('button', { name: 'Raw text' }).click()
  const box = app.getByLabel('Records, one per line: type host value')
  await box.fill(`${await box.inputValue()}\nmx 30 mx3.example.net.`)
  await box.blur()
  await expect(app.getByText('The priority goes after the mail server')).toBeVisible()
  await expect(box).toHaveValue(/\nmx 30 mx3\.example\.net\.$/)
  await app.getByRole('button', { name: `Write row ${n + 5} in the service’s form` }).click()
  await expect(box).toHaveValue(/\nmx mx3\.example\.net\. 30$/)
  await app.getByRole('button', { name: 'Table' }).click()
  await expect(app.getByLabel(`Priority of row ${n + 5}`)).toHaveValue('30')

  await snap(app, 'dns-fields-per-type')
  await app.getByRole('button', { name: 'Review changes…' }).click()
  const planBox = app.getByRole('region', { name: 'Plan: what will change' })
  await expect(planBox).toContainText('+ add MX @ backup.example.net. 20')
  await expect(planBox).toContainText('+ add SRV _sip._tcp 10 5 5060 sip.example.net.')
  await expect(planBox).toContainText('+ add CAA @ 0 issue "letsencrypt.org"')
  await planBox.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  expect(sentRecords(lastDnsSet(sb))).toBe(
    [
      ...original,
      'mx backup.example.net. 20',
      'srv _sip._tcp 10 5 5060 sip.example.net.',
      'caa @ 0 issue "letsencrypt.org"',
      'txt sel._domainkey v=DKIM1; k=rsa; p=MIGf',
      'mx mx3.example.net. 30',
    ].join('\n'),
  )
})

test('a new row is not marked before it is typed in; asking to review shows what it lacks', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  const n = zoneLines(sb).length
  await openZone(app, d.domainname)
  await app.getByRole('button', { name: 'Add a record' }).click()
  const row = app.locator(`tr[data-index="${n}"]`)
  await expect(app.getByLabel(`Value of row ${n + 1}`)).toHaveAttribute('placeholder', '192.0.2.10')
  await expect(row).not.toHaveClass(/invalid/)
  await expect(app.getByLabel(`Value of row ${n + 1}`)).toHaveAttribute('aria-invalid', 'false')
  await expect(app.getByText(/to fix before saving/)).toHaveCount(0)
  // Choosing the type is not typing: still nothing marked.
  await app.getByLabel(`Type of row ${n + 1}`).selectOption('MX')
  await expect(row).not.toHaveClass(/invalid/)
  // Typing in one field marks that field only, not the one still to be filled.
  await type(app, `Priority of row ${n + 1}`, 'ten')
  await expect(row).toHaveClass(/invalid/)
  await expect(app.getByLabel(`Priority of row ${n + 1}`)).toHaveAttribute('aria-invalid', 'true')
  await expect(app.getByLabel(`Mail server of row ${n + 1}`)).toHaveAttribute('aria-invalid', 'false')
  await type(app, `Priority of row ${n + 1}`, '10')
  await expect(row).not.toHaveClass(/invalid/)

  // Review with the mail server still empty: now it is marked, and the focus is on it.
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await expect(app.getByLabel(`Mail server of row ${n + 1}`)).toHaveAttribute('aria-invalid', 'true')
  await expect(app.getByLabel(`Mail server of row ${n + 1}`)).toBeFocused()
  await expect(app.getByRole('region', { name: 'Plan: what will change' })).toHaveCount(0)
  await expect(app.getByRole('alert').filter({ hasText: '1 problem to fix before saving' })).toBeVisible()

  // A new row left empty is not carried into the raw text as a broken line.
  await app.getByRole('button', { name: 'Add a record' }).click()
  await app.getByRole('button', { name: 'Raw text' }).click()
  await expect(app.getByLabel('Records, one per line: type host value')).not.toHaveValue(/\na @ ?$/)
})

test('the table keeps its columns: AAAA and CNAME whole, widths unmoved by a message; the mode in use is shown', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await openZone(app, d.domainname)
  const lines = zoneLines(sb)
  const widths = () =>
    app
      .locator('table.records thead th')
      .evaluateAll((ths) => ths.map((th) => Math.round(th.getBoundingClientRect().width)))
  // A select's text is cut when its content box is narrower than the text (the arrow takes about 20px).
  const fits = (i: number) =>
    app.getByLabel(`Type of row ${i}`, { exact: true }).evaluate((select) => {
      if (!(select instanceof HTMLSelectElement)) throw new Error('the type of a row is not a select')
      const style = getComputedStyle(select)
      const ctx = document.createElement('canvas').getContext('2d')!
      ctx.font = style.font
      const text = ctx.measureText(select.selectedOptions[0]!.text).width
      return select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20 >= text
    })
  for (const kind of ['aaaa', 'cname'])
    expect(await fits(lines.findIndex((l) => l.startsWith(`${kind} `)) + 1), kind).toBe(true)

  const before = await widths()
  await type(app, 'Value of row 1', 'not-an-address-at-all-and-quite-a-long-one-too-so-the-message-is-long')
  await expect(app.locator('table.records tr.invalid')).toHaveCount(1)
  expect(await widths()).toEqual(before)
  await app.setViewportSize({ width: 1024, height: 640 })
  expect(await fits(lines.findIndex((l) => l.startsWith('cname ')) + 1)).toBe(true)

  const mode = app.getByRole('group', { name: 'Editing mode' })
  const table = mode.getByRole('button', { name: 'Table' })
  const raw = mode.getByRole('button', { name: 'Raw text' })
  const fill = (b: typeof table) => b.evaluate((el) => getComputedStyle(el).backgroundColor)
  await expect(table).toHaveAttribute('aria-pressed', 'true')
  await expect(raw).toHaveAttribute('aria-pressed', 'false')
  expect(await fill(table)).not.toBe(await fill(raw))
  await raw.click()
  await expect(raw).toHaveAttribute('aria-pressed', 'true')
  await expect(table).toHaveAttribute('aria-pressed', 'false')
  expect(await fill(raw)).not.toBe(await fill(table))
})

test('keyboard: after “Add a record” the focus is in the new row’s first field, scrolled into view, even pages away', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  d.dns.svc1.records = Array.from({ length: 120 }, (_, i) => `a host${i} 192.0.2.${i % 250}`).join('\n')
  await openZone(app, d.domainname)
  await expect(app.getByText('Page 1 of 3')).toBeVisible()
  await app.getByRole('button', { name: 'Add a record' }).focus()
  await app.keyboard.press('Enter')
  const first = app.getByLabel('Type of row 121', { exact: true })
  await expect(first).toBeFocused()
  await expect(first).toBeInViewport()
  await expect(app.getByText('Page 3 of 3')).toBeVisible()
  // Typing goes on from there, with the keyboard alone.
  await app.keyboard.press('Tab')
  await app.keyboard.type('api')
  await app.keyboard.press('Tab')
  await app.keyboard.type('192.0.2.200')
  await app.keyboard.press('Tab')
  await expect(app.getByLabel('Host of row 121', { exact: true })).toHaveValue('api')
  await expect(app.getByLabel('Value of row 121', { exact: true })).toHaveValue('192.0.2.200')

  // In a smaller window too.
  await app.setViewportSize({ width: 1024, height: 640 })
  await app.getByRole('button', { name: 'Add a record' }).click()
  await expect(app.getByLabel('Type of row 122', { exact: true })).toBeFocused()
  await expect(app.getByLabel('Type of row 122', { exact: true })).toBeInViewport()
})

test('warned before the plan: a second SPF record at a host (the save may go on), a CNAME beside other records (fixed first)', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  const original = zoneLines(sb)
  const n = original.length
  const spf = original.findIndex((l) => l.startsWith('txt @ v=spf1')) + 1
  await openZone(app, d.domainname)

  await addRecord(app, n + 1, 'TXT')
  await type(app, `Value of row ${n + 1}`, 'v=spf1 include:mail.example.net -all')
  const note = app.getByRole('note')
  // The health rule's own words (one voice for the rule in the editor and the plan's health).
  expect(spf).toBeGreaterThan(0)
  await expect(note).toContainText(`Row ${n + 1}: More than one SPF record at this name (2)`)
  await expect(app.locator(`tr[data-index="${n}"] small.warn`)).toContainText('More than one SPF record')
  await expect(app.locator(`tr[data-index="${n}"]`)).not.toHaveClass(/invalid/)

  // A CNAME where an A record is: an error, listed with its row, which the link goes to.
  const www = original.findIndex((l) => l.startsWith('a www ')) + 1
  await addRecord(app, n + 2, 'CNAME')
  await type(app, `Host of row ${n + 2}`, 'www')
  await type(app, `Value of row ${n + 2}`, `${d.domainname}.`)
  const problems = app.locator('.problems')
  await expect(problems).toContainText(`Row ${n + 2}: “www” has a CNAME and other records`)
  await expect(app.getByRole('button', { name: 'Review changes…' })).toBeDisabled()
  await snap(app, 'dns-warnings')
  await app.getByLabel('Filter', { exact: true }).last().fill('spf')
  await problems.getByRole('button', { name: `Row ${n + 2}` }).click()
  await expect(app.getByLabel(`Type of row ${n + 2}`, { exact: true })).toBeFocused()
  await app.getByRole('button', { name: `Delete row ${www}` }).click()
  await expect(problems).toHaveCount(0)

  // The SPF warning stays, and does not stop the save.
  await expect(note).toContainText('More than one SPF record')
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await expect(note).toContainText('More than one SPF record')
  await app
    .getByRole('region', { name: 'Plan: what will change' })
    .getByRole('button', { name: 'Apply these changes' })
    .click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  expect(sentRecords(lastDnsSet(sb))).toContain('txt @ v=spf1 include:mail.example.net -all')
})

test('the DNS setting is explained in plain words: which nameservers answer for each, named as the account names them', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await openZone(app, d.domainname)
  const setting = app.getByLabel('DNS flavour (ns_type)')
  await expect(setting).toHaveAccessibleDescription(/svc1: answered by the svc1 nameservers\./)
  await expect(setting).toHaveAccessibleDescription(
    /svc11: answered by the svc11 nameservers\. When the domain uses another company’s nameservers, these are the records shown here\./,
  )
  await expect(setting).toHaveAccessibleDescription(/records cannot be changed here/)
  await expect(setting).toHaveAccessibleDescription(
    new RegExp(`This domain’s nameservers now: ${d.ns.join(', ').replace(/\./g, '\\.')}`),
  )
  await expect(app.locator('#ns-type-help')).not.toContainText('content')
})

test.describe('an account with its own DNS product words', () => {
  test.use({ harnessOptions: { demo: { service: { nsTypeWords: { svc1: 'standard', svc11: 'premium' } } } } })

  test('the help names the account’s words', async ({ app, harness }) => {
    const sb = await harness.demo()
    await openZone(app, svc1Domain(sb).domainname)
    const setting = app.getByLabel('DNS flavour (ns_type)')
    await expect(setting).toHaveValue('standard')
    await expect(setting).toHaveAccessibleDescription(
      /standard: answered by the standard nameservers\. premium: answered by the premium nameservers\./,
    )
  })
})

test('BIND import: relative names expanded (www IN CNAME @, @ IN MX 10 mail), replacing the zone', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  await openZone(app, d.domainname)
  await app.getByText('BIND zone file: import or export').click()
  await app
    .getByLabel(/Paste a zone file to import/)
    .fill(['$TTL 600', '@ IN A 192.0.2.5', 'www IN CNAME @', '@ IN MX 10 mail', 'mail IN A 192.0.2.25'].join('\n'))
  await app.getByLabel('Replace them with the file’s records').check()
  await expect(app.getByLabel('Replace them with the file’s records')).toHaveAccessibleDescription(
    'The zone then takes the file’s TTL too.',
  )
  await app.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(app.getByRole('status').filter({ hasText: '4 records imported into the editor' })).toBeVisible()
  await expect(app.getByRole('listitem').filter({ hasText: 'not imported' })).toHaveCount(0)
  await expect(app.getByLabel('Mail server of row 3')).toHaveValue(`mail.${d.domainname}.`)
  await expect(app.locator('.problems')).toHaveCount(0)
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await app.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  expect(lastDnsSet(sb)!.body).toEqual({
    ns_type: 'svc1',
    ttl: 600,
    records: [`a @ 192.0.2.5`, `cname www ${d.domainname}.`, `mx mail.${d.domainname}. 10`, 'a mail 192.0.2.25'].join(
      '\n',
    ),
  })
})

test('BIND import merges by default: adds what is not there, keeps every record, reports a TTL the zone cannot keep', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  const original = zoneLines(sb)
  const apexA = original.find((l) => l.startsWith('a @ '))!.split(' ')[2]!
  await openZone(app, d.domainname)
  await app.getByText('BIND zone file: import or export').click()
  await expect(app.getByLabel('Keep them, and add the file’s records that are not there yet')).toBeChecked()
  await app
    .getByLabel(/Paste a zone file to import/)
    .fill(
      [`$ORIGIN ${d.domainname}.`, '$TTL 3600', `@ IN A ${apexA}`, 'blog IN CNAME @', 'ftp 300 IN A 192.0.2.9'].join(
        '\n',
      ),
    )
  await app.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(
    app.getByRole('status').filter({ hasText: '2 records added to the editor (1 already there)' }),
  ).toBeVisible()
  await expect(
    app.getByText(
      'TTL 300 differs from the zone’s TTL 3600; the service keeps one TTL for the whole zone, so this record gets 3600: ftp 300 IN A 192.0.2.9',
    ),
  ).toBeVisible()
  await expect(app.getByLabel('TTL', { exact: true })).toHaveValue('3600')
  await snap(app, 'dns-bind-merge')
  await app.getByRole('button', { name: 'Review changes…' }).click()
  const planBox = app.getByRole('region', { name: 'Plan: what will change' })
  await expect(planBox.getByRole('listitem')).toHaveCount(2)
  await planBox.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'were saved' })).toBeVisible()
  expect(sentRecords(lastDnsSet(sb))).toBe([...original, `cname blog ${d.domainname}.`, 'a ftp 192.0.2.9'].join('\n'))
})

test('the editor as it looks: 1280x800, 1024x640 and in Japanese', async ({ app, harness }) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  d.dns.svc1.records = [
    ...zoneLines(sb),
    'srv _sip._tcp 10 5 5060 sip.example.net.',
    'caa @ 0 issue "letsencrypt.org"',
    'txt @ v=spf1 -all',
  ].join('\n')
  const n = d.dns.svc1.records.split('\n').length
  await openZone(app, d.domainname)
  await snap(app, 'dns-editor-1280')
  await app.getByRole('button', { name: 'Add a record' }).click()
  await type(app, 'Value of row 1', '192.0.2.300')
  await app.getByLabel(`Type of row ${n + 1}`).selectOption('MX')
  await snap(app, 'dns-editor-1280-new-row')
  await app.setViewportSize({ width: 1024, height: 640 })
  await app.evaluate(() => window.scrollTo(0, 0))
  await snap(app, 'dns-editor-1024')
  await app.getByLabel(`Type of row ${n + 1}`).focus()
  await snap(app, 'dns-editor-1024-new-row')
  await app.getByRole('button', { name: 'Raw text' }).click()
  await snap(app, 'dns-editor-1024-raw')

  await app.setViewportSize({ width: 1280, height: 800 })
  await reloadInLanguage(app, 'ja')
  await expect(app.getByRole('heading', { level: 1, name: `${d.domainname} のDNSレコード` })).toBeVisible()
  await expect(app.getByLabel('DNSの種類(ns_type)')).toHaveAccessibleDescription(
    /svc1:svc1 のネームサーバーが返します。/,
  )
  await expect(app.getByLabel(`${n - 2} 行目の優先度`)).toHaveValue('10')
  await snap(app, 'dns-editor-ja')
  await app.getByRole('button', { name: 'レコードを追加' }).click()
  await app.getByLabel(`${n + 1} 行目の種類`).selectOption('TXT')
  await app.setViewportSize({ width: 1024, height: 640 })
  await snap(app, 'dns-editor-ja-1024')
  await app.getByText('BINDゾーンファイル: 読み込み・書き出し').click()
  await app.getByText('BINDゾーンファイル: 読み込み・書き出し').scrollIntoViewIfNeeded()
  await snap(app, 'dns-editor-ja-bind')
})

test('typed work is kept: a save refused for the key is fixed in a dialog over the editor, and an edit left for another screen is offered back', async ({
  app,
  harness,
}) => {
  // An account of its own, on a sandbox of its own: the demo's key is the app's, never replaced.
  const sb = await startSandbox({ domains: 6 })
  try {
    const d = svc1Domain(sb)
    const acct = await harness.services.accounts.create(profileFor(sb, 'Shop'), sb.keys.full, 'session')
    await harness.services.accounts.setActive(acct.id)
    await reloadApp(app)
    await expect(app.getByRole('heading', { level: 1 })).toBeVisible()
    await openZone(app, d.domainname)
    const before = d.dns.svc1.records
    const raw = await writeRawRecords(app, `${before}\ntxt _verify one-typed-record\ntxt _verify two-typed-record`)

    // The key is revoked at the service while the user types: the save is refused; the key is
    // replaced over the editor, and the edit is still there.
    const oldKey = sb.keys.full
    sb.keys.full = `${oldKey}-rotated`
    await app.getByRole('button', { name: 'Review changes…' }).click()
    await app.getByRole('button', { name: 'Apply these changes' }).click()
    const refused = app.getByRole('alert').filter({ hasText: 'The API key was not accepted' })
    await refused.getByRole('button', { name: 'Replace the key…' }).click()
    const dialog = app.getByRole('dialog', { name: 'Replace the API key of “Shop”' })
    await expect(dialog).toContainText('This screen stays as it is')
    await dialog.getByLabel('New API key').fill(sb.keys.full)
    await dialog.getByRole('button', { name: 'Replace key' }).click()
    await expect(app.getByRole('status').filter({ hasText: 'The key of “Shop” was replaced.' })).toBeVisible()
    await expect(raw).toHaveValue(/two-typed-record/)
    await app.getByRole('button', { name: 'Review changes…' }).click()
    await expect(app.locator('.plan')).toContainText('TXT _verify one-typed-record')
    await app.getByRole('button', { name: 'Apply these changes' }).click()
    await expect(
      app.getByRole('status').filter({ hasText: `The records of ${d.domainname} were saved.` }),
    ).toBeVisible()
    expect(d.dns.svc1.records).toContain('txt _verify two-typed-record')

    // An edit left for another screen is offered back when the zone opens again, until saved or discarded.
    const saved = d.dns.svc1.records
    await app.getByRole('button', { name: 'Raw text' }).click()
    await raw.fill(`${saved}\ntxt _verify left-for-a-while`)
    await raw.blur()
    const offer = app.getByRole('status').filter({ hasText: 'Your unsaved changes to this zone from' })
    await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
    await expect(app.getByRole('heading', { level: 1, name: 'Domains' })).toBeVisible()
    await openZone(app, d.domainname)
    await expect(offer).toBeVisible()
    await expectNoAxeViolations(app, 'DNS editor, unsaved changes offered')
    await offer.getByRole('button', { name: 'Restore my changes' }).click()
    await app.getByRole('button', { name: 'Raw text' }).click()
    await expect(raw).toHaveValue(/left-for-a-while/)
    // Discarded: not offered again.
    await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
    await openZone(app, d.domainname)
    await offer.getByRole('button', { name: 'Discard them' }).click()
    await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
    await openZone(app, d.domainname)
    await expect(app.getByRole('button', { name: 'Review changes…' })).toBeVisible()
    await expect(offer).toHaveCount(0)
    expect(d.dns.svc1.records).toBe(saved)
  } finally {
    await sb.close()
  }
})
