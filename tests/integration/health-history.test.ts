/**
 * Health findings that appear or go away with a zone's change are recorded in history, as drift
 * is (shown until looked at): from a zone read on its own and from the account-wide DNS list, on
 * a real store file. The entry names the findings that appeared (after) and went away (before).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openPortfolioStore } from '../../src/main/store'
import { healthChangeSchema, servedChangeSchema } from '@shared/dns/health/finding-schema'
import type { PagedItem } from '@shared/endpoints/table'

const T1 = '2030-01-01T00:00:00.000Z'
const T2 = '2030-01-02T00:00:00.000Z'
const T3 = '2030-01-03T00:00:00.000Z'
const open = () => openPortfolioStore(join(mkdtempSync(join(tmpdir(), 'health-history-')), 'portfolio.db'))
const rulesOf = (v: unknown) => healthChangeSchema.parse(v).findings.map((f) => `${f.rule} ${f.record.host}`)
const dnsItem = (name: string, records: string): PagedItem<'domains.dns.list'> => ({
  domainid: 1,
  domainname: name,
  ns_type: 'svc1',
  records,
  ttl: 3600,
})

describe('health findings in history', () => {
  it('a zone read on its own: a finding that appears, then one that goes away, each an entry shown until seen', () => {
    const store = open()
    try {
      const clean = 'a @ 192.0.2.1\ntxt @ v=spf1 -all'
      store.putZone('acct', 'dns', 'site.example', { records: clean, ttl: 3600, ns_type: 'svc1' }, T1)
      // A second SPF record at the apex (someone added one at the service).
      store.putZone(
        'acct',
        'dns',
        'site.example',
        { records: `${clean}\ntxt @ v=spf1 ~all`, ttl: 3600, ns_type: 'svc1' },
        T2,
      )
      // A change that neither brings nor clears a finding records no health entry.
      store.putZone(
        'acct',
        'dns',
        'site.example',
        { records: `${clean}\ntxt @ v=spf1 ~all\na www 192.0.2.2`, ttl: 3600, ns_type: 'svc1' },
        T2,
      )
      store.putZone(
        'acct',
        'dns',
        'site.example',
        { records: `${clean}\na www 192.0.2.2`, ttl: 3600, ns_type: 'svc1' },
        T3,
      )
      const health = store.history
        .list({ accountId: 'acct', subject: 'site.example' })
        .filter((h) => h.aspect === 'health')
      expect(health.map((h) => [h.at, rulesOf(h.after), rulesOf(h.before), h.seen])).toEqual([
        [T3, [], ['spf.multiple @', 'spf.multiple @'], false],
        [T2, ['spf.multiple @', 'spf.multiple @'], [], false],
      ])
    } finally {
      store.close()
    }
  })

  it('a broken record replaced by another broken one at the same name: the old finding went away, the new one appeared', () => {
    const store = open()
    try {
      store.putZone(
        'acct',
        'dns',
        'site.example',
        { records: 'txt @ "v=spf1 ip4:192.0.2.300 -all"', ttl: 3600, ns_type: 'svc1' },
        T1,
      )
      store.putZone(
        'acct',
        'dns',
        'site.example',
        { records: 'txt @ "v=spf1 ip4:192.0.2.400 -all"', ttl: 3600, ns_type: 'svc1' },
        T2,
      )
      const health = store.history
        .list({ accountId: 'acct', subject: 'site.example' })
        .filter((h) => h.aspect === 'health')
      const values = (v: unknown) => healthChangeSchema.parse(v).findings.map((f) => `${f.rule} ${f.record.value}`)
      expect(health.map((h) => [values(h.before), values(h.after)])).toEqual([
        [['spf.syntax "v=spf1 ip4:192.0.2.300 -all"'], ['spf.syntax "v=spf1 ip4:192.0.2.400 -all"']],
      ])
    } finally {
      store.close()
    }
  })

  it('a zone the account-wide DNS list changed: the same entry', () => {
    const store = open()
    try {
      store.putList(
        'acct',
        'domains.dns.list',
        {},
        [dnsItem('a.example', 'a @ 192.0.2.1\ncname www @'), dnsItem('b.example', 'a @ 192.0.2.2')],
        T1,
      )
      store.putList(
        'acct',
        'domains.dns.list',
        {},
        [dnsItem('a.example', 'a @ 192.0.2.1\ncname www @\na www 192.0.2.9'), dnsItem('b.example', 'a @ 192.0.2.2')],
        T2,
      )
      const health = store.history.list({ accountId: 'acct' }).filter((h) => h.aspect === 'health')
      expect(health.map((h) => [h.subject, rulesOf(h.after)])).toEqual([['a.example', ['cname.beside www']]])
    } finally {
      store.close()
    }
  })

  it('served against saved: an entry when the findings differ from the last comparison, none when they are the same', () => {
    const store = open()
    try {
      const behind = {
        code: 'served.missing' as const,
        params: { ns: 'ns2.example.net', type: 'A', name: 'www.site.example', value: '192.0.2.5' },
      }
      expect(store.history.recordServed('acct', 'site.example', [], T1)).toBe(0)
      expect(store.history.recordServed('acct', 'site.example', [behind], T2)).toBe(1)
      expect(
        store.history.recordServed('acct', 'site.example', [{ ...behind, params: { ...behind.params } }], T2),
      ).toBe(0)
      // Behind on another record now: the same kind of finding, a different one.
      const further = { ...behind, params: { ...behind.params, name: 'mail.site.example', value: '192.0.2.6' } }
      expect(store.history.recordServed('acct', 'site.example', [further], T2)).toBe(1)
      expect(store.history.recordServed('acct', 'site.example', [], T3)).toBe(1)
      const served = store.history
        .list({ accountId: 'acct', subject: 'site.example' })
        .filter((h) => h.aspect === 'served')
      const codes = (v: unknown) => servedChangeSchema.parse(v).findings.map((f) => f.code)
      expect(served.map((h) => [h.at, codes(h.before), codes(h.after), h.seen])).toEqual([
        [T3, ['served.missing'], [], false],
        [T2, ['served.missing'], ['served.missing'], false],
        [T2, [], ['served.missing'], false],
      ])
    } finally {
      store.close()
    }
  })

  it('served against saved: a nameserver not asked or a delegation elsewhere is never in history; the last comparison is kept, reopened', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'served-kept-')), 'portfolio.db')
    const behind = {
      code: 'served.missing' as const,
      params: { ns: 'ns2.example.net', type: 'A', name: 'www.site.example', value: '192.0.2.5' },
    }
    const noAddress = { code: 'served.unresolved' as const, params: { ns: 'ns1.example.net', reason: 'ENOTFOUND' } }
    const silent = { code: 'served.unreachable' as const, params: { ns: 'ns1.example.net', reason: 'ETIMEOUT' } }
    const elsewhere = { code: 'served.delegatedElsewhere' as const, params: { ns: 'ns1.other.example' } }
    const first = openPortfolioStore(file)
    try {
      expect(first.history.recordServed('acct', 'asked.example', [noAddress], T1)).toBe(0)
      expect(first.history.recordServed('acct', 'asked.example', [silent], T2)).toBe(0)
      expect(first.history.recordServed('acct', 'away.example', [elsewhere], T1)).toBe(0)
      expect(first.history.recordServed('acct', 'site.example', [behind, noAddress], T1)).toBe(1)
      // The same difference with the other nameserver answering now: no new entry.
      expect(first.history.recordServed('acct', 'site.example', [behind], T2)).toBe(0)
      // A failure to ask says nothing of the difference: it neither clears it nor is recorded.
      expect(first.history.recordServed('acct', 'site.example', [silent], T2)).toBe(0)
      expect(first.history.recordServed('acct', 'site.example', [behind], T3)).toBe(0)
    } finally {
      first.close()
    }
    const again = openPortfolioStore(file)
    try {
      const served = again.history.list({ accountId: 'acct' }).filter((h) => h.aspect === 'served')
      const codes = (v: unknown) => servedChangeSchema.parse(v).findings.map((f) => f.code)
      expect(served.map((h) => [h.subject, codes(h.before), codes(h.after)])).toEqual([
        ['site.example', [], ['served.missing']],
      ])
      expect(again.history.servedResults('acct').map((r) => [r.domain, r.outcome, r.at])).toEqual([
        ['asked.example', 'unknown', T2],
        ['away.example', 'delegated', T1],
        ['site.example', 'differs', T3],
      ])
      expect(again.history.servedResults('other')).toEqual([])
    } finally {
      again.close()
    }
  })
})
