/**
 * A list larger than one page, read in full on demand; and the accounts screen when the
 * keychain is unavailable.
 */
import { KeytarSecretStore, type KeytarLike } from '../../src/main/accounts/secret-store'
import { profileFor } from '../../support/profile'
import { LockableKeychain } from '../helpers/lockable-keychain'
import { startSandbox } from '../../src/sandbox'
import { expect, reloadApp, snap, test } from './fixtures'
import { z } from 'zod'

test.describe('a list of more than one page', () => {
  test.use({ harnessOptions: { demo: { servers: { a: 260 } } } })

  test('shows the first page, then every page on demand with progress', async ({ app, harness }) => {
    const sb = await harness.demo()
    await app.getByRole('navigation').getByRole('link', { name: 'Web servers' }).click()
    const table = app.getByRole('table', { name: 'Web servers' })
    await expect(table.getByRole('row')).toHaveCount(101)
    await expect(app.getByText('First page only: 100 items. There may be more.')).toBeVisible()
    // The pages after the first held at the service until the progress bar (up once the first has answered) is
    // seen: with two seconds a page, it was seen only if a look at the screen fell within the two seconds of the rest.
    sb.faults.inject('servers.list', { hold: true })
    await app.getByRole('button', { name: 'Load all pages' }).click()
    await expect.poll(() => sb.faults.held('servers.list')).toBe(1)
    sb.faults.release(1)
    await expect(app.getByRole('progressbar')).toBeVisible()
    sb.faults.clear()
    // Every row is in the table (the screen shows those in view; the table says how many it holds).
    await expect(table).toHaveAttribute('aria-rowcount', '261')
    await expect(app.getByRole('button', { name: 'Load all pages' })).toHaveCount(0)
    expect(sb.received.filter((r) => r.endpoint === 'servers.list').length).toBeGreaterThanOrEqual(4)
    // Filter and sort work on everything loaded.
    await app.getByLabel('Filter').fill('a' + sb.state.servers.a[199]!.webname.slice(1))
    await expect(table.getByRole('row')).toHaveCount(2)
  })
})

// keytar as it fails without a Secret Service (the real failure is shown in tests/integration/keychain.test.ts).
const noSecretService: KeytarLike = {
  getPassword: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
  setPassword: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
  deletePassword: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
}

test.describe('without a keychain', () => {
  test.use({ harnessOptions: { keychain: new KeytarSecretStore(noSecretService) } })

  test('the accounts screen says what is missing and offers a key for this session only', async ({ app }) => {
    const other = await startSandbox()
    try {
      await app.getByRole('link', { name: 'Accounts & settings' }).click()
      const alert = app.getByRole('alert').filter({ hasText: 'The system keychain is not available' })
      await expect(alert).toContainText('No Secret Service is reachable on D-Bus.')
      await expect(alert).toContainText('GNOME Keyring or KWallet')
      await expect(app.getByRole('radio', { name: 'System keychain' })).toBeDisabled()
      await expect(app.getByRole('radio', { name: /This session only/ })).toBeChecked()
      await snap(app, 'accounts-no-keychain')
      const form = app.getByRole('region', { name: 'Add an account' })
      await form.getByLabel('Name', { exact: true }).fill('Session only')
      await form.getByLabel('Base URL').fill(other.url)
      await form.getByLabel('API key').fill(other.keys.full)
      await form.getByRole('button', { name: 'Add account' }).click()
      const card = app.getByRole('article', { name: /Session only/ })
      await expect(card).toContainText('Key for this session only')
      await card.getByRole('button', { name: 'Test connection' }).click()
      await expect(card.getByRole('status')).toContainText('Connected')
    } finally {
      await other.close()
    }
  })
})

const lockable = new LockableKeychain()

test.describe('a locked keyring', () => {
  test.use({ harnessOptions: { keychain: lockable } })

  test('is said once on a screen of several reads, with one Retry that retries them all', async ({ app, harness }) => {
    const other = await startSandbox({ domains: 5 })
    try {
      const acct = await harness.services.accounts.create(profileFor(other, 'Kept'), other.keys.full, 'keychain')
      await harness.services.accounts.setActive(acct.id)
      lockable.locked = true
      await reloadApp(app)
      // The Domains screen reads the list and the expiry, auto-renewal and transfer lock lists beside it.
      await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
      await expect(app.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible()
      const locked = app.getByRole('alert').filter({ hasText: 'Unlock your keyring' })
      await expect(locked).toHaveCount(1)
      await expect(app.getByRole('alert')).toHaveCount(1)
      await snap(app, 'domains-keyring-locked')
      lockable.locked = false
      await locked.getByRole('button', { name: 'Retry' }).click()
      await expect(app.getByRole('alert')).toHaveCount(0)
      await expect(app.getByRole('alert')).toHaveCount(0)
      await expect(app.getByRole('link', { name: other.state.domains[0]!.domainname, exact: true })).toBeVisible()
    } finally {
      lockable.locked = false
      await other.close()
    }
  })
})

test.describe('a list read of an account that goes away', () => {
  test.use({ harnessOptions: { demo: { domains: 3000 } } })

  test('stops when the user switches to another account', async ({ app, harness }) => {
    const a = await harness.demo()
    const b = await startSandbox({ keys: { full: 'key-of-b' } })
    try {
      await harness.services.accounts.create(profileFor(b, 'Second'), 'key-of-b', 'session')
      await harness.services.accounts.setActive('demo')
      await reloadApp(app)
      const pages = () => a.received.filter((r) => r.endpoint === 'domains.list').length
      const answered = () => a.received.filter((r) => r.endpoint === 'domains.list' && r.status === 200).length
      // Every page waits for the test: three are let go, the switch is made while the others are
      // held, and only then may they answer. With pages of 150 ms each, a switch 2 s late (a loaded
      // machine) found the list read whole.
      a.faults.inject('domains.list', { hold: true })
      await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
      for (let n = 0; n < 3; n++) {
        await expect.poll(() => a.faults.held('domains.list'), { timeout: 10_000 }).toBeGreaterThan(0)
        a.faults.release(1)
        await expect.poll(answered, { timeout: 10_000 }).toBeGreaterThan(n)
      }
      await app.getByLabel('Account').selectOption({ label: 'Second' })
      await expect(app.getByRole('heading', { level: 1, name: 'Domains' })).toBeVisible()
      // 3,000 domains are 30 pages; the read stopped with the switch, far short of them: the
      // window's read of the demo's domains has ended, and no request of it is left at the sandbox.
      const accountOf = (payload: unknown) => z.object({ accountId: z.string() }).safeParse(payload).data?.accountId
      // The window's read of the list from the service: asked whole (all.domains.list), or its first part
      // read afresh in main and the rest carried from what that read kept (store.list from the service, issue 54).
      const freshFirstPart = z.object({ name: z.literal('domains.list'), from: z.literal('service') })
      const readsService = (c: { channel: string; payload: unknown }) =>
        c.channel === 'all.domains.list' || (c.channel === 'store.list' && freshFirstPart.safeParse(c.payload).success)
      const demoRead = () => harness.windowCalls.filter((c) => readsService(c) && accountOf(c.payload) === 'demo')
      await expect
        .poll(() => demoRead().length > 0 && demoRead().every((c) => c.answered), { timeout: 15_000 })
        .toBe(true)
      expect(demoRead().at(-1)?.answer).toMatchObject({ ok: false, error: { kind: 'cancelled' } })
      // The held pages go on, into connections the stopped read has closed.
      a.faults.clear()
      await expect.poll(() => a.load.inFlight, { timeout: 15_000 }).toBe(0)
      const afterSwitch = pages()
      // Later (the second account's list on screen): still not a page more.
      await expect(app.getByRole('table', { name: 'Domains' }).getByRole('row').nth(1)).toBeVisible()
      expect(pages()).toBe(afterSwitch)
      expect(afterSwitch).toBeLessThan(30)
    } finally {
      await b.close()
    }
  })
})
