/**
 * History, drift and restore in the window: a change made directly on the service (past the
 * app) shows as a badge after a refresh, on the domain and in the account's activity, until the
 * user has looked; a zone saved from the app is restored from its snapshot, through the plan
 * and the usual save.
 */
import { expect, reloadInLanguage, snap, test } from './fixtures'
import { expectNoAxeViolations, expectNoAxeViolationsIn } from './axe'
import { lastDnsSet, openZone, svc1Domain, writeRawRecords } from './dns-screens'

test('a change made outside the app is flagged after a refresh, and a saved zone is restored from its snapshot', async ({
  app,
  harness,
}) => {
  test.setTimeout(90_000)
  const sb = await harness.demo()
  const d = svc1Domain(sb)
  const domain = d.domainname
  const original = d.dns.svc1.records

  // Read once: the DNS list is kept in the store.
  await app.getByRole('navigation').getByRole('link', { name: 'DNS', exact: true }).click()
  await expect(app.getByRole('table')).toContainText(domain)
  await expectNoAxeViolations(app, 'dns')
  const activity = app.getByRole('navigation').getByRole('link', { name: /^Activity/ })
  await expect(activity.locator('.badge')).toHaveCount(0)

  // Someone changes the zone in the provider's panel.
  d.dns.svc1.records = `${original}\na panel-edit 203.0.113.44`
  await app.getByRole('button', { name: 'Refresh' }).click()
  await expect(activity.locator('.badge')).toHaveText('1')

  // The domain says so, and its history shows the difference as a plan.
  await app.goto(`${harness.url}#/domains/${encodeURIComponent(domain)}`)
  await expect(
    app.getByRole('status').filter({ hasText: 'Changed outside this app since you last looked: DNS records.' }),
  ).toBeVisible()
  await app.getByRole('button', { name: 'Show the history' }).click()
  const entry = app.locator('.history-list > li').first()
  await expect(entry).toContainText('Outside this app')
  await expect(entry).toContainText('DNS records changed outside this app')
  await expect(entry).toContainText('A panel-edit 203.0.113.44')
  await snap(app, 'history-drift')
  await expectNoAxeViolations(app, 'domain tab History')
  // Looked at: the badge goes.
  await expect(activity.locator('.badge')).toHaveCount(0)

  // A save from the app: snapshotted first, recorded as from this app, not as drift.
  await openZone(app, domain)
  await writeRawRecords(app, `a @ 192.0.2.1\ntxt @ "after-save"`)
  await app.getByRole('button', { name: 'Review changes…' }).click()
  await app.getByRole('button', { name: 'Apply these changes' }).click()
  await expect(app.getByRole('status').filter({ hasText: `The records of ${domain} were saved.` })).toBeVisible()
  expect(lastDnsSet(sb)?.body).toMatchObject({ records: 'a @ 192.0.2.1\ntxt @ "after-save"' })

  // Restore the zone as it was before that save, reached from the editor: the plan back is shown, then sent as usual.
  await app.getByRole('link', { name: 'History and snapshots (restore an earlier zone)' }).click()
  await expect(app.getByRole('tab', { name: /^History/ })).toHaveAttribute('aria-selected', 'true')
  const saved = app.locator('.history-list > li').first()
  await expect(saved).toContainText('From this app')
  await expect(saved).toContainText('Change DNS records')
  // Each snapshot row leads with the time the zone was as it shows, then why it was kept.
  const snapshotsEn = app.getByRole('region', { name: 'Zone snapshots' })
  await expect(snapshotsEn.getByRole('columnheader', { name: 'The zone as it was at' })).toBeVisible()
  await expect(snapshotsEn.getByRole('row').nth(1)).toContainText('Kept before a save from this app')
  await saved.getByRole('button', { name: 'Restore the zone as it was before this…' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Restoring the zone as it was at' })).toBeVisible()
  const planned = app.locator('.plan')
  await expect(planned).toContainText('A panel-edit 203.0.113.44')
  await expect(planned).toContainText('change TXT @: "after-save" →')
  await snap(app, 'history-restore-plan')
  const puts = sb.received.filter((r) => r.endpoint === 'domains.dns.set').length
  await app.getByRole('button', { name: 'Apply these changes' }).click()
  // The first save's notice may still be up: wait for the restore's own save.
  await expect.poll(() => sb.received.filter((r) => r.endpoint === 'domains.dns.set').length).toBe(puts + 1)
  await expect(app.getByRole('status').filter({ hasText: `The records of ${domain} were saved.` })).toBeVisible()
  expect(d.dns.svc1.records).toContain('a panel-edit 203.0.113.44')
  expect(d.dns.svc1.records).not.toContain('after-save')

  // The account's activity lists all three, the restore named as such; no new change from outside.
  await app
    .getByRole('navigation')
    .getByRole('link', { name: /^Activity/ })
    .click()
  const rows = app.locator('.history-list > li')
  await expect(rows.first()).toContainText('restored from a snapshot')
  await expect(rows).toHaveCount(3)
  // The kind chips count the entries of each kind: the save and the restore are this user's writes.
  await expect(app.getByRole('group', { name: 'Show', exact: true }).getByRole('button')).toHaveText([
    'Everything (3)',
    'My writes (2)',
    'Outside changes (1)',
  ])
  await expectNoAxeViolations(app, 'activity')
  await expect(activity.locator('.badge')).toHaveCount(0)

  // "Check this account for changes now": every list read again (the first time, a baseline for
  // lists not read yet); a change to a setting is then found at once.
  const check = app.getByRole('button', { name: 'Check this account for changes now' })
  await check.click()
  await expect(
    app.getByRole('status').filter({ hasText: '10 lists read again: no change from outside this app.' }),
  ).toBeVisible()
  const lockBefore = d.transfer_lock
  d.transfer_lock = lockBefore === 1 ? 0 : 1
  await check.click()
  await expect(
    app.getByRole('status').filter({ hasText: '10 lists read again: 1 change from outside this app.' }),
  ).toBeVisible()
  await expect(rows.first()).toContainText('Transfer lock changed outside this app')
  await expect(rows.first()).toContainText(
    `Transfer lock: ${lockBefore === 1 ? 'on' : 'off'} → ${d.transfer_lock === 1 ? 'on' : 'off'}`,
  )
  await snap(app, 'history-activity')
  await reloadInLanguage(app, 'ja')
  await expect(app.getByRole('heading', { level: 1, name: 'アクティビティ' })).toBeVisible()
  await expect(app.locator('.history-list > li').first()).toContainText(
    'トランスファーロックがこのアプリ以外で変更されました',
  )
  await snap(app, 'history-activity-ja')
  // A smaller window: nothing scrolls sideways.
  await app.setViewportSize({ width: 1024, height: 640 })
  expect(await app.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(
    true,
  )
  await snap(app, 'history-activity-ja-1024')

  // The zone's snapshots in Japanese at 1024x700: each restore button's name begins with its
  // visible 復元… (it was a different sentence, which speech input cannot call and axe flags) and
  // says which time it restores.
  await app.setViewportSize({ width: 1024, height: 700 })
  await app.goto(`${harness.url}#/domains/${encodeURIComponent(domain)}`)
  await expect(app.getByRole('heading', { level: 1, name: domain })).toBeVisible()
  await app.getByRole('tab', { name: /^履歴/ }).click()
  const snapshots = app.getByRole('region', { name: 'ゾーンのスナップショット' })
  await expect(snapshots.getByRole('button', { name: /^復元… \(.+ 時点のゾーン\)$/ }).first()).toBeVisible()
  await expect(snapshots.getByRole('columnheader', { name: 'この日時のゾーン' })).toBeVisible()
  await expect(snapshots.getByRole('row').nth(1)).toContainText('の前に記録')
  await expectNoAxeViolationsIn(app, 'main', 'the domain’s history tab in Japanese at 1024 px')
})
