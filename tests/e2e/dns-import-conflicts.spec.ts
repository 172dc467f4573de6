/**
 * A BIND file merged into a zone that disagrees with it about a name (issue 39, point 11): a
 * CNAME for `www` beside its A, another apex A. The names are held apart in the plan with a
 * choice each (keep the zone's, take the file's), so the plan is reviewed and applied at once,
 * with no second import. In English and Japanese, at 1024x700.
 */
import type { Page } from '@playwright/test'
import type { Sandbox } from '../../src/sandbox'
import { expect, reloadInLanguage, snap, test } from './fixtures'
import { expectNoAxeViolations } from './axe'
import { lastDnsSet, svc1Domain } from './dns-screens'
import { z } from 'zod'
import { sentBody } from '../helpers/sent-body'

const ENGLISH = {
  dns: 'DNS',
  filter: 'Filter',
  zone: (name: string) => `DNS records of ${name}`,
  bind: 'BIND zone file: import or export',
  paste: /Paste a zone file to import/,
  import: 'Import',
  conflicts: /The file differs from the zone for 2 names/,
  apex: '@ (the domain itself)',
  keep: /^Keep the zone’s:/,
  take: /^Take the file’s:/,
  review: 'Review changes…',
  plan: 'Plan: what will change',
  apply: 'Apply these changes',
  saved: (zone: string) => `The records of ${zone} were saved.`,
}
const JAPANESE = {
  dns: 'DNS',
  filter: '絞り込み',
  zone: (name: string) => `${name} のDNSレコード`,
  bind: 'BINDゾーンファイル: 読み込み・書き出し',
  paste: /読み込むゾーンファイルを貼り付け/,
  import: '読み込む',
  conflicts: /ファイルとゾーンで内容が異なる名前: 2 件/,
  apex: '@(ドメインそのもの)',
  keep: /^ゾーンのものを残す:/,
  take: /^ファイルのものにする:/,
  review: '変更を確認…',
  plan: '計画: 変更される内容',
  apply: 'この変更を適用',
  saved: (zone: string) => `${zone} のレコードを保存しました。`,
}

/** The walk; it ends with the plan shown, both choices made, for the test's axe scan. */
async function importDisagreeing(app: Page, sb: Sandbox, words: typeof ENGLISH) {
  await app.setViewportSize({ width: 1024, height: 700 })
  const d = svc1Domain(sb)
  const lines = d.dns.svc1.records.split('\n')
  const apexA = lines.find((l) => l.startsWith('a @ '))!
  const hostA = lines.find((l) => /^a [a-z0-9-]+ /.test(l) && !l.startsWith('a @ '))!
  const host = hostA.split(' ')[1]!
  expect(apexA && hostA, 'the zone has an apex A and a named A').toBeTruthy()

  await app.getByRole('navigation').getByRole('link', { name: words.dns, exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: words.dns, exact: true })).toBeVisible()
  await app.getByLabel(words.filter).fill(d.domainname)
  await app.getByRole('link', { name: d.domainname, exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: words.zone(d.domainname) })).toBeVisible()
  await app.getByText(words.bind).click()
  await app
    .getByLabel(words.paste)
    .fill(
      [`$ORIGIN ${d.domainname}.`, '$TTL 3600', '@ IN A 198.51.100.7', `${host} IN CNAME @`, 'ftp IN A 192.0.2.9'].join(
        '\n',
      ),
    )
  await app.getByRole('button', { name: words.import, exact: true }).click()

  // Held apart, each name as the zone has it: the review is open at once.
  const chooser = app.getByRole('region', { name: words.conflicts })
  await expect(chooser).toBeVisible()
  const apex = chooser.getByRole('group', { name: words.apex })
  const named = chooser.getByRole('group', { name: host, exact: true })
  await expect(apex.getByRole('radio', { name: words.keep })).toBeChecked()
  await expect(named.getByRole('radio', { name: words.keep })).toBeChecked()
  await expect(named.getByRole('radio', { name: words.take })).toHaveAccessibleName(
    new RegExp(`CNAME ${d.domainname}\\.?`),
  )
  const review = app.getByRole('button', { name: words.review })
  await expect(review).toBeEnabled()
  await review.click()
  const plan = app.getByRole('region', { name: words.plan })
  await expect(plan.getByRole('listitem')).toHaveCount(1)

  // The choice made with the plan open: the plan follows it, still reviewable.
  await named.getByRole('radio', { name: words.take }).check()
  await apex.getByRole('radio', { name: words.take }).check()
  await expect(plan).toBeVisible()
  // The apex address changed, the named A removed, its CNAME and the new name added.
  await expect(plan.getByRole('listitem')).toHaveCount(4)
  await expect(plan).toContainText('198.51.100.7')
  await expect(plan).toContainText(`CNAME ${host} ${d.domainname}.`)
  await snap(app, `dns-import-conflicts-${words === ENGLISH ? 'en' : 'ja'}-1024`)
  return { d, lines, apexA, hostA, host, plan }
}

async function applyAndCheck(
  app: Page,
  sb: Sandbox,
  words: typeof ENGLISH,
  w: Awaited<ReturnType<typeof importDisagreeing>>,
) {
  await w.plan.getByRole('button', { name: words.apply }).click()
  await expect(app.getByRole('status').filter({ hasText: words.saved(w.d.domainname) })).toBeVisible()
  const sent = sentBody(lastDnsSet(sb), z.object({ records: z.string() })).records.split('\n')
  expect(sent).not.toContain(w.apexA)
  expect(sent).not.toContain(w.hostA)
  expect(sent).toContain('a @ 198.51.100.7')
  expect(sent).toContain(`cname ${w.host} ${w.d.domainname}.`)
  expect(sent).toContain('a ftp 192.0.2.9')
  expect(sent.filter((l) => l.startsWith('a @ '))).toHaveLength(1)
}

test('a BIND file that disagrees about names: the plan holds each apart with a choice, reviewable without importing again', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const w = await importDisagreeing(app, sb, ENGLISH)
  await expectNoAxeViolations(app, 'dns plan with import conflicts')
  await applyAndCheck(app, sb, ENGLISH, w)
})

test('a BIND file that disagrees about names, in Japanese', async ({ app, harness }) => {
  await reloadInLanguage(app, 'ja')
  const sb = await harness.demo()
  const w = await importDisagreeing(app, sb, JAPANESE)
  await expectNoAxeViolations(app, 'dns plan with import conflicts, Japanese')
  await applyAndCheck(app, sb, JAPANESE, w)
})
