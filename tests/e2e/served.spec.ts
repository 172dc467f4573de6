/**
 * What the world sees of a zone, from the window (issue 42): the DNS editor's plan with the
 * health rules that ask DNS, the zone held against what its nameservers serve, and every zone of
 * the account compared a few at a time with progress. The nameservers and the resolver are DNS
 * servers on loopback (support/loopback-dns.ts, dns-packet) serving the demo sandbox's zones;
 * the second nameserver serves one zone as it was before its last save (lagging). Main finds them
 * through HOSTING_ADMIN_NS_ADDRESSES and HOSTING_ADMIN_RESOLVERS, as the command line does.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import type { Sandbox } from '../../src/sandbox'
import { nsFlavour, SERVICE_NAMESERVERS } from '../../src/sandbox/nameservers'
import type { DomainRec } from '../../src/sandbox/state'
import { startRecordsDns, type Zone } from '../../support/loopback-dns'
import { expect, reloadInLanguage, snap, test } from './fixtures'
import { openZone, writeRawRecords } from './dns-screens'

test.use({ harnessOptions: { demo: { domains: 6 } } })

const recordsOf = (d: DomainRec) => {
  const f = nsFlavour(d)
  return f === 'svc1' || f === 'svc11' ? d.dns[f].records : ''
}

interface World {
  current: DomainRec
  lagging: DomainRec
  close(): Promise<void>
}

/** Two nameservers and a resolver on loopback; the second nameserver is behind on `lagging`. */
async function worldOf(sb: Sandbox): Promise<World> {
  const editable = sb.state.domains.filter((d) => nsFlavour(d) === 'svc1')
  const [current, lagging] = [editable[0]!, editable[1]!]
  const lagged = recordsOf(lagging)
  lagging.dns.svc1.records = `${lagged}\na www-new 192.0.2.50`
  const served = (): Zone[] => sb.state.domains.map((d) => ({ domain: d.domainname, records: recordsOf(d) }))
  const ns1 = await startRecordsDns(served)
  const ns2 = await startRecordsDns(() =>
    served().map((z) => (z.domain === lagging.domainname ? { ...z, records: lagged } : z)),
  )
  // _spf.m.test: 12 includes (its text under DNS's 255-character string), so a record that includes it needs 13 lookups (RFC 7208 allows 10).
  const spf = `txt _spf v=spf1 ${Array.from({ length: 12 }, (_, i) => `include:p${i}.m.test`).join(' ')} -all`
  const resolver = await startRecordsDns(
    () => [
      {
        domain: 'm.test',
        records: [spf, ...Array.from({ length: 12 }, (_, i) => `txt p${i} v=spf1 ip4:192.0.2.${i} -all`)].join('\n'),
      },
    ],
    { resolver: true },
  )
  const names = [...new Set(sb.state.domains.flatMap((d) => d.ns))]
  process.env.HOSTING_ADMIN_NS_ADDRESSES = names
    .map((n) => `${n}=${n.startsWith('ns2') ? ns2.address : ns1.address}`)
    .join(',')
  process.env.HOSTING_ADMIN_RESOLVERS = resolver.address
  return {
    current,
    lagging,
    async close() {
      delete process.env.HOSTING_ADMIN_NS_ADDRESSES
      delete process.env.HOSTING_ADMIN_RESOLVERS
      await Promise.all([ns1.close(), ns2.close(), resolver.close()])
    },
  }
}

async function noAxeViolationsIn(app: Page, selector: string): Promise<void> {
  const found = (
    await new AxeBuilder({ page: app })
      .include(selector)
      .options({ resultTypes: ['violations'] })
      .analyze()
  ).violations.map((v) => `${v.id}: ${v.help}`)
  expect(found).toEqual([])
}

test('a zone held against what its nameservers serve, and a plan’s health with the rules that ask DNS (1024 px)', async ({
  app,
  harness,
}) => {
  const world = await worldOf(await harness.demo())
  try {
    await app.setViewportSize({ width: 1024, height: 700 })
    await openZone(app, world.current.domainname)
    const panel = app.getByRole('region', { name: 'What the world sees' })
    await panel.getByRole('button', { name: 'Compare with the nameservers' }).click()
    await expect(panel.getByTestId('served-result')).toContainText(/Served as saved, checked \d{1,2}:\d{2}/)

    // The plan: an SPF record whose include chain needs 13 lookups, which only asking DNS can count.
    await writeRawRecords(app, `${recordsOf(world.current)}\ntxt @ v=spf1 include:_spf.m.test -all`)
    await app.getByRole('button', { name: 'Review changes…' }).click()
    const health = app.getByRole('region', { name: 'Plan: what will change' }).getByRole('region', { name: 'Health' })
    await expect(health.locator('[data-rule="spf.lookups"]')).toContainText('13')
    await expect(app.getByTestId('health-asking')).toHaveCount(0)
    await snap(app, 'served-plan-health-1024')

    await openZone(app, world.lagging.domainname)
    const lagPanel = app.getByRole('region', { name: 'What the world sees' })
    await lagPanel.getByRole('button', { name: 'Compare with the nameservers' }).click()
    const result = lagPanel.getByTestId('served-result')
    await expect(result).toContainText('What the nameservers serve differently:')
    await expect(result.locator('[data-code="served.missing"]')).toContainText(
      `does not serve A www-new.${world.lagging.domainname} 192.0.2.50, which the service holds`,
    )
    await noAxeViolationsIn(app, '.served')
    await snap(app, 'served-zone-1024')
    // The comparison that found the lagging nameserver is in the domain's history, as drift is.
    await app.getByRole('link', { name: 'History and snapshots (restore an earlier zone)' }).click()
    const entry = app.getByRole('listitem').filter({ hasText: 'What the nameservers serve' })
    await expect(entry).toContainText(
      `Now: ns2.svc1.example.net does not serve A www-new.${world.lagging.domainname} 192.0.2.50`,
    )
  } finally {
    await world.close()
  }
})

test('every zone of the account compared with its nameservers, a few at a time, with progress, in Japanese', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const world = await worldOf(sb)
  try {
    await app.setViewportSize({ width: 1024, height: 700 })
    await reloadInLanguage(app, 'ja')
    await app.getByRole('navigation').getByRole('link', { name: 'DNS', exact: true }).click()
    await expect(app.getByRole('heading', { level: 1, name: 'DNS' })).toBeVisible()
    await app.getByRole('button', { name: 'すべてのゾーンをネームサーバーと照合' }).click()
    const zones = sb.state.domains.length
    await expect(
      app.getByRole('status').filter({ hasText: `${zones} 件中 ${zones} 件のゾーンを照合しました` }),
    ).toBeVisible()
    await expect(app.getByRole('row').filter({ hasText: world.current.domainname })).toContainText('保存どおり')
    await expect(app.getByRole('row').filter({ hasText: world.lagging.domainname })).toContainText('相違あり')
    await noAxeViolationsIn(app, '.served-all')
    await snap(app, 'served-all-ja-1024')
  } finally {
    await world.close()
  }
})

test('every zone compared three at a time; Cancel starts no more', async ({ app, harness }) => {
  const sb = await harness.demo()
  // Every zone served by the service, each with five names and types to ask.
  for (const d of sb.state.domains) {
    d.ns = [...SERVICE_NAMESERVERS.svc1]
    d.dns.svc1.records = 'a @ 192.0.2.1\na www 192.0.2.2\na mail 192.0.2.3\na ftp 192.0.2.4\ntxt @ v=spf1 -all'
  }
  // Nameservers that never answer: each question of a zone waits its whole timeout, so a zone
  // begun is asked for many seconds, and the zones asked are the zones begun.
  const silent = await startRecordsDns(() => [], { unanswered: () => true })
  process.env.HOSTING_ADMIN_NS_ADDRESSES = SERVICE_NAMESERVERS.svc1.map((n) => `${n}=${silent.address}`).join(',')
  const zonesAsked = () =>
    new Set(silent.asked.map((q) => sb.state.domains.find((d) => q.endsWith(d.domainname))?.domainname)).size
  try {
    await app.getByRole('navigation').getByRole('link', { name: 'DNS', exact: true }).click()
    await app.getByRole('button', { name: 'Compare every zone with its nameservers' }).click()
    await expect.poll(zonesAsked).toBe(3)
    await app.getByRole('button', { name: 'Cancel', exact: true }).click()
    await expect(app.getByRole('button', { name: 'Compare every zone with its nameservers' })).toBeVisible()
    expect(zonesAsked()).toBe(3)
    // The three cancelled on their way are not counted as compared.
    await expect(app.getByRole('status').filter({ hasText: /^Compared / })).toHaveText(
      `Compared 0 of ${sb.state.domains.length} zones`,
    )
  } finally {
    delete process.env.HOSTING_ADMIN_NS_ADDRESSES
    await silent.close()
  }
})
