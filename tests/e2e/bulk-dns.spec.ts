/**
 * Bulk DNS change end to end: two accounts (the demo sandbox and a second, production sandbox),
 * zones in both holding an A record 192.0.2.10, read once through the app; 192.0.2.10 replaced
 * with 198.51.100.20 in zones of both accounts. A zone over the 30 % rule is not sent until its
 * own box is ticked; exactly the planned PUTs reach each sandbox and nothing else changes; one
 * zone is restored from its snapshot. A zone changed at the service after its plan is not
 * overwritten (main's guard).
 */
import type { Page } from '@playwright/test'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { firstItems } from '../helpers/first-items'
import { profileFor } from '../../support/profile'
import { expect, reloadApp, reloadInLanguage, snap, test } from './fixtures'
import { expectNoAxeViolations } from './axe'

const OLD = '192.0.2.10'
const NEW = '198.51.100.20'
const DEMO = 'Demo (local sandbox)'
/** The service's own DNS (svc1), which takes a save. */
const svc1Zones = (sb: Sandbox) => sb.state.domains.filter((d) => d.ns[0] === 'ns1.svc1.example.net')
const zoneSaves = (sb: Sandbox) =>
  sb.received.filter((r) => r.endpoint === 'domains.dns.set' || r.endpoint === 'freedns.set')
/** Each A record of 192.0.2.10 with the new address, and nothing else. */
const migrated = (text: string) => text.replace(/^(a \S+ )192\.0\.2\.10$/gm, `$1${NEW}`)
/** The zone a save went to: /v1/domains/{domain}/dns or /v1/freedns/{domain}. */
function domainOfSave(path: string): string {
  const parts = path.split('?')[0]!.split('/').filter(Boolean)
  return decodeURIComponent((parts.at(-1) === 'dns' ? parts.at(-2) : parts.at(-1)) ?? '')
}

async function openBulk(app: Page) {
  await app.getByRole('navigation').getByRole('link', { name: 'Bulk DNS change' }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'Bulk DNS change' })).toBeVisible()
}

async function selectZone(app: Page, zone: string, account: string) {
  await app.getByLabel('Filter zones').fill(zone)
  await app.getByRole('checkbox', { name: `Select ${zone} (${account})`, exact: true }).check()
  await app.getByLabel('Filter zones').fill('')
}

const card = (app: Page, zone: string) =>
  app.getByRole('region', { name: new RegExp(`^${zone.replace(/\./g, '\\.')}`) })

test('replace an address in zones of two accounts: a plan per zone, a zone over 30 % only when ticked, exactly the planned saves, nothing else changed', async ({
  app,
  harness,
}) => {
  test.setTimeout(120_000)
  const a = await harness.demo()
  const b = await startSandbox({ seed: 7, keys: { full: 'key-bulk-b' } })
  try {
    // The zones, seeded at each sandbox: what the plans will be made from.
    const [a1, aSpare] = firstItems(svc1Zones(a), 2)
    const aFree = a.state.freedns[0]!
    const [b1, b2, b3] = firstItems(svc1Zones(b), 3)
    a1.dns.svc1.records = [
      `a @ ${OLD}`,
      'a www 192.0.2.11',
      `mx mail.${a1.domainname}. 10`,
      `txt @ v=spf1 ip4:${OLD} -all`,
      'a mail 198.51.100.5',
    ].join('\n')
    aFree.records = [`a www ${OLD}`, 'a @ 203.0.113.5', 'a api 203.0.113.6', 'a x 203.0.113.7'].join('\n')
    // Four of ten records change: over the rule (it applies to zones of 10 records or more).
    const b1Rest = [
      `cname docs www.${b1.domainname}.`,
      ...Array.from({ length: 5 }, (_, i) => `a h${i} 203.0.113.${20 + i}`),
    ]
    b1.dns.svc1.records = [`a @ ${OLD}`, `a www ${OLD}`, `a api ${OLD}`, `a cdn ${OLD}`, ...b1Rest].join('\n')
    // 192.0.2.100 begins with 192.0.2.10: it must stay.
    b2.dns.svc1.records = [
      `a @ ${OLD}`,
      'a www 192.0.2.100',
      'a h1 203.0.113.1',
      'a h2 203.0.113.2',
      'a h3 203.0.113.3',
      '',
    ].join('\n')
    b3.dns.svc1.records = ['a @ 203.0.113.9', 'a www 203.0.113.9'].join('\n')
    const before = new Map<string, string>([
      [a1.domainname, a1.dns.svc1.records],
      [aFree.domainname, aFree.records],
      [b1.domainname, b1.dns.svc1.records],
      [b2.domainname, b2.dns.svc1.records],
      [b3.domainname, b3.dns.svc1.records],
    ])
    const untouchedA = aSpare.dns.svc1.records

    await harness.services.accounts.create(
      { ...profileFor(b, 'Second'), colour: 'teal', environment: 'production' },
      'key-bulk-b',
      'session',
    )
    await harness.services.accounts.create(
      { ...profileFor(b, 'Audit'), colour: 'purple', readOnly: true },
      'key-bulk-b',
      'session',
    )
    await harness.services.accounts.setActive('demo')
    await reloadApp(app)
    await openBulk(app)

    // 1. Both accounts; the read-only one is listed and says why it is never sent to.
    await app.getByRole('checkbox', { name: /^Demo \(local sandbox\)/ }).check()
    await app.getByRole('checkbox', { name: /^Second/ }).check()
    await expect(app.getByRole('checkbox', { name: /^Audit/ })).not.toBeChecked()
    await expect(app.getByText('Read-only: its zones can be planned, but nothing is sent to it.')).toBeVisible()

    // 2. The zones, once read through the app, from the store.
    await app.getByRole('button', { name: 'Read the zone lists from the service' }).click()
    await expect(app.getByRole('checkbox', { name: `Select ${b1.domainname} (Second)` })).toBeVisible()
    const savesBefore = { a: zoneSaves(a).length, b: zoneSaves(b).length }
    expect(savesBefore).toEqual({ a: 0, b: 0 })
    await selectZone(app, a1.domainname, DEMO)
    await selectZone(app, aFree.domainname, DEMO)
    for (const d of [b1, b2, b3]) await selectZone(app, d.domainname, 'Second')
    await expect(app.getByText('5 zones selected')).toBeVisible()

    // 3. The change, 4. the plans.
    await app.getByLabel('Value to replace').fill(OLD)
    await app.getByLabel('New value').fill(NEW)
    await app.getByRole('button', { name: 'Build plans' }).click()
    await expect(app.getByRole('heading', { name: '4. Plans' })).toBeVisible()
    await expect(app.getByText('To change: 4. Nothing to change: 1. Not read: 0.')).toBeVisible()
    // Only reads so far.
    expect({ a: zoneSaves(a).length, b: zoneSaves(b).length }).toEqual(savesBefore)

    await expect(card(app, a1.domainname)).toContainText('1 of 5 records change (20 %).')
    await expect(card(app, a1.domainname)).toContainText(`change A @: ${OLD} → ${NEW}`)
    // The SPF text that mentions the address is shown, and left alone.
    await expect(card(app, a1.domainname)).toContainText(`v=spf1 ip4:${OLD} -all`)
    await expect(card(app, b2.domainname)).toContainText('1 of 5 records change (20 %).')
    const flagged = card(app, b1.domainname)
    await expect(flagged).toContainText('4 of 10 records change (40 %).')
    await expect(flagged).toContainText('More than 30 % of this zone’s records change.')
    const own = flagged.getByRole('checkbox', { name: 'I have read this zone’s plan; apply it' })
    await expect(own).not.toBeChecked()
    // The zones with nothing to change are folded into a count, open on request.
    const nothing = app.locator('details.bulk-nothing')
    await expect(nothing.getByText('1 zone has nothing to change')).toBeVisible()
    await expect(nothing.getByText(b3.domainname)).toBeHidden()
    await nothing.getByText('1 zone has nothing to change').click()
    await expect(nothing.getByRole('list').filter({ hasText: b3.domainname })).toBeVisible()
    await expect(app.getByRole('button', { name: 'Apply to 3 zones…' })).toBeEnabled()
    await app.getByRole('heading', { name: '4. Plans' }).evaluate((h) => h.scrollIntoView({ block: 'start' }))
    await snap(app, 'bulk-dns-plans')
    await expectNoAxeViolations(app, 'bulk dns plans')

    // 5. Apply without ticking the flagged zone: one confirmation naming both accounts, the production one by its name.
    await app.getByRole('button', { name: 'Apply to 3 zones…' }).click()
    const dialog = app.getByRole('dialog', { name: 'Apply the bulk DNS change' })
    await expect(dialog).toContainText('Change the records of 3 zones in 2 accounts:')
    const accountsList = dialog.getByRole('list', { name: 'Accounts' })
    await expect(accountsList.getByRole('listitem').filter({ hasText: DEMO })).toContainText('2 zones')
    await expect(accountsList.getByRole('listitem').filter({ hasText: 'Second' })).toContainText('1 zone')
    await expect(accountsList.getByRole('listitem').filter({ hasText: 'Second' })).toContainText(/production/i)
    const go = dialog.getByRole('button', { name: 'Apply to 3 zones' })
    await expect(go).toBeDisabled()
    await dialog.getByLabel('Name of the account Second').fill('Second')
    await snap(app, 'bulk-dns-confirm')
    await expectNoAxeViolations(app, 'bulk dns confirmation', { include: 'dialog' })
    await go.click()

    const results = app.getByRole('table', { name: '5. Results' })
    const row = (zone: string) => results.getByRole('row').filter({ hasText: zone })
    await expect(app.getByText('Done: 3. Failed or not sent: 0. Outcome unknown: 0. Left out: 1.')).toBeVisible({
      timeout: 20_000,
    })
    for (const z of [a1.domainname, aFree.domainname, b2.domainname]) await expect(row(z)).toContainText('Done')
    await expect(row(b1.domainname)).toContainText('Not sent: its own confirmation was not given.')
    await expect(row(a1.domainname)).toContainText(DEMO)
    await expect(row(b2.domainname)).toContainText('Second')
    await expect(row(a1.domainname).getByRole('cell').nth(4)).not.toHaveText('')
    // Exactly the planned saves: one per zone, to its own account, with its TTL and ns_type as read.
    expect(
      zoneSaves(a)
        .map((r) => [r.endpoint, domainOfSave(r.path), r.body])
        .sort(),
    ).toEqual(
      [
        [
          'domains.dns.set',
          a1.domainname,
          { records: migrated(before.get(a1.domainname)!), ns_type: 'svc1', ttl: 3600 },
        ],
        ['freedns.set', aFree.domainname, { records: migrated(before.get(aFree.domainname)!), ttl: 3600 }],
      ].sort(),
    )
    expect(zoneSaves(b).map((r) => [r.endpoint, domainOfSave(r.path), r.body])).toEqual([
      ['domains.dns.set', b2.domainname, { records: migrated(before.get(b2.domainname)!), ns_type: 'svc1', ttl: 3600 }],
    ])
    expect(b1.dns.svc1.records).toBe(before.get(b1.domainname))
    await app.getByRole('heading', { name: '5. Results' }).evaluate((h) => h.scrollIntoView({ block: 'start' }))
    await snap(app, 'bulk-dns-results')
    await expectNoAxeViolations(app, 'bulk dns results')

    // The flagged zone, ticked this time, from new plans (every zone read again).
    await expect(app.getByRole('button', { name: /Apply to/ })).toBeDisabled()
    await app.getByRole('button', { name: 'Build plans' }).click()
    await expect(app.getByText('To change: 1. Nothing to change: 4. Not read: 0.')).toBeVisible()
    await expect(app.getByRole('button', { name: 'Apply to 0 zones…' })).toBeDisabled()
    await card(app, b1.domainname).getByRole('checkbox', { name: 'I have read this zone’s plan; apply it' }).check()
    await app.getByRole('button', { name: 'Apply to 1 zone…' }).click()
    await expect(dialog).toContainText('Change the records of 1 zone in 1 account:')
    await expect(dialog.getByRole('list', { name: 'Accounts' })).not.toContainText(DEMO)
    await dialog.getByLabel('Name of the account Second').fill('Second')
    await dialog.getByRole('button', { name: 'Apply to 1 zone' }).click()
    await expect(app.getByText('Done: 1. Failed or not sent: 0. Outcome unknown: 0. Left out: 0.')).toBeVisible({
      timeout: 20_000,
    })
    await expect(row(b1.domainname)).toContainText('Done')

    // On the sandboxes: one save per zone in all, each zone holding the new address and nothing else changed.
    expect(zoneSaves(a)).toHaveLength(2)
    expect(zoneSaves(b).map((r) => domainOfSave(r.path))).toEqual([b2.domainname, b1.domainname])
    expect(a1.dns.svc1.records).toBe(migrated(before.get(a1.domainname)!))
    expect(a1.dns.svc1.records).toContain(`txt @ v=spf1 ip4:${OLD} -all`)
    expect(aFree.records).toBe(migrated(before.get(aFree.domainname)!))
    expect(b1.dns.svc1.records).toBe(
      [`a @ ${NEW}`, `a www ${NEW}`, `a api ${NEW}`, `a cdn ${NEW}`, ...b1Rest].join('\n'),
    )
    expect(b2.dns.svc1.records).toBe(
      [`a @ ${NEW}`, 'a www 192.0.2.100', 'a h1 203.0.113.1', 'a h2 203.0.113.2', 'a h3 203.0.113.3', ''].join('\n'),
    )
    expect(b3.dns.svc1.records).toBe(before.get(b3.domainname))
    expect(aSpare.dns.svc1.records).toBe(untouchedA)
    for (const d of [a1, b1, b2]) expect(d.dns.svc11.records).not.toContain(NEW)

    // Each zone is in its history, restorable: put one back as it was before the migration,
    // through the plan back and the usual save.
    await app.goto(`${harness.url}#/domains/${encodeURIComponent(a1.domainname)}?tab=history`)
    const migration = app.locator('.history-list > li').first()
    await expect(migration).toContainText('Change DNS records (bulk DNS change)')
    await expect(migration).toContainText(`change A @: ${OLD} → ${NEW}`)
    await migration.getByRole('button', { name: 'Restore the zone as it was before this…' }).click()
    await expect(app.locator('.plan')).toContainText(`change A @: ${NEW} → ${OLD}`)
    await app.getByRole('button', { name: 'Apply these changes' }).click()
    await expect(
      app.getByRole('status').filter({ hasText: `The records of ${a1.domainname} were saved.` }),
    ).toBeVisible()
    expect(a1.dns.svc1.records).toBe(before.get(a1.domainname))
    expect(zoneSaves(a)).toHaveLength(3)
    expect(zoneSaves(b)).toHaveLength(2)
  } finally {
    await b.close()
  }
})

// Main's guard (JobRequest.guard, `dns.changedSincePlan`): the zone is read again just before its
// save, and a zone that no longer holds the records its plan was made from is not sent.
test('a zone changed at the service after its plan was built is not overwritten', async ({ app, harness }) => {
  const a = await harness.demo()
  const [zone, other] = firstItems(svc1Zones(a), 2)
  zone.dns.svc1.records = [`a @ ${OLD}`, 'a www 203.0.113.1', 'a api 203.0.113.2', 'a x 203.0.113.3'].join('\n')
  other.dns.svc1.records = [`a @ ${OLD}`, 'a www 203.0.113.4', 'a api 203.0.113.5', 'a x 203.0.113.6'].join('\n')
  const otherBefore = other.dns.svc1.records
  await openBulk(app)
  await app.getByRole('button', { name: 'Read the zone lists from the service' }).click()
  await selectZone(app, zone.domainname, DEMO)
  await selectZone(app, other.domainname, DEMO)
  await app.getByLabel('Value to replace').fill(OLD)
  await app.getByLabel('New value').fill(NEW)
  await app.getByRole('button', { name: 'Build plans' }).click()
  await expect(app.getByText('To change: 2. Nothing to change: 0. Not read: 0.')).toBeVisible()

  // Someone else changes the zone at the service meanwhile.
  const theirs = `${zone.dns.svc1.records}\na late 192.0.2.77`
  zone.dns.svc1.records = theirs
  await app.getByRole('button', { name: 'Apply to 2 zones…' }).click()
  await app.getByRole('dialog').getByRole('button', { name: 'Apply to 2 zones' }).click()
  const results = app.getByRole('table', { name: '5. Results' })
  await expect(results.getByRole('row').filter({ hasText: zone.domainname })).toContainText(
    'Not sent: the zone changed at the service after its plan was made.',
    { timeout: 20_000 },
  )
  await expect(results.getByRole('row').filter({ hasText: other.domainname })).toContainText('Done')
  expect(zone.dns.svc1.records).toBe(theirs)
  expect(zoneSaves(a).map((r) => domainOfSave(r.path))).toEqual([other.domainname])
  expect(other.dns.svc1.records).toBe(migrated(otherBefore))
})

test('zones chosen by a value they hold, from the store; flagged zones first, ticked at once; unchanged zones one line', async ({
  app,
  harness,
}) => {
  const a = await harness.demo()
  // No zone holds the old address but the three set here.
  const away = (text: string) => text.replace(/192\.0\.2\.10\b/g, '203.0.113.99')
  for (const d of a.state.domains) for (const z of Object.values(d.dns)) z.records = away(z.records)
  for (const f of a.state.freedns) f.records = away(f.records)
  const [small, big, spfOnly, near] = firstItems(svc1Zones(a), 4)
  small.dns.svc1.records = [`a @ ${OLD}`, 'a www 203.0.113.4'].join('\n')
  // 4 of 10 records change: flagged by the rule.
  big.dns.svc1.records = [
    `a @ ${OLD}`,
    `a www ${OLD}`,
    `a api ${OLD}`,
    `a cdn ${OLD}`,
    ...Array.from({ length: 6 }, (_, i) => `a h${i} 203.0.113.${2 + i}`),
  ].join('\n')
  // Holds the address in its SPF text only: chosen, planned, nothing to change.
  spfOnly.dns.svc1.records = [`txt @ "v=spf1 ip4:${OLD} -all"`, 'a @ 203.0.113.8'].join('\n')
  // 192.0.2.100 is another address.
  near.dns.svc1.records = ['a @ 192.0.2.100'].join('\n')
  await openBulk(app)
  await app.getByRole('button', { name: 'Read the zone lists from the service' }).click()
  await expect(app.getByRole('checkbox', { name: `Select ${big.domainname} (${DEMO})` })).toBeVisible()
  await app.getByLabel('Zones containing').fill(OLD)
  await app.getByRole('button', { name: 'Select zones containing it' }).click()
  await expect(app.getByText(`3 zones hold ${OLD}: selected`)).toBeVisible()
  await expect(app.getByText('3 zones selected')).toBeVisible()
  await app.getByLabel('Filter zones').fill(near.domainname)
  await expect(
    app.getByRole('checkbox', { name: `Select ${near.domainname} (${DEMO})`, exact: true }),
  ).not.toBeChecked()
  await app.getByLabel('Filter zones').fill('')

  await app.getByLabel('Value to replace').fill(OLD)
  await app.getByLabel('New value').fill(NEW)
  // Left for another screen before the plans: the zones chosen and the change are offered back.
  await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'Domains' })).toBeVisible()
  await openBulk(app)
  await expect(app.getByText('3 zones selected')).toHaveCount(0)
  await app
    .getByRole('status')
    .filter({ hasText: 'What you typed into this form at' })
    .getByRole('button', { name: 'Restore my changes' })
    .click()
  await expect(app.getByText('3 zones selected')).toBeVisible()
  await expect(app.getByLabel('Value to replace')).toHaveValue(OLD)
  await expect(app.getByLabel('New value')).toHaveValue(NEW)
  await app.getByRole('button', { name: 'Build plans' }).click()
  await expect(app.getByText('To change: 2. Nothing to change: 1. Not read: 0.')).toBeVisible()
  // The flagged zone comes first, whatever the order of the names.
  const cards = app.locator('section.bulk-zone h3 > span:first-child')
  await expect(cards).toHaveText([big.domainname, small.domainname])
  await expect(app.getByText('1 zone has nothing to change')).toBeVisible()
  await expect(app.getByRole('button', { name: 'Apply to 1 zone…' })).toBeEnabled()
  await app.getByRole('button', { name: 'Tick all flagged (1)' }).click()
  await expect(
    card(app, big.domainname).getByRole('checkbox', { name: 'I have read this zone’s plan; apply it' }),
  ).toBeChecked()
  await app.getByRole('button', { name: 'Apply to 2 zones…' }).click()
  await app.getByRole('dialog').getByRole('button', { name: 'Apply to 2 zones' }).click()
  await expect(app.getByText('Done: 2. Failed or not sent: 0. Outcome unknown: 0. Left out: 0.')).toBeVisible({
    timeout: 20_000,
  })
  expect(
    zoneSaves(a)
      .map((r) => domainOfSave(r.path))
      .sort(),
  ).toEqual([big.domainname, small.domainname].sort())
  expect(spfOnly.dns.svc1.records).toContain(OLD)
})

test('the screen in Japanese, and in a narrow window', async ({ app, harness }) => {
  const a = await harness.demo()
  // No zone holds the old address but the ones set here (chosen below by the value they hold).
  const away = (text: string) => text.replace(/192\.0\.2\.10\b/g, '203.0.113.99')
  for (const d of a.state.domains) for (const z of Object.values(d.dns)) z.records = away(z.records)
  for (const f of a.state.freedns) f.records = away(f.records)
  const zones = svc1Zones(a).slice(2, 5)
  zones[2]!.dns.svc1.records = [`txt @ "v=spf1 ip4:${OLD} -all"`, 'a @ 203.0.113.8'].join('\n')
  // 4 of 10 records change: a zone flagged by the 30 % rule.
  zones[0]!.dns.svc1.records = [
    `a @ ${OLD}`,
    `a www ${OLD}`,
    `a api ${OLD}`,
    `a cdn ${OLD}`,
    ...Array.from({ length: 6 }, (_, i) => `a h${i} 203.0.113.${2 + i}`),
  ].join('\n')
  zones[1]!.dns.svc1.records = [`a @ ${OLD}`, 'a www 203.0.113.4', 'a api 203.0.113.5', 'a x 203.0.113.6'].join('\n')
  await reloadInLanguage(app, 'ja')
  await app.getByRole('navigation').getByRole('link', { name: 'DNS一括変更' }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'DNS一括変更' })).toBeVisible()
  await app.getByRole('button', { name: 'サービスからゾーン一覧を読み込む' }).click()
  await expect(
    app.getByRole('checkbox', { name: new RegExp(zones[0]!.domainname.replace(/\./g, '\\.')) }),
  ).toBeVisible()
  await app.getByLabel('値を含むゾーン').fill(OLD)
  await app.getByRole('button', { name: '含むゾーンを選択' }).click()
  await expect(app.getByText(`${OLD} を含むゾーン 3 件を選択しました`)).toBeVisible()
  for (const z of zones)
    await expect(app.getByRole('checkbox', { name: new RegExp(z.domainname.replace(/\./g, '\\.')) })).toBeChecked()
  await app.locator('#bulk-from').fill(OLD)
  await app.locator('#bulk-to').fill(NEW)
  await app.getByRole('button', { name: '計画を作成' }).click()
  await expect(app.getByRole('heading', { name: '4. 計画' })).toBeVisible()
  await expect(app.getByRole('button', { name: '要確認のゾーンをすべてチェック (1 件)' })).toBeVisible()
  await expect(app.getByText('変更のないゾーン: 1 件')).toBeVisible()
  await expect(app.getByLabel('値を含むゾーン')).toBeVisible()
  await expect(card(app, zones[0]!.domainname)).toContainText('このゾーンの計画を読みました。適用します')
  await app.getByRole('heading', { name: '4. 計画' }).evaluate((h) => h.scrollIntoView({ block: 'start' }))
  await snap(app, 'bulk-dns-plans-ja')
  await app.setViewportSize({ width: 640, height: 900 })
  await card(app, zones[0]!.domainname).scrollIntoViewIfNeeded()
  await snap(app, 'bulk-dns-narrow-ja')
  // Nothing wider than the window: no sideways scrolling of the page.
  expect(await app.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  expect(zoneSaves(a)).toHaveLength(0)
})
