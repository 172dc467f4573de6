/**
 * First run, accounts, switching, errors and language, in the real renderer in Chromium,
 * driven by role and label as a person would.
 */
import { startSandbox } from '../../src/sandbox'
import { expect, reloadApp, reloadInLanguage, snap, test } from './fixtures'
import { expectNoAxeViolations } from './axe'

test('first run shows the demo account with servers of all three kinds', async ({ app, harness }) => {
  const sb = await harness.demo()
  await expect(app.getByLabel('Account', { exact: true })).toHaveValue('demo')
  await expect(app.getByLabel('Account', { exact: true }).locator('option:checked')).toHaveText('Demo (local sandbox)')

  for (const [kind, label] of [
    ['a', 'Web servers'],
    ['b', 'Managed servers'],
    ['c', 'Cloud servers'],
  ] as const) {
    await app.getByRole('navigation').getByRole('link', { name: label }).click()
    await expect(app.getByRole('heading', { level: 1, name: label })).toBeVisible()
    const table = app.getByRole('table', { name: label })
    await expect(table.getByRole('row')).toHaveCount(sb.state.servers[kind].length + 1)
    await expect(table).toContainText(sb.state.servers[kind][0]!.webname)
    if (kind === 'a') {
      await snap(app, 'servers-list')
      await expectNoAxeViolations(app, 'servers')
    }
  }
})

test('add a second account with its own sandbox and key, switch between accounts, see each account’s data', async ({
  app,
  harness,
}) => {
  const demo = await harness.demo()
  const other = await startSandbox({ seed: 7, serverPaths: { a: 'shared', b: 'business', c: 'vps' } })
  try {
    await app.getByRole('link', { name: 'Accounts & settings' }).click()
    await expect(app.getByRole('heading', { level: 1, name: 'Accounts & settings' })).toBeVisible()
    await snap(app, 'accounts')
    await expectNoAxeViolations(app, 'accounts')

    const form = app.getByRole('region', { name: 'Add an account' })
    await form.getByLabel('Name', { exact: true }).fill('Reseller')
    await form.getByLabel('Base URL').fill(other.url)
    await form.getByLabel('API key').fill(other.keys.full)
    // The server kinds are among the advanced settings, folded until asked for.
    await form.getByText('Advanced', { exact: true }).click()
    await form.getByLabel('Path word for kind A').fill('shared')
    await form.getByLabel('Label for kind A').fill('Shared hosting')
    await form.getByLabel('Path word for kind B').fill('business')
    await form.getByLabel('Path word for kind C').fill('vps')
    await form.getByRole('button', { name: 'Add account' }).click()
    await expect(app.getByRole('status').filter({ hasText: 'Account “Reseller” added.' })).toBeVisible()
    // The key field is cleared once sent, and the key never reaches the page.
    await expect(form.getByLabel('API key')).toHaveValue('')
    expect(await app.content()).not.toContain(other.keys.full)
    // Adding does not switch: the user is asked, and the account in use stays until they answer.
    const offer = app.getByRole('group', { name: /Switch to “Reseller” now\?/ })
    await expect(offer).toContainText('You are working in “Demo (local sandbox)”.')
    await expect(offer.getByRole('button', { name: 'Switch to Reseller' })).toBeFocused()
    await expect(app.getByLabel('Account', { exact: true })).toHaveValue('demo')
    await snap(app, 'accounts-switch-offer')

    const card = app.getByRole('article', { name: /Reseller/ })
    await expect(card).toContainText(
      process.env.DBUS_SESSION_BUS_ADDRESS ? 'Key in keychain' : 'Key for this session only',
    )
    await card.getByRole('button', { name: 'Test connection' }).click()
    await expect(card.getByRole('status')).toContainText('Connected')

    // Switch to it: its own servers under its own labels.
    await offer.getByRole('button', { name: 'Switch to Reseller' }).click()
    await expect(app.getByRole('status').filter({ hasText: 'Now working in “Reseller”.' })).toBeVisible()
    await expect(app.getByLabel('Account', { exact: true }).locator('option:checked')).toHaveText('Reseller')
    await app.getByRole('navigation').getByRole('link', { name: 'Shared hosting' }).click()
    const table = app.getByRole('table', { name: 'Shared hosting' })
    await expect(table).toContainText(other.state.servers.a[0]!.webname)
    await expect(table.getByRole('row')).toHaveCount(other.state.servers.a.length + 1)
    expect(
      other.received.some((r) => r.path === '/v1/shared' && r.headers.authorization === `Bearer ${other.keys.full}`),
    ).toBe(true)

    // And back to the demo.
    await app.getByLabel('Account', { exact: true }).selectOption({ label: 'Demo (local sandbox)' })
    await app.getByRole('navigation').getByRole('link', { name: 'Web servers' }).click()
    await expect(app.getByRole('table', { name: 'Web servers' })).toContainText(demo.state.servers.a[0]!.webname)
    await expect(app.getByRole('table', { name: 'Web servers' })).not.toContainText(other.state.servers.a[0]!.webname)

    // Remove the second account, after confirming.
    await app.getByRole('link', { name: 'Accounts & settings' }).click()
    await app
      .getByRole('article', { name: /Reseller/ })
      .getByRole('button', { name: 'Remove' })
      .click()
    const dialog = app.getByRole('dialog', { name: 'Remove' })
    await expect(dialog).toContainText('Remove the account “Reseller” from this app?')
    await dialog.getByRole('button', { name: 'Remove' }).click()
    await expect(app.getByRole('article', { name: /Reseller/ })).toHaveCount(0)
  } finally {
    await other.close()
  }
})

test('the base URL: https, or http to this computer for local testing; and staying in the account in use', async ({
  app,
}) => {
  const other = await startSandbox()
  try {
    await app.getByRole('link', { name: 'Accounts & settings' }).click()
    const form = app.getByRole('region', { name: 'Add an account' })
    const baseUrl = form.getByLabel('Base URL')
    await expect(baseUrl).toHaveAccessibleDescription(
      'The API address, ending in /v1. It must use https; plain http is accepted only to this computer, for local testing: localhost, 127.0.0.1 (or any 127.x.x.x) and [::1].',
    )
    // The same rule the app applies when it saves and calls (shared/accounts/base-url.ts).
    await baseUrl.fill('http://api.example.com/v1')
    await baseUrl.blur()
    await expect(form).toContainText(
      'Must use https (plain http is accepted only to this computer, for local testing: localhost, 127.x.x.x or [::1]).',
    )
    await expect(baseUrl).toHaveAttribute('aria-invalid', 'true')
    for (const ok of [
      'https://api.example.com/v1',
      'http://localhost:8787/v1',
      'http://127.0.0.2:8787/v1',
      'http://[::1]:8787/v1',
    ]) {
      await baseUrl.fill(ok)
      await expect(baseUrl, ok).toHaveAttribute('aria-invalid', 'false')
    }
    await baseUrl.fill('https://user:pw@api.example.com/v1')
    await expect(form).toContainText('Must not contain a user name or password.')
    await baseUrl.evaluate((el) => el.scrollIntoView({ block: 'center' }))
    await snap(app, 'accounts-base-url')
    await app.setViewportSize({ width: 1024, height: 640 })
    await baseUrl.evaluate((el) => el.scrollIntoView({ block: 'center' }))
    await snap(app, 'accounts-base-url-1024')

    // A loopback http URL is accepted when saved; the user stays in the account in use.
    await form.getByLabel('Name', { exact: true }).fill('Local test')
    await baseUrl.fill(other.url.replace('127.0.0.1', 'localhost'))
    await form.getByLabel('API key').fill(other.keys.full)
    await form.getByRole('button', { name: 'Add account' }).click()
    const offer = app.getByRole('group', { name: /Switch to “Local test” now\?/ })
    await offer.getByRole('button', { name: 'Stay in Demo (local sandbox)' }).click()
    await expect(offer).toHaveCount(0)
    await expect(form.getByLabel('Name', { exact: true })).toBeFocused()
    await expect(app.getByLabel('Account', { exact: true })).toHaveValue('demo')
    await reloadApp(app)
    await expect(app.getByLabel('Account', { exact: true })).toHaveValue('demo')
    await expect(app.getByRole('article', { name: /Local test/ })).toContainText(
      other.url.replace('127.0.0.1', 'localhost'),
    )
  } finally {
    await other.close()
  }
})

test('adding an account in Japanese, and on a smaller window', async ({ app }) => {
  const other = await startSandbox()
  try {
    await reloadInLanguage(app, 'ja')
    await app.setViewportSize({ width: 1024, height: 640 })
    await app.getByRole('link', { name: 'アカウントと設定' }).click()
    const form = app.getByRole('region', { name: 'アカウントを追加' })
    await expect(form).toContainText(
      'http はローカルでのテスト用に、このコンピューター(localhost、127.0.0.1 などの 127.x.x.x、[::1])宛てにだけ使えます。',
    )
    await form.getByLabel('名前').fill('検証用')
    await form.getByLabel('ベースURL').fill(other.url)
    await form.getByLabel('APIキー').fill(other.keys.full)
    await form.getByRole('button', { name: 'アカウントを追加' }).click()
    const offer = app.getByRole('group', { name: /「検証用」に今すぐ切り替えますか/ })
    await expect(offer.getByRole('button', { name: '検証用 に切り替える' })).toBeFocused()
    await snap(app, 'accounts-switch-offer-ja')
    await app.setViewportSize({ width: 1280, height: 800 })
    await snap(app, 'accounts-switch-offer-ja-1280')
    await offer.getByRole('button', { name: '検証用 に切り替える' }).click()
    await expect(app.getByRole('status').filter({ hasText: '「検証用」に切り替えました。' })).toBeVisible()
  } finally {
    await other.close()
  }
})

test('a 503 on a list shows a clear error with the request ID; retry then works', async ({ app, harness }) => {
  const sb = await harness.demo()
  // Reads are retried twice by the client, so the fault covers three requests.
  sb.faults.inject('svcips.list', { status: 503, times: 3 })
  await app.getByRole('link', { name: 'Service IPs' }).click()
  const alert = app.getByRole('alert')
  await expect(alert).toContainText('The service is temporarily unavailable')
  await expect(alert).toContainText(/Request ID: req-/)
  // The ID shown is the one the service logged for the last failed attempt.
  const logged = sb.state.logs.filter((l) => l.path.startsWith('/v1/svcips')).at(-1)!
  expect(logged.response).toContain('Service Unavailable')
  await expect(alert).toContainText(`Request ID: ${logged.request_id}`)
  await snap(app, 'error-503')
  await alert.getByRole('button', { name: 'Retry' }).click()
  await expect(app.getByRole('table', { name: 'Service IPs' })).toContainText(sb.state.svcips[0]!.vipname)
  await expect(app.getByRole('alert')).toHaveCount(0)
})

test('the error banner links to the log entry of its request', async ({ app, harness }) => {
  const sb = await harness.demo()
  sb.faults.inject('svcips.list', { status: 500, times: 1 })
  await app.getByRole('link', { name: 'Service IPs' }).click()
  const link = app.getByRole('alert').getByRole('link', { name: 'View in the log' })
  await link.click()
  await expect(app.getByRole('heading', { level: 1, name: 'API log' })).toBeVisible()
  await expect(app.getByRole('heading', { level: 2, name: /Log entry req-/ })).toBeVisible()
  await expect(app.locator('dl')).toContainText('/v1/svcips')
})

test('a wrong key shows a message that tells the user to replace it', async ({ app }) => {
  const other = await startSandbox()
  try {
    await app.getByRole('link', { name: 'Accounts & settings' }).click()
    const form = app.getByRole('region', { name: 'Add an account' })
    await form.getByLabel('Name', { exact: true }).fill('Typo')
    await form.getByLabel('Base URL').fill(other.url)
    await form.getByLabel('API key').fill('this-is-not-the-key')
    await form.getByRole('button', { name: 'Add account' }).click()
    await expect(app.getByRole('article', { name: /Typo/ })).toBeVisible()
    await app.getByLabel('Account', { exact: true }).selectOption({ label: 'Typo' })
    await app.getByRole('navigation').getByRole('link', { name: 'Web servers' }).click()
    const alert = app.getByRole('alert')
    await expect(alert).toContainText('The API key was not accepted')
    await expect(alert).toContainText('replace it for this account in Accounts')
    await expect(alert).toContainText('list of allowed addresses')
    // Replaced over this screen, which reads again once it is.
    await alert.getByRole('button', { name: 'Replace the key…' }).click()
    const dialog = app.getByRole('dialog', { name: 'Replace the API key of “Typo”' })
    await dialog.getByLabel('New API key').fill(other.keys.full)
    await dialog.getByRole('button', { name: 'Replace key' }).click()
    await expect(app.getByRole('status').filter({ hasText: 'The key of “Typo” was replaced.' })).toBeVisible()
    await expect(dialog).toBeHidden()
    await expect(app.getByRole('heading', { level: 1, name: 'Web servers' })).toBeVisible()
    await expect(app.getByRole('table', { name: 'Web servers' })).toContainText(other.state.servers.a[0]!.webname)
  } finally {
    await other.close()
  }
})

test('switching the language to Japanese changes the visible text', async ({ app }) => {
  await app.getByRole('link', { name: 'Accounts & settings' }).click()
  await app.getByLabel('Language').selectOption('ja')
  await expect(app.getByRole('heading', { level: 1, name: 'アカウントと設定' })).toBeVisible()
  await expect(app.getByRole('navigation').getByRole('link', { name: 'サービスIP' })).toBeVisible()
  await expect(app.locator('html')).toHaveAttribute('lang', 'ja')
  await snap(app, 'accounts-ja')
  // It sticks across a reload.
  await reloadApp(app)
  await expect(app.getByRole('combobox', { name: 'アカウント', exact: true })).toBeVisible()
})
