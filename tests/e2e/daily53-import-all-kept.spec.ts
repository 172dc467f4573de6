/**
 * Issue 53, point 9: a BIND file imported with every name it disagrees about kept as the zone
 * has it changes nothing, so Review is greyed; a word beside it (its description too) says why
 * and how to change it, and goes once a name takes the file's. In English and Japanese, at 1024x700.
 */
import { expect, reloadInLanguage, test } from './fixtures'
import { expectNoAxeViolationsIn } from './axe'
import { svc1Domain } from './dns-screens'

const WORDS = {
  en: {
    dns: 'DNS',
    filter: 'Filter',
    zone: (name: string) => `DNS records of ${name}`,
    bind: 'BIND zone file: import or export',
    paste: /Paste a zone file to import/,
    import: 'Import',
    conflicts: /The file differs from the zone for 1 name/,
    apex: '@ (the domain itself)',
    take: /^Take the file’s:/,
    review: 'Review changes…',
    why: 'Nothing to review: every name keeps the zone’s records.',
  },
  ja: {
    dns: 'DNS',
    filter: '絞り込み',
    zone: (name: string) => `${name} のDNSレコード`,
    bind: 'BINDゾーンファイル: 読み込み・書き出し',
    paste: /読み込むゾーンファイルを貼り付け/,
    import: '読み込む',
    conflicts: /ファイルとゾーンで内容が異なる名前: 1 件/,
    apex: '@(ドメインそのもの)',
    take: /^ファイルのものにする:/,
    review: '変更を確認…',
    why: '確認する変更はありません: どの名前もゾーンのレコードのままです。',
  },
} as const

for (const lang of ['en', 'ja'] as const) {
  test(`a BIND import with every name kept says beside the greyed Review why (${lang})`, async ({ app, harness }) => {
    const w = WORDS[lang]
    await app.setViewportSize({ width: 1024, height: 700 })
    const sb = await harness.demo()
    if (lang === 'ja') await reloadInLanguage(app, 'ja')
    const d = svc1Domain(sb)
    expect(
      d.dns.svc1.records.split('\n').some((l) => l.startsWith('a @ ')),
      'the zone has an apex A',
    ).toBe(true)
    await app.getByRole('navigation').getByRole('link', { name: w.dns, exact: true }).click()
    await app.getByLabel(w.filter).fill(d.domainname)
    await app.getByRole('link', { name: d.domainname, exact: true }).click()
    await expect(app.getByRole('heading', { level: 1, name: w.zone(d.domainname) })).toBeVisible()
    await app.getByText(w.bind).click()
    // Only a name the zone has otherwise: merged, it is held apart and kept as the zone has it.
    await app.getByLabel(w.paste).fill([`$ORIGIN ${d.domainname}.`, '$TTL 3600', '@ IN A 198.51.100.7'].join('\n'))
    await app.getByRole('button', { name: w.import, exact: true }).click()
    const chooser = app.getByRole('region', { name: w.conflicts })
    await expect(chooser).toBeVisible()
    const review = app.getByRole('button', { name: w.review })
    await expect(review).toBeDisabled()
    await expect(app.getByText(w.why)).toBeVisible()
    await expect(review).toHaveAccessibleDescription(new RegExp(w.why.slice(0, 12)))
    await expectNoAxeViolationsIn(app, 'main', 'a BIND import with every name kept')
    // The file's taken for the name: something to review, and the word goes.
    await chooser.getByRole('group', { name: w.apex }).getByRole('radio', { name: w.take }).check()
    await expect(review).toBeEnabled()
    await expect(app.getByText(w.why)).toHaveCount(0)
  })
}
