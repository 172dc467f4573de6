/**
 * History rows in words (issue 39, point 4), in English and Japanese from the catalogues
 * themselves: each aspect the app records, from a row as the store gives it to the lines the
 * user reads. Never a raw 1/0, a "kind:webid" or a dash where the value is known.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  entryChanges,
  entryPlan,
  subjectLink,
  subjectText,
  type HistoryNames,
} from '../../src/renderer/src/lib/text/history-text'
import { useCatalogue } from '../../src/renderer/src/i18n/current'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'
import { isEmptyPlan } from '@shared/dns/plan'
import type { HistoryEntry } from '@shared/portfolio/history'

const names: HistoryNames = {
  serverKind: (k) => ({ a: 'Web servers', b: 'Managed servers', c: 'Cloud servers' })[k],
  nsType: (w) => (w === 'svc11' ? 'Advanced DNS (svc11)' : `Basic DNS (${w})`),
}
const row = (extra: Partial<HistoryEntry>): HistoryEntry => ({
  id: 1,
  accountId: 'main',
  subjectKind: 'domain',
  subject: 'a.example',
  origin: 'app',
  aspect: 'write',
  at: '2026-11-27T00:00:00Z',
  seen: true,
  outcome: 'done',
  ...extra,
})

const records = 'a @ 192.0.2.1\nmx @ 10 mail.a.example.'
const ttlSave = row({
  aspect: 'dns',
  operation: 'domains.dns.set',
  before: { records, ttl: 3600, ns_type: 'svc1' },
  after: { records, ttl: 300, ns_type: 'svc1' },
})
const extension = row({
  subjectKind: 'server',
  subject: 'a:aecho2',
  aspect: 'expiration',
  operation: 'servers.expiration.extend',
  params: { kind: 'a', webid: 1001, months: 3 },
  before: { expirationdate: '2030-01-06' },
  after: { expirationdate: '2030-04-06' },
})
const ddns = row({
  aspect: 'dynamicdns',
  operation: 'domains.dynamicdns.set',
  params: { dynamicdns: 1 },
  before: { dynamicdns: 0 },
  after: { dynamicdns: 1 },
})

afterEach(() => useCatalogue('en', en))

describe('history rows in words, in English', () => {
  it('a save of the zone’s TTL alone says the TTL before and after, with no empty plan', () => {
    expect(entryChanges(ttlSave, names)).toEqual(['TTL of the whole zone: 3,600 seconds → 300 seconds'])
    expect(isEmptyPlan(entryPlan(ttlSave)!)).toBe(true)
    // A change of DNS service too, by the account's name for it; a side that lacks it (an older row) is no change.
    const both = row({ ...ttlSave, after: { records, ttl: 300, ns_type: 'svc11' } })
    expect(entryChanges(both, names)).toEqual([
      'TTL of the whole zone: 3,600 seconds → 300 seconds',
      'DNS service: Basic DNS (svc1) → Advanced DNS (svc11)',
    ])
    expect(entryChanges(row({ ...ttlSave, before: { records, ttl: 300 } }), names)).toEqual([])
  })

  it('a server extension says its new expiry as a date, and names and links the server as the Servers screen does', () => {
    expect(entryChanges(extension, names)).toEqual(['Expiration date: Jan 6, 2030 → Apr 6, 2030'])
    expect(subjectText(extension, names)).toBe('aecho2 (Web servers)')
    expect(subjectLink(extension)).toBe('/servers/a/aecho2')
    // A server the app knew only by id: its id, still linked; one whose reference cannot be an address: named, not linked.
    expect(subjectLink(row({ subjectKind: 'server', subject: 'b:1001' }))).toBe('/servers/b/1001')
    expect(subjectLink(row({ subjectKind: 'server', subject: 'b:web/x' }))).toBeUndefined()
  })

  it('dynamic DNS and the other switches read on and off', () => {
    expect(entryChanges(ddns, names)).toEqual(['Dynamic DNS: off → on'])
    const lock = row({
      origin: 'outside',
      aspect: 'transferlock',
      before: { transfer_lock: 1 },
      after: { transfer_lock: 0 },
    })
    expect(entryChanges(lock, names)).toEqual(['Transfer lock: on → off'])
    const renew = row({
      origin: 'outside',
      aspect: 'autorenew',
      before: { autorenew: 0, autorenew_all: 0, autorenew_domain: 0 },
      after: { autorenew: 1, autorenew_all: 0, autorenew_domain: 10 },
    })
    expect(entryChanges(renew, names)).toEqual([
      'Auto-renewal (account): off → on',
      'Auto-renewal (this domain): off → on',
    ])
  })

  it('a setting one side did not read is not a change to "none" (issue 53 point 5)', () => {
    // A row kept before the fix: the domain's auto-renewal set, the account's and the effective one not read after.
    const set = row({
      aspect: 'autorenew',
      operation: 'domains.autorenew.set',
      params: { domain: 'a.example', autorenew_domain: 10 },
      before: { autorenew: 1, autorenew_all: 10, autorenew_domain: 0 },
      after: { autorenew_domain: 10 },
    })
    expect(entryChanges(set, names)).toEqual(['Auto-renewal (this domain): off → on'])
    // A member first read after: what it is, not "none → on".
    const firstRead = row({
      origin: 'outside',
      aspect: 'autorenew',
      before: { autorenew_domain: 0 },
      after: { autorenew_all: 10, autorenew_domain: 10 },
    })
    expect(entryChanges(firstRead, names)).toEqual([
      'Auto-renewal (this domain): off → on',
      'Auto-renewal (all domains): on',
    ])
  })

  it('nameservers, WHOIS contacts and DS records in words', () => {
    const ns = row({
      aspect: 'nameservers',
      before: { ns: ['ns1.a.example', 'ns2.a.example'] },
      after: { ns: ['ns1.b.example'] },
    })
    expect(entryChanges(ns, names)).toEqual(['Nameservers: ns1.a.example, ns2.a.example → ns1.b.example'])
    const person = (firstname: string) => ({ firstname, lastname: 'Yamada', organization: 'Example KK', country: 'JP' })
    const whois = row({
      origin: 'outside',
      aspect: 'whois',
      before: { whoisproxy: '0', contact: { registrant: person('Taro'), admin: person('Taro') } },
      after: { whoisproxy: '1', contact: { registrant: person('Hanako'), admin: person('Taro') } },
    })
    expect(entryChanges(whois, names)).toEqual([
      'WHOIS privacy: off → on',
      'Registrant: Taro Yamada, Example KK, JP → Hanako Yamada, Example KK, JP',
    ])
    const ds = { keytag: 12345, alg: 13, digesttype: 2, digest: 'ab' }
    expect(
      entryChanges(row({ aspect: 'dnssec', before: { ds_records: [] }, after: { ds_records: [ds] } }), names),
    ).toEqual(['DS records: none → key tag 12345 (algorithm 13, digest type 2)'])
  })

  it('a write with no value before says what it set; one that failed says what it asked for, not a dash', () => {
    const created = row({
      subjectKind: 'server',
      subject: 'c:newsite1',
      operation: 'servers.create',
      params: { kind: 'c', webname: 'newsite1', www_flg: 1, wp_flg: 0 },
      after: { webname: 'newsite1', www_flg: 1, wp_flg: 0 },
    })
    expect(entryChanges(created, names)).toEqual(['Server name: newsite1', 'www: on', 'WordPress: off'])
    const failed = row({ ...extension, outcome: 'failed', after: { months: 3 } })
    expect(entryChanges(failed, names)).toEqual(['Months: 3 months'])
    // A service IP's server is one of its settings, not its subject: said.
    const setting = row({
      subjectKind: 'svcip',
      subject: '4',
      operation: 'svcips.setting.set',
      params: { vipid: 4, webid: 1001, domainname: 'a.example', ssl_on: 1 },
      after: { webid: 1001, domainname: 'a.example', ssl_on: 1 },
    })
    expect(entryChanges(setting, names)).toEqual(['Server: 1001', 'Domain name: a.example', 'SSL: on'])
    for (const r of [ttlSave, extension, ddns, created, failed])
      for (const line of entryChanges(r, names)) expect(line).not.toMatch(/—|→ 1$|a:/)
  })

  it('a domain, a free DNS zone and a service IP link to their pages; the account to none', () => {
    expect(subjectLink(ddns)).toBe('/domains/a.example')
    expect(subjectLink(row({ subjectKind: 'freedns', subject: 'free.example' }))).toBe('/freedns/free.example')
    expect(subjectLink(row({ subjectKind: 'svcip', subject: '4' }))).toBe('/svcips/4')
    expect(subjectText(row({ subjectKind: 'svcip', subject: '4' }), names)).toBe('Service IP 4')
    expect(subjectLink(row({ subjectKind: 'account', subject: '' }))).toBeUndefined()
  })
})

describe('history rows in words, in Japanese', () => {
  it('the same rows read naturally in Japanese', () => {
    useCatalogue('ja', ja)
    const jaNames: HistoryNames = { serverKind: () => 'Webサーバー', nsType: (w) => w }
    expect(entryChanges(ttlSave, jaNames)).toEqual(['ゾーン全体の TTL: 3600 秒 → 300 秒'])
    expect(entryChanges(extension, jaNames)).toEqual(['有効期限: 2030/01/06 → 2030/04/06'])
    expect(subjectText(extension, jaNames)).toBe('aecho2（Webサーバー）')
    expect(entryChanges(ddns, jaNames)).toEqual(['ダイナミックDNS: オフ → オン'])
    expect(entryChanges(row({ ...extension, outcome: 'failed', after: { months: 3 } }), jaNames)).toEqual([
      '月数: 3 か月',
    ])
  })
})
