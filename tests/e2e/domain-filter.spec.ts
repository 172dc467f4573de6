/**
 * The domain list's filter matches what its placeholder names (issue 39, point 8): the name or
 * the registrar. The nameservers, which the table does not show, are asked for by name (`ns:`),
 * and the placeholder and the field's description say so, in English and Japanese, whole at 1024x700.
 */
import type { Page } from '@playwright/test'
import type { Sandbox } from '../../src/sandbox'
import { expect, reloadInLanguage, test } from './fixtures'
import { expectNoAxeViolations } from './axe'

const ENGLISH = {
  domains: 'Domains',
  filter: 'Filter',
  showing: (shown: number, total: number) => `Showing ${shown} of ${total}`,
}
const JAPANESE = {
  domains: 'ドメイン',
  filter: '絞り込み',
  showing: (shown: number, total: number) => `${total} 件中 ${shown} 件を表示`,
}

/** A word of some nameservers that is also in names or registrars of other domains, as "glacier" was. */
function nameserverWord(sb: Sandbox) {
  const domains = sb.state.domains
  const words = new Set(domains.flatMap((d) => d.ns.flatMap((h) => /^ns\d\.([a-z]+)-dns\./.exec(h)?.[1] ?? [])))
  const counted = [...words].map((word) => {
    const byNs = domains.filter((d) => d.ns.some((h) => h.includes(word))).length
    const byNameOrRegistrar = domains.filter(
      (d) => d.domainname.includes(word) || d.registrar.toLowerCase().includes(word),
    ).length
    const byNsOnly = domains.filter(
      (d) =>
        d.ns.some((h) => h.includes(word)) && !d.domainname.includes(word) && !d.registrar.toLowerCase().includes(word),
    ).length
    return { word, byNs, byNameOrRegistrar, byNsOnly }
  })
  return counted.sort((a, b) => b.byNsOnly - a.byNsOnly)[0]!
}

/** Ends with the list filtered by nameserver, for the test's axe scan. */
async function filterByNameserver(app: Page, sb: Sandbox, words: typeof ENGLISH) {
  const total = sb.state.domains.length
  const { word, byNs, byNameOrRegistrar, byNsOnly } = nameserverWord(sb)
  expect(
    byNsOnly,
    'the seed has a nameserver word some matching domains do not carry in name or registrar',
  ).toBeGreaterThan(0)

  await app.getByRole('navigation').getByRole('link', { name: words.domains, exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: words.domains })).toBeVisible()
  await expect(app.getByText(words.showing(total, total))).toBeVisible()
  const box = app.getByLabel(words.filter, { exact: true })
  // The placeholder names the prefix; the field's description explains it.
  await expect(box).toHaveAttribute('placeholder', /ns:/)
  await expect(box).toHaveAccessibleDescription(/ns:.*registrar:.*name:/)
  // The whole placeholder is in view.
  const cut = await box.evaluate((el) => {
    if (!(el instanceof HTMLInputElement)) return true
    const style = getComputedStyle(el)
    const ctx = document.createElement('canvas').getContext('2d')!
    ctx.font = `${style.fontSize} ${style.fontFamily}`
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20 // the search field's clear button
    return ctx.measureText(el.placeholder).width > room
  })
  expect(cut, 'placeholder cut').toBe(false)

  // Asked by name: the nameservers (read after the list) match.
  await box.fill(`ns:${word}`)
  await expect(app.getByText(words.showing(byNs, total))).toBeVisible()
  // Plain text: only what the placeholder names, not the hidden nameservers.
  await box.fill(word)
  await expect(app.getByText(words.showing(byNameOrRegistrar, total))).toBeVisible()
  const registrar = sb.state.domains[0]!.registrar
  await box.fill(`registrar:${registrar}`)
  await expect(
    app.getByText(words.showing(sb.state.domains.filter((d) => d.registrar === registrar).length, total)),
  ).toBeVisible()
  await box.fill(`ns:${word}`)
  await expect(app.getByText(words.showing(byNs, total))).toBeVisible()
}

test('the domain filter matches the name or registrar its placeholder names; nameservers by ns:', async ({
  app,
  harness,
}) => {
  await app.setViewportSize({ width: 1024, height: 700 })
  await filterByNameserver(app, await harness.demo(), ENGLISH)
  await expectNoAxeViolations(app, 'domains, filtered by nameserver')
})

test('the domain filter names its fields, in Japanese', async ({ app, harness }) => {
  await app.setViewportSize({ width: 1024, height: 700 })
  await reloadInLanguage(app, 'ja')
  await filterByNameserver(app, await harness.demo(), JAPANESE)
  await expectNoAxeViolations(app, 'domains, filtered by nameserver, Japanese')
})
