/**
 * The "Expiring soon" overview reads every account at once.
 */
import { startSandbox } from '../../src/sandbox'
import { expect, snap, test } from './fixtures'
import { profileFor } from '../helpers/profile'

test('domains, servers and svcips of every account, by date; an unreadable account is reported', async ({ app, harness }) => {
  const demo = await harness.demo()
  const other = await startSandbox({ seed: 99 })
  try {
    const fields = (name: string) => profileFor(other, name)
    await harness.services.accounts.create(fields('Second'), other.keys.full, 'session')
    await harness.services.accounts.create(fields('Broken'), 'not-the-key', 'session')
    await harness.services.accounts.setActive('demo')
    await app.reload()

    await app.getByRole('navigation').getByRole('link', { name: 'Expiring soon' }).click()
    const table = app.getByRole('table', { name: 'Expiring soon' })
    const today = new Date().toISOString().slice(0, 10)
    const soonDemo = demo.state.domains.find((d) => d.expirationdate > today && d.expirationdate <= new Date(Date.now() + 25 * 86_400_000).toISOString().slice(0, 10))!
    const soonOther = other.state.domains.find((d) => d.expirationdate < today)!
    await expect(table.getByRole('row', { name: new RegExp(soonDemo.domainname.replace(/\./g, '\\.')) })).toContainText('Demo (local sandbox)')
    await expect(table.getByRole('row', { name: new RegExp(soonOther.domainname.replace(/\./g, '\\.')) })).toContainText('Second')
    await expect(table.getByRole('row', { name: new RegExp(soonOther.domainname.replace(/\./g, '\\.')) })).toContainText('Expired')
    await expect(table).toContainText('Service IPs')
    await expect(app.getByText('The account “Broken” could not be read:')).toBeVisible()
    await expect(app.getByRole('alert').filter({ hasText: 'The API key was not accepted' })).toBeVisible()
    // Sorted by date: the first row is the most overdue.
    const when = await table.locator('tbody tr td:first-child').allTextContents()
    expect(when[0]).toBe('Expired')
    expect(when.at(-1)).toMatch(/^Expires in \d+ days$/)
    const lastExpired = when.lastIndexOf('Expired')
    expect(when.slice(0, lastExpired + 1).every((w) => w === 'Expired')).toBe(true)
    await snap(app, 'expiring-soon')
  } finally {
    await other.close()
  }
})
