/**
 * Server and svcip operations through the UI, each checked against what the sandbox received.
 * A server's page opens by its name (from the list, the palette, "Expiring soon") and still by
 * an old link with its id; its calls name the server the way the address does.
 */
import type { Page } from '@playwright/test'
import type { Sandbox, RecordedRequest } from '../../src/sandbox'
import { expect, snap, test } from './fixtures'
import { expectNoAxeViolations } from './axe'
import { z } from 'zod'
import { sentBody } from '../helpers/sent-body'

const writes = (sb: Sandbox): RecordedRequest[] => sb.received.filter((r) => r.method !== 'GET')
const SERVER_READS = ['servers.get', 'servers.expiration.get', 'servers.autorenew.get', 'servers.resource.get']
/** The paths of the server page's four reads, received since `from`. */
const serverReads = (sb: Sandbox, from: number): string[] =>
  sb.received
    .slice(from)
    .filter((r) => SERVER_READS.includes(r.endpoint ?? ''))
    .map((r) => r.path)
    .sort()
const readPaths = (word: string, ref: string | number): string[] =>
  ['', '/autorenew', '/expiration', '/resource'].map((tail) => `/v1/${word}/${ref}${tail}`).sort()

/** Opens the first web server by an old link, with its id: its writes then name it by id. */
async function openFirstServer(app: Page, sb: Sandbox) {
  const server = sb.state.servers.a[0]!
  await app.getByRole('navigation').getByRole('link', { name: 'Web servers' }).click()
  await expect(
    app.getByRole('table', { name: 'Web servers' }).getByRole('link', { name: server.webname }),
  ).toBeVisible()
  await app.evaluate((hash) => (location.hash = hash), `#/servers/a/${server.webid}`)
  await expect(app.getByRole('heading', { level: 1, name: `Server ${server.webname}` })).toBeVisible()
  return server
}

test('extend a server, after a confirmation that states what will happen; cancel sends nothing', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const server = await openFirstServer(app, sb)
  const before = server.expirationdate
  const section = app.getByRole('region', { name: 'Expiration' })
  await section.getByLabel('Extend by (months)').fill('3')

  await section.getByRole('button', { name: 'Extend…' }).click()
  const dialog = app.getByRole('dialog')
  await expect(dialog).toContainText(`Extend server ${server.webname} by 3 months.`)
  await expect(dialog).toContainText('This may be charged to the account.')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  expect(writes(sb)).toHaveLength(0)

  await section.getByRole('button', { name: 'Extend…' }).click()
  await snap(app, 'confirm-extend')
  await app.getByRole('dialog').getByRole('button', { name: 'Extend' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Extended. The new expiration date is' })).toBeVisible()
  expect(writes(sb)).toHaveLength(1)
  expect(writes(sb)[0]).toMatchObject({
    method: 'PUT',
    path: `/v1/webservers/${server.webid}/expiration`,
    body: { months: 3 },
  })
  expect(server.expirationdate).not.toBe(before)
  await snap(app, 'server-detail')
  await expectNoAxeViolations(app, 'server')
})

test('change a resource allocation, and toggle auto-renewal (a double click sends one request)', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const server = await openFirstServer(app, sb)

  const resources = app.getByRole('region', { name: 'Resources' })
  await resources.getByLabel('Resource', { exact: true }).selectOption({ label: 'Databases' })
  await resources.getByLabel('New allocation').fill('25')
  await resources.getByRole('button', { name: 'Change allocation' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Databases is now 25.' })).toBeVisible()
  await expect(resources.getByRole('row', { name: /Databases/ })).toContainText('25')
  expect(writes(sb).at(-1)).toMatchObject({
    method: 'PUT',
    path: `/v1/webservers/${server.webid}/resource`,
    body: { type: 'db_num', num: 25 },
  })

  const auto = app.getByRole('region', { name: 'Auto-renewal' })
  // On is sent as the number the service itself writes for it in this account (10).
  const wanted = server.autorenew_server ? 0 : 10
  await expect(auto.getByLabel('Renew this server automatically')).toBeChecked({
    checked: server.autorenew_server !== 0,
  })
  await auto.getByLabel('Renew this server automatically').setChecked(wanted !== 0)
  const before = writes(sb).length
  await auto.getByRole('button', { name: 'Save' }).dblclick()
  await expect(app.getByRole('status').filter({ hasText: 'Auto-renewal saved.' })).toBeVisible()
  expect(writes(sb).length - before).toBe(1)
  // Only the setting that changed is sent: the account-wide one is left as the service has it.
  expect(writes(sb).at(-1)).toMatchObject({ method: 'PUT', path: `/v1/webservers/${server.webid}/autorenew` })
  expect(writes(sb).at(-1)?.body).toEqual({ autorenew_server: wanted })
  expect(server.autorenew_server).toBe(wanted)
})

test('create a server after confirming; it appears in the list', async ({ app, harness }) => {
  const sb = await harness.demo()
  await app.getByRole('navigation').getByRole('link', { name: 'Managed servers' }).click()
  const form = app.getByRole('region', { name: 'Create a server (Managed servers)' })
  await form.getByLabel('Server name').fill('newsite1')
  await form.getByLabel('Initial domain (optional)').fill('newsite.example.com')
  await form.getByLabel('Prefix the domain with www').check()
  await form.getByRole('button', { name: 'Create server…' }).click()
  const dialog = app.getByRole('dialog')
  await expect(dialog).toContainText(
    'Create the server newsite1 (Managed servers) with the domain newsite.example.com.',
  )
  await dialog.getByRole('button', { name: 'Create server' }).click()
  await expect(app.getByRole('status').filter({ hasText: /Server newsite1 was created \(ID \d+\)/ })).toBeVisible()
  await expect(app.getByRole('table', { name: 'Managed servers' })).toContainText('newsite1')
  expect(writes(sb)).toHaveLength(1)
  expect(writes(sb)[0]).toMatchObject({
    method: 'POST',
    path: '/v1/managedservers',
    body: { webname: 'newsite1', domainname: 'newsite.example.com', www_flg: 1, wp_flg: 0 },
  })
  expect(sb.state.servers.b.some((s) => s.webname === 'newsite1')).toBe(true)
})

test('a create the service rejects keeps what was typed and shows why', async ({ app, harness }) => {
  const sb = await harness.demo()
  const taken = sb.state.servers.a[0]!.webname
  await app.getByRole('navigation').getByRole('link', { name: 'Web servers' }).click()
  const form = app.getByRole('region', { name: 'Create a server (Web servers)' })
  await form.getByLabel('Server name').fill(taken)
  await form.getByRole('button', { name: 'Create server…' }).click()
  await app.getByRole('dialog').getByRole('button', { name: 'Create server' }).click()
  await expect(form.getByRole('alert')).toContainText(`The server name ${taken} is already taken.`)
  await expect(form.getByRole('alert')).toContainText(/Request ID: req-/)
  await expect(form.getByLabel('Server name')).toHaveValue(taken)
})

test('register two svcips at once and see a result per server', async ({ app, harness }) => {
  const sb = await harness.demo()
  const [s1, s2] = sb.state.servers.b
  await app.getByRole('link', { name: 'Service IPs' }).click()
  await expect(app.getByRole('table', { name: 'Service IPs' })).toContainText(sb.state.svcips[0]!.vipname)
  await snap(app, 'svcips-list')
  await expectNoAxeViolations(app, 'svcips')
  const form = app.getByRole('region', { name: 'Register service IPs' })
  await form.getByLabel(s1!.webname).check()
  await form.getByLabel(s2!.webname).check()
  await form.getByLabel('Worldwide (WR)').check()
  await form.getByRole('button', { name: 'Register…' }).click()
  const dialog = app.getByRole('dialog')
  await expect(dialog).toContainText(
    `Register 2 service IPs in region WR for: ${[s1!.webname, s2!.webname].sort().join(', ')}.`,
  )
  await dialog.getByRole('button', { name: 'Register' }).click()
  const results = form.getByRole('region', { name: 'Registration results' })
  await expect(results.getByRole('listitem')).toHaveCount(2)
  await expect(results).toContainText(`for ${s1!.webname}`)
  await expect(results).toContainText(`for ${s2!.webname}`)
  expect(writes(sb)).toHaveLength(1)
  expect(writes(sb)[0]).toMatchObject({ method: 'POST', path: '/v1/svcips' })
  expect(sentBody(writes(sb)[0], z.object({ servers: z.array(z.string()) })).servers.sort()).toEqual(
    [s1!.webname, s2!.webname].sort(),
  )
  expect(sentBody(writes(sb)[0], z.object({ region: z.string() })).region).toBe('WR')
})

test('change svcip settings, extend it, and delete its cache after confirming', async ({ app, harness }) => {
  const sb = await harness.demo()
  const vip = sb.state.svcips[0]!
  const target = sb.state.servers.c[0]!
  await app.getByRole('link', { name: 'Service IPs' }).click()
  await app.getByRole('table', { name: 'Service IPs' }).getByRole('link', { name: vip.vipname }).click()
  await expect(app.getByRole('heading', { level: 1, name: `Service IP ${vip.vipname}` })).toBeVisible()

  const settings = app.getByRole('region', { name: 'Settings' })
  await settings.getByLabel('Server', { exact: true }).selectOption({ label: `${target.webname} (${target.webid})` })
  await settings.getByLabel('Domain name').fill('shop.example.com')
  await settings.getByLabel('Use SSL').check()
  await settings.getByLabel('Certificate ID').fill('cert-77')
  await settings.getByRole('button', { name: 'Save' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible()
  expect(writes(sb).at(-1)).toMatchObject({
    method: 'PUT',
    path: `/v1/svcips/${vip.vipid}/setting`,
    body: { webid: target.webid, domainname: 'shop.example.com', ssl_on: 1, certid: 'cert-77' },
  })
  await expect(app.getByRole('region', { name: 'Details' })).toContainText(target.webname)
  await snap(app, 'svcip-detail')
  await expectNoAxeViolations(app, 'svcip')

  const exp = app.getByRole('region', { name: 'Expiration' })
  await exp.getByLabel('Extend by (months)').fill('12')
  await exp.getByRole('button', { name: 'Extend…' }).click()
  await expect(app.getByRole('dialog')).toContainText(`Extend service IP ${vip.vipname} by 12 months.`)
  await app.getByRole('dialog').getByRole('button', { name: 'Extend' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Extended.' })).toBeVisible()
  expect(writes(sb).at(-1)).toMatchObject({
    method: 'PUT',
    path: `/v1/svcips/${vip.vipid}/expiration`,
    body: { months: 12 },
  })

  await app.getByRole('button', { name: 'Delete cache…' }).click()
  await expect(app.getByRole('dialog')).toContainText('this cannot be undone')
  await app.getByRole('dialog').getByRole('button', { name: 'Delete cache' }).click()
  await expect(app.getByRole('status').filter({ hasText: `The cache of ${vip.vipname} was deleted.` })).toBeVisible()
  expect(writes(sb).at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/svcips/${vip.vipid}/cache` })
})

test('every screen works by keyboard: tab to a link, open it with Enter', async ({ app, harness }) => {
  const sb = await harness.demo()
  await app.getByRole('navigation').getByRole('link', { name: 'Cloud servers' }).focus()
  await app.keyboard.press('Enter')
  await expect(app.getByRole('heading', { level: 1, name: 'Cloud servers' })).toBeFocused()
  const sortButton = app.getByRole('button', { name: 'Sort by Name' })
  await sortButton.focus()
  await app.keyboard.press('Enter')
  await expect(app.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending')
  const names = sb.state.servers.c
    .map((s) => s.webname)
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
  await expect(app.getByRole('table', { name: 'Cloud servers' }).getByRole('row').nth(1)).toContainText(names[0]!)
})

test('auto-renewal of every server of a kind, from the account-wide list', async ({ app, harness }) => {
  const sb = await harness.demo()
  await app.getByRole('navigation').getByRole('link', { name: 'Managed servers' }).click()
  const section = app.getByRole('region', { name: 'Auto-renewal of every server' })
  await section.getByRole('button', { name: 'Show' }).click()
  const table = section.getByRole('table', { name: 'Auto-renewal of every server' })
  await expect(table.getByRole('row')).toHaveCount(sb.state.servers.b.length + 1)
  const s = sb.state.servers.b[0]!
  await expect(table.getByRole('row', { name: new RegExp(s.webname) })).toContainText(s.autorenew_server ? 'On' : 'Off')
  expect(
    sb.received.some((r) => r.endpoint === 'servers.autorenew.list' && r.path === '/v1/managedservers/autorenew'),
  ).toBe(true)
})

test('a server opens by its name from the list; its reads and writes carry the name; an old link by id opens it too', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const server = sb.state.servers.b[1]!
  await app.getByRole('navigation').getByRole('link', { name: 'Managed servers' }).click()
  const link = app.getByRole('table', { name: 'Managed servers' }).getByRole('link', { name: server.webname })
  await expect(link).toHaveAttribute('href', `#/servers/b/${server.webname}`)
  const before = sb.received.length
  await link.click()
  await expect(app).toHaveURL(new RegExp(`#/servers/b/${server.webname}$`))
  await expect(app.getByRole('heading', { level: 1, name: `Server ${server.webname}` })).toBeVisible()
  await expect(app.getByRole('region', { name: 'Details' })).toContainText(String(server.webid))
  await expect.poll(() => serverReads(sb, before)).toEqual(readPaths('managedservers', server.webname))

  // A write from the page goes to that server, by the name; the confirmation still states its dates.
  const exp = app.getByRole('region', { name: 'Expiration' })
  await exp.getByLabel('Extend by (months)').fill('2')
  await exp.getByRole('button', { name: 'Extend…' }).click()
  const dialog = app.getByRole('dialog')
  await expect(dialog).toContainText(`Extend server ${server.webname} by 2 months.`)
  await expect(dialog).toContainText(/expires .+ now, .+ after/)
  const untouched = sb.state.servers.b.filter((s) => s !== server).map((s) => s.expirationdate)
  await dialog.getByRole('button', { name: 'Extend' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Extended. The new expiration date is' })).toBeVisible()
  expect(writes(sb).at(-1)).toMatchObject({
    method: 'PUT',
    path: `/v1/managedservers/${server.webname}/expiration`,
    body: { months: 2 },
    status: 200,
  })
  expect(sb.state.servers.b.filter((s) => s !== server).map((s) => s.expirationdate)).toEqual(untouched)

  const resources = app.getByRole('region', { name: 'Resources' })
  await resources.getByLabel('Resource', { exact: true }).selectOption({ label: 'Databases' })
  await resources.getByLabel('New allocation').fill('31')
  await resources.getByRole('button', { name: 'Change allocation' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Databases is now 31.' })).toBeVisible()
  expect(writes(sb).at(-1)).toMatchObject({
    method: 'PUT',
    path: `/v1/managedservers/${server.webname}/resource`,
    body: { type: 'db_num', num: 31 },
  })
  expect(server.resource.db_num).toBe(31)

  // An old link, by id: the same page, read by id.
  const beforeOld = sb.received.length
  await app.evaluate((hash) => (location.hash = hash), `#/servers/b/${server.webid}`)
  await expect(app.getByRole('heading', { level: 1, name: `Server ${server.webname}` })).toBeVisible()
  await expect.poll(() => serverReads(sb, beforeOld)).toEqual(readPaths('managedservers', server.webid))
})

test('Ctrl+K finds a server by its name and opens its page by the name', async ({ app, harness }) => {
  const sb = await harness.demo()
  const server = sb.state.servers.a[3]!
  // The palette searches what the app has read in full: the web servers, refreshed once.
  await app.getByRole('navigation').getByRole('link', { name: 'Web servers' }).click()
  await expect(
    app.getByRole('table', { name: 'Web servers' }).getByRole('link', { name: server.webname }),
  ).toBeVisible()
  await app.getByRole('button', { name: 'Refresh', exact: true }).click()
  await expect
    .poll(async () => (await harness.services.store.getList('demo', 'servers.list', { kind: 'a' }))?.items.length)
    .toBe(sb.state.servers.a.length)

  await app.keyboard.press('Control+K')
  const palette = app.getByRole('dialog', { name: 'Search everything' })
  await palette.getByRole('combobox').fill(server.webname)
  const hit = palette.getByRole('option').first()
  await expect(hit).toContainText(server.webname)
  await expect(hit).toContainText('Server')
  const before = sb.received.length
  await palette.getByRole('combobox').press('Enter')
  await expect(app).toHaveURL(new RegExp(`#/servers/a/${server.webname}$`))
  await expect(app.getByRole('heading', { level: 1, name: `Server ${server.webname}` })).toBeVisible()
  await expect.poll(() => serverReads(sb, before)).toEqual(readPaths('webservers', server.webname))
})

test('"Expiring soon" links a server by its name', async ({ app, harness }) => {
  const sb = await harness.demo()
  await app.getByRole('navigation').getByRole('link', { name: 'Expiring soon' }).click()
  await app.getByLabel('Expiring within (days)').selectOption('365')
  await app.getByLabel('Type to show').selectOption({ label: 'Web servers' })
  const link = app.getByRole('table', { name: 'Expiring soon' }).locator('tbody tr').first().getByRole('link')
  const name = (await link.textContent())?.trim() ?? ''
  const server = sb.state.servers.a.find((s) => s.webname === name)
  expect(server, name).toBeDefined()
  await expect(link).toHaveAttribute('href', `#/servers/a/${name}`)
  const before = sb.received.length
  await link.click()
  await expect(app.getByRole('heading', { level: 1, name: `Server ${name}` })).toBeVisible()
  await expect.poll(() => serverReads(sb, before)).toEqual(readPaths('webservers', name))
})
