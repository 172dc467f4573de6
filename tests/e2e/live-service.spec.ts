/**
 * The app against the live service's known ways, in the UI: a DNS setting carrying a product
 * word the account does not list is edited and saved with that word; a save the service keeps
 * differently (comment lines dropped, a small TTL raised) is warned about before and reported
 * after; a bulk renewal under the service's rate limit completes every item.
 */
import { expect, snap, test } from './fixtures'
import { lastDnsSet, openZone, svc1Domain, writeRawRecords } from './dns-screens'

test('a DNS setting with a word the account does not list is shown as it came, edited, and saved with that word', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  d.nsTypeWord = 'legacy-dns'
  await openZone(app, d.domainname)
  const select = app.getByLabel('DNS flavour (ns_type)')
  await expect(select).toHaveValue('legacy-dns')
  await expect(select.locator('option:checked')).toHaveText('legacy-dns (a word this account does not list)')
  await app.getByLabel('Value of row 1').fill('192.0.2.77')
  await app.getByLabel('Value of row 1').press('Tab')
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await app
    .getByRole('region', { name: 'Plan: what will change' })
    .getByRole('button', { name: 'Apply these changes' })
    .click()
  await expect(app.getByRole('status').filter({ hasText: `The records of ${d.domainname} were saved.` })).toBeVisible()
  expect(lastDnsSet(sb)!.body).toMatchObject({ ns_type: 'legacy-dns' })
  // Read back after the save: still the service's own word.
  await expect(select).toHaveValue('legacy-dns')
})

test('a save the service keeps differently: warned before (small TTL, comment lines), and told exactly what changed after', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  sb.service.dropComments = true
  sb.service.minTtl = 120
  const d = svc1Domain(sb)
  await openZone(app, d.domainname)
  await writeRawRecords(app, `# front door\n${d.dns.svc1.records}`)
  await app.getByLabel('TTL').fill('60')
  await expect(app.getByRole('note')).toContainText(
    'A TTL under 120 seconds is known to be stored by the service as 3600.',
  )
  await expect(app.getByRole('note')).toContainText('1 comment line may not be kept by the service')
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await app
    .getByRole('region', { name: 'Plan: what will change' })
    .getByRole('button', { name: 'Apply these changes' })
    .click()
  const told = app.getByRole('status').filter({ hasText: 'The service changed this' })
  await expect(told).toContainText('The service did not keep 1 comment line.')
  await expect(told).toContainText('TTL 60 was stored as 3600.')
  await snap(app, 'dns-stored-differently')
  expect(lastDnsSet(sb)!.body).toMatchObject({ ttl: 60 })
  expect(d.dns.svc1.ttl).toBe(3600)
  expect(d.dns.svc1.records).not.toContain('# front door')
  // What the editor shows now is what the service holds.
  await expect(app.getByLabel('TTL')).toHaveValue('3600')
})

test.describe('under the service’s rate limit', () => {
  // The live service's limit, with a smaller count and durations: 3 a second, then 300 ms refused.
  test.use({ harnessOptions: { demo: { service: { rateLimit: { limit: 3, windowMs: 1_000, blockMs: 300 } } } } })

  test('a bulk renewal completes every item, none failed, while the service keeps answering 429', async ({
    app,
    harness,
  }) => {
    const sb = await harness.demo()
    await app.getByRole('navigation').getByRole('link', { name: 'Domains' }).click()
    await expect(app.getByText(/Showing \d+ of \d+/)).toBeVisible({ timeout: 20_000 })
    const names = [...sb.state.domains]
      .map((d) => d.domainname)
      .sort()
      .slice(0, 9)
    for (const n of names) await app.getByLabel(`Select ${n}`).check()
    await app.getByRole('button', { name: 'Renew 9 domains…' }).click()
    await app.getByRole('dialog').getByRole('button', { name: 'Renew 9 domains' }).click()
    await expect(app.getByRole('heading', { name: 'Results: 9 done, 0 failed' })).toBeVisible({ timeout: 30_000 })
    const renewals = sb.received.filter((r) => r.endpoint === 'domains.expiration.renew')
    expect(renewals.filter((r) => r.status === 200)).toHaveLength(9)
    expect(sb.received.filter((r) => r.status === 429).length).toBeGreaterThan(0)
  })
})
