/** What a write touched, in words and with a link, in English and in Japanese, from the catalogues themselves. */
import { describe, expect, it } from 'vitest'
import {
  itemTarget,
  jobTargets,
  targetsSummary,
  targetsText,
  type JobTargetWords,
} from '../../src/renderer/src/lib/text/job-target-text'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'
import type { Catalogue, Locale } from '@shared/i18n/catalogue'
import { translate } from '@shared/i18n/translate'
import type { JobItemView, JobView } from '@shared/jobs'

const wordsIn = (catalogue: Catalogue, locale: Locale): JobTargetWords => ({
  t: (key, params) => translate(catalogue, locale, key, params),
  kindLabel: (_accountId, kind) => ({ a: 'Web', b: 'Managed', c: 'Cloud' })[kind],
  serverOf: (accountId, kind, ref) =>
    accountId === 'main' && kind === 'a' && (ref === '1002' || ref === 'aecho2')
      ? { webid: '1002', webname: 'aecho2' }
      : undefined,
})
const item = (params: Record<string, unknown>, label = ''): JobItemView => ({
  target: '',
  label,
  params,
  state: 'done',
})
const job = (
  operation: JobView['operation'],
  items: JobItemView[],
): Pick<JobView, 'accountId' | 'operation' | 'items'> => ({ accountId: 'main', operation, items })

describe('the target of a write', () => {
  const w = wordsIn(en, 'en')
  it('a domain by its name, linked to its page; a registration by its name too', () => {
    expect(itemTarget(w, job('domains.expiration.renew', []), item({ domain: 'example.com', years: 1 }))).toEqual({
      key: 'domain:example.com',
      text: 'example.com',
      to: '/domains/example.com',
    })
    expect(itemTarget(w, job('domains.register', []), item({ sld: 'example', tld: 'net' }))?.text).toBe('example.net')
  })

  it('a zone save names the zone and links to its editor; a free DNS entry to its own page', () => {
    expect(itemTarget(w, job('domains.dns.set', []), item({ domain: 'example.com', records: '' }))).toEqual({
      key: 'zone:example.com',
      text: 'DNS zone example.com',
      to: '/dns/example.com',
    })
    expect(itemTarget(w, job('freedns.set', []), item({ domain: 'example.org', records: '' }))).toEqual({
      key: 'freedns:example.org',
      text: 'Free DNS example.org',
      to: '/freedns/example.org',
    })
  })

  it('a server sent by its id is named as the Servers screen names it, and linked by its name', () => {
    expect(
      itemTarget(w, job('servers.expiration.extend', []), item({ kind: 'a', webid: 1002, months: 1 }, '1002')),
    ).toEqual({ key: 'server:a:1002', text: 'aecho2 (Web)', to: '/servers/a/aecho2' })
    // By its name: the same target.
    expect(itemTarget(w, job('servers.autorenew.set', []), item({ kind: 'a', webid: 'aecho2' }))?.key).toBe(
      'server:a:1002',
    )
    // A server the app has not listed: as it was given.
    expect(itemTarget(w, job('servers.expiration.extend', []), item({ kind: 'b', webid: 77 }))).toEqual({
      key: 'server:b:77',
      text: '77 (Managed)',
      to: '/servers/b/77',
    })
    // A new server: its name and kind, no page yet.
    expect(itemTarget(w, job('servers.create', []), item({ kind: 'c', webname: 'cnew1' }))).toEqual({
      key: 'server:c:cnew1',
      text: 'cnew1 (Cloud)',
    })
  })

  it('a service IP by the name it was shown with, linked to its page', () => {
    expect(itemTarget(w, job('svcips.cache.delete', []), item({ vipid: 5 }, 'vip5.example'))).toEqual({
      key: 'svcip:5',
      text: 'Service IP vip5.example',
      to: '/svcips/5',
    })
  })
})

describe('several targets', () => {
  const names = ['a.example', 'b.example', 'c.example', 'd.example', 'e.example']
  const renewal = (n: number) =>
    job(
      'domains.expiration.renew',
      names.slice(0, n).map((domain) => item({ domain, years: 1 })),
    )

  it('each once, in order; two named and the rest counted, three named where three are all', () => {
    const twice = job('domains.expiration.renew', [
      item({ domain: 'a.example' }),
      item({ domain: 'a.example' }),
      item({ domain: 'b.example' }),
    ])
    expect(jobTargets(wordsIn(en, 'en'), twice).map((x) => x.text)).toEqual(['a.example', 'b.example'])
    expect(targetsSummary(jobTargets(wordsIn(en, 'en'), renewal(5)))).toMatchObject({ more: 3 })
    expect(targetsSummary(jobTargets(wordsIn(en, 'en'), renewal(3)))).toMatchObject({ more: 0 })
  })

  it('in English and in Japanese', () => {
    const e = wordsIn(en, 'en')
    const j = wordsIn(ja, 'ja')
    expect(targetsText(e, jobTargets(e, renewal(5)))).toBe('a.example, b.example and 3 more')
    expect(targetsText(e, jobTargets(e, renewal(3)))).toBe('a.example, b.example, c.example')
    expect(targetsText(j, jobTargets(j, renewal(5)))).toBe('a.example、b.example ほか 3 件')
    expect(targetsText(j, jobTargets(j, job('domains.dns.set', [item({ domain: 'example.jp' })])))).toBe(
      'example.jp のDNSゾーン',
    )
    expect(targetsText(j, jobTargets(j, job('servers.expiration.extend', [item({ kind: 'a', webid: 1002 })])))).toBe(
      'aecho2(Web)',
    )
    expect(targetsText(e, [])).toBe('The account')
    expect(targetsText(j, [])).toBe('アカウント全体')
  })
})
