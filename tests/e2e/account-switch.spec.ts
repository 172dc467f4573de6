/**
 * Switching account on one item's screen (issue 39, point 7): a domain of one account is not
 * the other's. The screen stays when the other account has the same domain (its stored list
 * says so), and otherwise shows that account's domain list, never "not known".
 */
import { startSandbox } from '../../src/sandbox'
import { profileFor } from '../../support/profile'
import type { Page } from '@playwright/test'
import { expect, reloadApp, reloadInLanguage, test } from './fixtures'
import type { Harness } from '../../support/harness'
import { expectNoAxeViolations } from './axe'
import { openDomain } from './domain-screens'

/**
 * Switches account as the user does, and waits until the switch has ended: the window's title
 * names the account. Until then the sidebar may still change (the account's band comes or goes),
 * and a click on a link of it can land beside the link (CI caught one on "Domains").
 */
async function switchTo(app: Page, id: string) {
  const switcher = app.getByLabel(/^(Account|アカウント)$/)
  await switcher.selectOption(id)
  const name = (await switcher.locator(`option[value="${id}"]`).textContent())?.trim() ?? ''
  await expect(app).toHaveTitle(new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
}

const ENGLISH = { domains: 'Domains', filter: 'Filter', account: 'Account', overview: 'Overview' }
const JAPANESE = { domains: 'ドメイン', filter: '絞り込み', account: 'アカウント', overview: '概要' }

/** The walk, in one language; it ends on the other account's domain list, for the test's axe scan. */
async function switchOnDomainScreens(
  app: Page,
  harness: Harness,
  locale: 'en' | 'ja',
  words: typeof ENGLISH,
  scan: () => Promise<void>,
) {
  const demo = await harness.demo()
  const other = await startSandbox({ seed: 7 })
  try {
    // One domain both accounts hold (as after a move between accounts), one only the demo holds.
    const shared = demo.state.domains[0]!
    other.state.domains.push({ ...structuredClone(shared), domainid: 900_001 })
    const otherNames = new Set(other.state.domains.map((d) => d.domainname))
    const demoOnly = demo.state.domains.find((d) => !otherNames.has(d.domainname))!
    const second = await harness.services.accounts.create(profileFor(other, 'Second'), other.keys.full, 'session')
    await reloadInLanguage(app, locale)
    const switcher = app.getByLabel(words.account, { exact: true })

    // The other account's domain list is read once (it is then in the store), then back to the demo.
    await switchTo(app, second.id)
    await app.getByRole('navigation').getByRole('link', { name: words.domains, exact: true }).click()
    await expect(app.getByRole('link', { name: shared.domainname, exact: true })).toBeVisible()
    await switchTo(app, 'demo')

    // On the shared domain's screen: the switch keeps it, read from the other account.
    await openDomain(app, shared.domainname, words.overview, words)
    await switchTo(app, second.id)
    await expect(switcher).toHaveValue(second.id)
    await expect(app.getByRole('heading', { level: 1, name: shared.domainname })).toBeVisible()
    await expect(app).toHaveURL(new RegExp(`#/domains/${shared.domainname.replace(/\./g, '\\.')}$`))
    await expect.poll(() => other.received.some((r) => r.path.includes(shared.domainname))).toBe(true)
    await expect(app.getByRole('tab', { name: words.overview, exact: true })).toBeVisible()

    // On a server's screen: the switch shows the other account's servers of that kind.
    await app.getByRole('navigation').getByRole('link', { name: 'Web', exact: true }).click()
    const server = app.getByRole('table').getByRole('link').first()
    const serverName = (await server.textContent())?.trim() ?? ''
    await server.click()
    await expect(app).toHaveURL(/#\/servers\/a\/[^/]+$/)
    await switchTo(app, 'demo')
    await expect(app).toHaveURL(/#\/servers\/a$/)
    expect(demo.received.some((r) => serverName !== '' && r.path.includes(`/${serverName}`))).toBe(false)

    // On a domain only the demo holds: the switch shows the other account's list.
    await openDomain(app, demoOnly.domainname, words.overview, words)
    await switchTo(app, second.id)
    await expect(app.getByRole('heading', { level: 1, name: words.domains })).toBeVisible()
    await expect(app).toHaveURL(/#\/domains$/)
    await expect(app.getByRole('link', { name: shared.domainname, exact: true })).toBeVisible()
    await expect(app.getByRole('link', { name: demoOnly.domainname, exact: true })).toHaveCount(0)
    expect(other.received.some((r) => r.path.includes(demoOnly.domainname))).toBe(false)
    await scan()
  } finally {
    await other.close()
  }
}

test('switching account on a domain’s screen: the same domain when that account has it, else that account’s domain list', async ({
  app,
  harness,
}) => {
  await switchOnDomainScreens(app, harness, 'en', ENGLISH, () =>
    expectNoAxeViolations(app, 'domains, after an account switch'),
  )
})

test('switching account on a domain’s screen, in Japanese', async ({ app, harness }) => {
  await switchOnDomainScreens(app, harness, 'ja', JAPANESE, () =>
    expectNoAxeViolations(app, 'domains, after an account switch, Japanese'),
  )
})

test('switching account while an item’s screen is still loading: the other account’s list, never that item asked of it', async ({
  app,
  harness,
}) => {
  const demo = await harness.demo()
  const other = await startSandbox({ seed: 7 })
  try {
    const second = await harness.services.accounts.create(profileFor(other, 'Second'), other.keys.full, 'session')
    await reloadApp(app)
    const switcher = app.getByLabel('Account', { exact: true })
    // A new account is the active one: back to the demo's servers.
    await switchTo(app, 'demo')
    const server = demo.state.servers.a[0]!
    const link = app.getByRole('table').getByRole('link', { name: server.webname, exact: true })
    await expect(link).toBeVisible()
    // The server screen's code held back: a table's link changes the address at the click, and
    // the screen comes when its code has loaded (slowly, on a busy machine).
    let letGo: () => void = () => undefined
    const held = new Promise<void>((resolve) => (letGo = resolve))
    await app.route(/ServerDetailView-[^/]*\.js$/, async (route) => {
      await held
      await route.continue()
    })
    await link.click()
    await expect(app).toHaveURL(new RegExp(`#/servers/a/${server.webname}$`))
    await switcher.selectOption(second.id)
    await expect(switcher).toHaveValue(second.id)
    letGo()
    await expect(app).toHaveURL(/#\/servers\/a$/)
    await expect(app.getByRole('heading', { level: 1 })).toBeVisible()
    expect(other.received.some((r) => r.path.includes(`/${server.webname}`))).toBe(false)
  } finally {
    await other.close()
  }
})
