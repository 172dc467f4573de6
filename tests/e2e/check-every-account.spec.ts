/**
 * Every account checked for changes at once (issue 26, point 3): each account's lists are read
 * again from its own service, each account's result is said on its own line, and a change made
 * outside this app in one account is counted for that account only.
 */
import { startSandbox } from '../../src/sandbox'
import { profileFor } from '../../support/profile'
import { expect, reloadApp, snap, test } from './fixtures'

test('every account is checked at once, each from its own service; a change made outside one is counted for it alone', async ({
  app,
  harness,
}) => {
  const demo = await harness.demo()
  const other = await startSandbox({ domains: 12 })
  try {
    const second = await harness.services.accounts.create(profileFor(other, 'Second shop'), other.keys.full, 'session')
    await reloadApp(app)
    await app
      .getByRole('navigation')
      .getByRole('link', { name: /^Activity/ })
      .click()
    await app.getByRole('button', { name: 'Check every account now' }).click()
    const results = app.getByRole('region', { name: 'Every account checked for changes' })
    await expect(results.getByRole('status')).toHaveText(/Every account read again \(\d+\)\./)
    const line = (name: string) => results.locator('.check-all > li').filter({ hasText: name })
    await expect(line('Second shop')).toContainText('10 lists read again: no change from outside this app.')
    // Each account was read from its own service.
    expect(other.received.some((r) => r.endpoint === 'domains.list')).toBe(true)
    expect(demo.received.some((r) => r.endpoint === 'domains.whois.list')).toBe(true)

    // Someone changes a transfer lock in the second account's panel: the next check counts it there.
    const d = other.state.domains[3]!
    d.transfer_lock = d.transfer_lock === 1 ? 0 : 1
    await app.getByRole('button', { name: 'Check every account now' }).click()
    await expect(results.getByRole('status')).toHaveText(/Every account read again/)
    await expect(line('Second shop')).toContainText('10 lists read again: 1 change from outside this app.')
    for (const li of await results.locator('.check-all > li').all()) {
      if (!(await li.textContent())?.includes('Second shop'))
        await expect(li).toContainText('no change from outside this app')
    }
    expect(second.id).toBeTruthy()
    await snap(app, 'check-every-account')
  } finally {
    await other.close()
  }
})
