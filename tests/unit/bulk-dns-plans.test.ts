import { describe, expect, it } from 'vitest'
import {
  buildPlans,
  decide,
  jobItems,
  zoneKey,
  type ReadZone,
  type ZoneRead,
  type ZoneRef,
} from '../../src/renderer/src/lib/data/bulk-dns'
import type { BulkChange } from '@shared/dns/bulk-change'

const change: BulkChange = { kind: 'replace', from: '192.0.2.10', to: '198.51.100.20' }
const ref = (accountId: string, domain: string, kind: ZoneRef['kind'] = 'dns'): ZoneRef => ({ accountId, kind, domain })
const dns = (records: string): ZoneRead => ({ kind: 'dns', records, ttl: 3600, ns_type: 'svc1' })

describe('building the plans', () => {
  it('reads a few zones at a time, keeps the zones’ order, and reports a zone that could not be read', async () => {
    const zones = Array.from({ length: 9 }, (_, i) =>
      ref(i < 5 ? 'a' : 'b', `z${i}.example`, i === 8 ? 'freedns' : 'dns'),
    )
    let inFlight = 0
    let most = 0
    const read: ReadZone = async (z) => {
      inFlight++
      most = Math.max(most, inFlight)
      await new Promise((r) => setTimeout(r, 5 + (z.domain.charCodeAt(1) % 3) * 5))
      inFlight--
      if (z.domain === 'z3.example') return { ok: false, error: { kind: 'not-found', code: 'error.not-found' } }
      return {
        ok: true,
        value:
          z.kind === 'dns'
            ? dns(`a www 192.0.2.10\na mail 192.0.2.${z.domain.charCodeAt(1)}`)
            : { kind: 'freedns', records: 'a www 192.0.2.10' },
      }
    }
    const seen: string[] = []
    const plans = await buildPlans(zones, change, read, { concurrency: 3, onPlan: (p) => seen.push(p.ref.domain) })
    expect(most).toBe(3)
    expect(plans.map((p) => p.ref.domain)).toEqual(zones.map((z) => z.domain))
    expect(seen.sort()).toEqual(zones.map((z) => z.domain).sort())
    expect(plans.map((p) => p.status)).toEqual([
      'planned',
      'planned',
      'planned',
      'failed',
      'planned',
      'planned',
      'planned',
      'planned',
      'planned',
    ])
    const first = plans[0]!
    if (first.status !== 'planned') throw new Error('planned')
    expect(first.change.changed).toBe(1)
    expect(first.change.records).toContain('a www 198.51.100.20')
  })

  it('stops taking zones when cancelled: those not read yet are "not read", never sent', async () => {
    const zones = Array.from({ length: 6 }, (_, i) => ref('a', `z${i}.example`))
    const stop = new AbortController()
    const read: ReadZone = async (z, signal) => {
      if (z.domain === 'z1.example') stop.abort()
      await new Promise((r) => setTimeout(r, 5))
      return signal?.aborted
        ? { ok: false, error: { kind: 'cancelled', code: 'error.cancelled' } }
        : { ok: true, value: dns('a www 192.0.2.10') }
    }
    const plans = await buildPlans(zones, change, read, { concurrency: 2, signal: stop.signal })
    expect(plans.map((p) => p.status)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
      'cancelled',
      'cancelled',
      'cancelled',
    ])
    const decisions = decide(plans, new Set(), () => false)
    expect(decisions.every((d) => d.leftOut === 'notRead')).toBe(true)
    expect(jobItems(decisions)).toEqual([])
  })
})

describe('which zones are sent', () => {
  it('leaves out what failed, has nothing to change, would be invalid, is read-only or lacks its own confirmation', async () => {
    const texts: Record<string, string> = {
      'ok.example': 'a www 192.0.2.10\na a 192.0.2.1\na b 192.0.2.2\na c 192.0.2.3',
      'same.example': 'a www 192.0.2.99',
      // 4 of 10 records change: over the 30 % rule (zones of 10 records or more).
      'big.example': [
        'a www 192.0.2.10',
        'a @ 192.0.2.10',
        'a m 192.0.2.10',
        'a n 192.0.2.10',
        ...Array.from({ length: 6 }, (_, i) => `a h${i} 192.0.2.${50 + i}`),
      ].join('\n'),
      'ro.example': 'a www 192.0.2.10\na a 192.0.2.1\na b 192.0.2.2\na c 192.0.2.3',
      'dup.example': 'a www 192.0.2.10\na www 198.51.100.20',
    }
    const zones = [
      ref('a', 'ok.example'),
      ref('a', 'same.example'),
      ref('a', 'big.example'),
      ref('ro', 'ro.example'),
      ref('a', 'dup.example'),
      ref('a', 'gone.example'),
    ]
    const read: ReadZone = async (z) =>
      texts[z.domain]
        ? { ok: true, value: dns(texts[z.domain]!) }
        : { ok: false, error: { kind: 'not-found', code: 'error.not-found' } }
    const plans = await buildPlans(zones, change, read)
    const without = decide(plans, new Set(), (id) => id === 'ro')
    expect(without.map((d) => [d.plan.ref.domain, d.leftOut])).toEqual([
      ['ok.example', undefined],
      ['same.example', 'noChange'],
      ['big.example', 'notConfirmed'],
      ['ro.example', 'readOnly'],
      // A duplicate the change brings in is a warning (the service stores duplicates), not an error;
      // a 2-record zone is below the 30 % rule's floor.
      ['dup.example', undefined],
      ['gone.example', 'readFailed'],
    ])
    const confirmed = decide(plans, new Set([zoneKey(ref('a', 'big.example'))]), (id) => id === 'ro')
    expect(confirmed[2]!.leftOut).toBeUndefined()
    expect(plans[4]!.status === 'planned' && plans[4]!.change.warnings.map((w) => w.code)).toEqual(['dns.duplicate'])
  })

  it('leaves out a zone the change would make invalid', async () => {
    const toName: BulkChange = { kind: 'replace', from: '192.0.2.10', to: 'mail.example.com.' }
    const read: ReadZone = async () => ({
      ok: true,
      value: dns('a www 192.0.2.10\na a 192.0.2.1\na b 192.0.2.2\na c 192.0.2.3'),
    })
    const plans = await buildPlans([ref('a', 'bad.example')], toName, read)
    expect(decide(plans, new Set(), () => false).map((d) => d.leftOut)).toEqual(['invalid'])
  })
})

describe('the jobs', () => {
  it('one job per account and operation, each zone its new records, TTL and ns_type as read, guarded by the zone it was planned from', async () => {
    const text = (n: number) => `a www 192.0.2.10\na x 192.0.2.${n}\na y 192.0.2.${n + 1}\na z 192.0.2.${n + 2}`
    const reads: Record<string, ZoneRead> = {
      'one.example': { kind: 'dns', records: text(1), ttl: 600, ns_type: 'svc11' },
      'free.example': { kind: 'freedns', records: text(20) },
      'two.example': { kind: 'dns', records: text(40), ns_type: 'svc1' },
      'b.example': { kind: 'dns', records: text(60), ttl: 3600, ns_type: 'svc1' },
    }
    const zones = [
      ref('a', 'one.example'),
      ref('b', 'b.example'),
      ref('a', 'free.example', 'freedns'),
      ref('a', 'two.example'),
    ]
    const plans = await buildPlans(zones, change, async (z) => ({ ok: true, value: reads[z.domain]! }))
    const jobs = jobItems(decide(plans, new Set(), () => false))
    expect(jobs.map((j) => [j.accountId, j.dns.map((i) => i.label), j.freedns.map((i) => i.label)])).toEqual([
      ['a', ['one.example', 'two.example'], ['free.example']],
      ['b', ['b.example'], []],
    ])
    expect(jobs[0]!.dns[0]).toEqual({
      params: {
        domain: 'one.example',
        records: text(1).replace('192.0.2.10', '198.51.100.20'),
        ns_type: 'svc11',
        ttl: 600,
      },
      label: 'one.example',
      guard: { records: text(1), ttl: 600, ns_type: 'svc11' },
    })
    // No TTL read, none sent: the service keeps the zone's own.
    expect(jobs[0]!.dns[1]!.params).toEqual({
      domain: 'two.example',
      records: text(40).replace('192.0.2.10', '198.51.100.20'),
      ns_type: 'svc1',
    })
    expect(jobs[0]!.freedns[0]).toEqual({
      params: { domain: 'free.example', records: text(20).replace('192.0.2.10', '198.51.100.20') },
      label: 'free.example',
      guard: { records: text(20) },
    })
  })
})
