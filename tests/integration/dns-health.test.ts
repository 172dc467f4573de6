/**
 * The health checks that ask DNS, against real DNS servers on loopback (dns-packet servers of
 * the tests' own, asked through node's resolver): a resolver for SPF include chains and dangling
 * targets, and zones' nameservers for served against saved (one delegated elsewhere, one lagging,
 * one rewriting, one as saved).
 */
import { createSocket, type Socket } from 'node:dgram'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planHealth, zoneHealth } from '@shared/dns/health/asked'
import { parse } from '@shared/dns/records'
import { resolverAsker } from '../../src/main/dns-health/resolver-asker'
import { resolverNsAsk, servedAgainstSaved } from '../../src/main/dns-health/served'
import type { Nameserver } from '../../src/main/dns-health/nameservers'
import { startRecordsDns, type LoopbackDns, type Zone } from '../../support/loopback-dns'

const includes = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => `include:${prefix}${i}.mail.test`).join(' ')
const resolverZones: Zone[] = [
  {
    domain: 'mail.test',
    records: [
      // 1 lookup for the include itself, 4 in _spf (3 includes, a redirect), 2 in each p (a, mx), 3 in _spf2: 14 in all.
      `txt _spf v=spf1 ${includes(3, 'p')} redirect=_spf2.mail.test`,
      ...Array.from({ length: 3 }, (_, i) => `txt p${i} v=spf1 a mx ip4:192.0.2.${i} -all`),
      'txt _spf2 v=spf1 a mx ptr -all',
      'txt small v=spf1 include:p0.mail.test -all',
      // A chain 16 deep (d0 includes d1 … d15), one lookup at each step.
      ...Array.from({ length: 15 }, (_, i) => `txt d${i} v=spf1 include:d${i + 1}.mail.test -all`),
      'txt d15 v=spf1 -all',
      // Two records that include each other.
      'txt loop1 v=spf1 include:loop2.mail.test -all',
      'txt loop2 v=spf1 include:loop1.mail.test -all',
    ].join('\n'),
  },
  {
    domain: 'host.test',
    records: [
      'a web 192.0.2.80',
      'aaaa v6only 2001:db8::80',
      'cname alias web.host.test.',
      'cname mx-alias web.host.test.',
      'a mx 192.0.2.25',
    ].join('\n'),
  },
]

let resolver: LoopbackDns
let silent: Socket
beforeAll(async () => {
  resolver = await startRecordsDns(() => resolverZones, { resolver: true })
  silent = createSocket('udp4')
  await new Promise<void>((r) => silent.bind(0, '127.0.0.1', () => r()))
})
afterAll(async () => {
  await resolver?.close()
  silent?.close()
})

const health = (lines: string[], servers = [resolver.address], timeoutMs = 2000) =>
  zoneHealth(parse(lines.join('\n')), 'example.com', resolverAsker({ servers, timeoutMs }))

describe('health rules that ask DNS (a resolver on loopback)', () => {
  it('spf.lookups counts through include: and redirect= and finds 14; a short chain passes', async () => {
    const over = await health(['txt @ v=spf1 include:_spf.mail.test -all'])
    expect(over).toEqual([expect.objectContaining({ rule: 'spf.lookups', params: { count: 14, limit: 10 } })])
    expect(await health(['txt @ v=spf1 include:small.mail.test -all'])).toEqual([])
  })

  it('asks each name once per run (cached), and follows includes inside the zone from the zone itself', async () => {
    const before = resolver.asked.length
    const found = await health([
      'txt @ v=spf1 include:_spf.example.com include:_spf.mail.test -all',
      'txt _spf v=spf1 include:_spf.mail.test -all',
      'txt www v=spf1 include:_spf.mail.test -all',
    ])
    const asked = resolver.asked.slice(before)
    expect(asked.filter((q) => q === 'TXT _spf.mail.test')).toHaveLength(1)
    expect(asked.some((q) => q.includes('example.com'))).toBe(false)
    expect(found.filter((f) => f.rule === 'spf.lookups').map((f) => f.record.host)).toEqual(['@', '_spf', 'www'])
  })

  it('target.dangling for a CNAME, MX and in-zone target with no address; mx.cname for an MX at an alias', async () => {
    const found = await health([
      'cname shop gone.host.test.',
      'cname blog alias.host.test.',
      'mx mx-alias.host.test. 10',
      'mx mx.host.test. 20',
      'cname old nothing-here',
      'a web 192.0.2.1',
    ])
    expect(found.map((f) => [f.rule, f.record.host, f.params.target])).toEqual([
      ['target.dangling', 'shop', 'gone.host.test'],
      ['mx.cname', '@', 'mx-alias.host.test'],
      ['target.dangling', 'old', 'nothing-here.example.com'],
    ])
  })

  it('spf.lookups at the limit: 10 lookups pass, 11 are one too many', async () => {
    // 3 includes, each of whose records costs 2 (a, mx): 9, and the record's own terms (exists: costs one too).
    const three = 'include:p0.mail.test include:p1.mail.test include:p2.mail.test'
    expect(await health([`txt @ v=spf1 ${three} a -all`])).toEqual([])
    expect(await health([`txt @ v=spf1 ${three} a exists:%{i}.e.mail.test -all`])).toEqual([
      expect.objectContaining({ rule: 'spf.lookups', params: { count: 11, limit: 10 } }),
    ])
  })

  it('follows an include chain at most 10 deep: a chain deeper than that is over the limit, and its deeper names are never asked', async () => {
    const before = resolver.asked.length
    const found = await health(['txt @ v=spf1 include:d0.mail.test -all'])
    expect(found.map((f) => [f.rule, f.record.host])).toEqual([['spf.lookups', '@']])
    const chain = resolver.asked.slice(before).filter((q) => /^TXT d\d+\.mail\.test$/.test(q))
    expect(chain).toEqual(Array.from({ length: 10 }, (_, i) => `TXT d${i}.mail.test`))
  })

  it('an include loop is over the limit, as a receiver evaluating it finds (every include is evaluated again), each name still asked once', async () => {
    const before = resolver.asked.length
    expect((await health(['txt @ v=spf1 include:loop1.mail.test -all'])).map((f) => f.rule)).toEqual(['spf.lookups'])
    expect(resolver.asked.slice(before).filter((q) => q.includes('loop'))).toEqual([
      'TXT loop1.mail.test',
      'TXT loop2.mail.test',
    ])
    // A record that includes its own name, read from the zone itself.
    expect((await health(['txt @ v=spf1 include:example.com -all'])).map((f) => f.rule)).toEqual(['spf.lookups'])
  })

  it('ns.cname for an NS target elsewhere that is an alias; target.dangling for MX, NS and SRV targets elsewhere with no address', async () => {
    const found = await health([
      'ns sub mx-alias.host.test.',
      'mx gone-mx.host.test. 10',
      'ns sub gone-ns.host.test.',
      'srv _sip._tcp 10 5 5060 gone-srv.host.test.',
      'srv _xmpp._tcp 10 5 5222 web.host.test.',
    ])
    expect(found.map((f) => [f.rule, f.record.type, f.params.target])).toEqual([
      ['ns.cname', 'ns', 'mx-alias.host.test'],
      ['target.dangling', 'mx', 'gone-mx.host.test'],
      ['target.dangling', 'ns', 'gone-ns.host.test'],
      ['target.dangling', 'srv', 'gone-srv.host.test'],
    ])
  })

  it('a target elsewhere with only an IPv6 address is not dangling', async () => {
    expect(await health(['cname shop v6only.host.test.', 'mx v6only.host.test. 10'])).toEqual([])
  })

  it('a target inside the zone under a delegation is the child zone’s to serve: not dangling', async () => {
    expect(await health(['ns sub ns1.sub.example.com.', 'cname app www.sub.example.com.', 'a @ 192.0.2.1'])).toEqual([])
  })

  it('a plan’s findings that ask DNS: the one the save introduces first, the one the zone had after it', async () => {
    const before = parse(['cname shop gone.host.test.', 'txt @ v=spf1 include:small.mail.test -all'].join('\n'))
    const after = parse(['cname shop gone.host.test.', 'txt @ v=spf1 include:_spf.mail.test -all'].join('\n'))
    const found = await planHealth(before, after, 'example.com', resolverAsker({ servers: [resolver.address] }))
    expect(found.map((f) => [f.rule, f.record.host, f.introduced])).toEqual([
      ['spf.lookups', '@', true],
      ['target.dangling', 'shop', false],
    ])
  })

  it('each question is bounded in time and tried once: an answer slower than the timeout is not waited for', async () => {
    // The slow resolver answers after 2 s; the asker gives up after 200 ms.
    const slow = await startRecordsDns(() => resolverZones, { resolver: true, holdMs: 2000 })
    try {
      const found = await health(['txt @ v=spf1 include:_spf.mail.test -all'], [slow.address], 200)
      expect(found.map((f) => [f.rule, f.params.check, f.params.reason])).toEqual([
        ['dns.unasked', 'spf.lookups', 'ETIMEOUT'],
      ])
      expect(slow.asked).toEqual(['TXT _spf.mail.test'])
    } finally {
      await slow.close()
    }
  })

  it('says when it could not ask whether an MX or NS target elsewhere is an alias (its CNAME question unanswered)', async () => {
    const noCname = await startRecordsDns(() => resolverZones, {
      resolver: true,
      unanswered: (type) => type === 'CNAME',
    })
    try {
      const found = await health(['mx mx.host.test. 10', 'ns sub mx.host.test.'], [noCname.address], 200)
      expect(found.map((f) => [f.rule, f.record.type, f.params.check, f.params.name, f.params.reason])).toEqual([
        ['dns.unasked', 'mx', 'mx.cname', 'mx.host.test', 'ETIMEOUT'],
        ['dns.unasked', 'ns', 'ns.cname', 'mx.host.test', 'ETIMEOUT'],
      ])
    } finally {
      await noCname.close()
    }
  })

  it('says when it could not ask (a resolver that never answers): dns.unasked, not a pass', async () => {
    const { port } = silent.address()
    const found = await health(
      ['txt @ v=spf1 include:_spf.mail.test -all', 'cname shop web.host.test.'],
      [`127.0.0.1:${port}`],
      200,
    )
    expect(found.map((f) => [f.rule, f.params.check, f.params.reason])).toEqual([
      ['dns.unasked', 'spf.lookups', 'ETIMEOUT'],
      ['dns.unasked', 'target.dangling', 'ETIMEOUT'],
    ])
  })
})

describe('served against saved (nameservers on loopback)', () => {
  const saved = ['a @ 192.0.2.1', 'a www 192.0.2.2', 'txt @ v=spf1 -all', 'mx mail.example.net. 10'].join('\n')
  const servers: LoopbackDns[] = []
  const ns = (name: string, s: LoopbackDns): Nameserver => ({ name, servers: [s.address] })
  const start = async (zones: () => Zone[]) => {
    const s = await startRecordsDns(zones)
    servers.push(s)
    return s
  }
  afterAll(async () => {
    for (const s of servers) await s.close()
  })
  const compare = (domain: string, nameservers: Nameserver[]) =>
    servedAgainstSaved({ domain, records: saved, nameservers, unresolved: [] }, resolverNsAsk(1000))

  it('no finding when every nameserver serves what is saved', async () => {
    const a = await start(() => [{ domain: 'same.test', records: saved }])
    const b = await start(() => [{ domain: 'same.test', records: saved }])
    expect((await compare('same.test', [ns('ns1', a), ns('ns2', b)])).findings).toEqual([])
  })

  it('no finding for the lines the service serves in its own spellings: a value written twice, an IDN host, UTF-8 text, the apex MX written with @', async () => {
    const spelled = [
      saved,
      'cname docs docs.example.com.',
      'cname docs docs.example.com.',
      'a 日本語 192.0.2.81',
      'txt quote say "hello" to café',
      'mx @ backup.example.net. 30',
    ].join('\n')
    const a = await start(() => [{ domain: 'spelled.test', records: spelled }])
    const r = await servedAgainstSaved(
      { domain: 'spelled.test', records: spelled, nameservers: [ns('ns1', a)], unresolved: [] },
      resolverNsAsk(1000),
    )
    expect(r.findings).toEqual([])
    // The IDN host was asked as DNS carries it, and the apex MX compared with the backup server in it.
    expect(a.asked).toContain('A xn--wgv71a119e.spelled.test')
    expect(a.asked).toContain('MX spelled.test')
  })

  it('a comparison cancelled part way is no comparison: it ends as cancelled, not as what the questions so far suggest', async () => {
    const a = await start(() => [{ domain: 'cut.test', records: saved }])
    const stop = new AbortController()
    const ask = resolverNsAsk(1000)
    // Cancelled once the first question has been asked: nothing matched yet, which read as "delegated elsewhere".
    const cut = servedAgainstSaved(
      { domain: 'cut.test', records: saved, nameservers: [ns('ns1', a)], unresolved: [] },
      async (n, name, type) => {
        const answer = await ask(n, name, type)
        stop.abort()
        return answer
      },
      stop.signal,
    )
    await expect(cut).rejects.toMatchObject({ data: { kind: 'cancelled' } })
  })

  it('a TXT value longer than 255 bytes (a DKIM key) is served as several strings and compared whole', async () => {
    const key = `v=DKIM1; k=rsa; p=${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.repeat(8)}`
    const dkim = `${saved}\ntxt default._domainkey ${key}`
    const a = await start(() => [{ domain: 'dkim.test', records: dkim }])
    const r = await servedAgainstSaved(
      { domain: 'dkim.test', records: dkim, nameservers: [ns('ns1', a)], unresolved: [] },
      resolverNsAsk(1000),
    )
    expect(r.findings).toEqual([])
    const lone = await servedAgainstSaved(
      { domain: 'dkim.test', records: `txt default._domainkey ${key}`, nameservers: [ns('ns1', a)], unresolved: [] },
      resolverNsAsk(1000),
    )
    expect(lone.findings).toEqual([])
  })

  it('no finding when a nameserver gives a set of values in another order (as round robin does)', async () => {
    const several = `${saved}\na www 192.0.2.3\na www 192.0.2.4`
    const reversed = several.split('\n').reverse().join('\n')
    const a = await start(() => [{ domain: 'order.test', records: reversed }])
    const r = await servedAgainstSaved(
      { domain: 'order.test', records: several, nameservers: [ns('ns1', a)], unresolved: [] },
      resolverNsAsk(1000),
    )
    expect(r.findings).toEqual([])
  })

  it('delegated elsewhere: the nameservers serve another zone altogether', async () => {
    const other = await start(() => [
      { domain: 'away.test', records: 'a @ 203.0.113.9\ntxt @ v=spf1 include:other.example -all' },
    ])
    const r = await compare('away.test', [ns('ns1.other.example', other)])
    expect(r.findings).toEqual([{ code: 'served.delegatedElsewhere', params: { ns: 'ns1.other.example' } }])
  })

  it('a lagging nameserver: the one behind is named with what it misses and what it still serves', async () => {
    const current = await start(() => [{ domain: 'lag.test', records: saved }])
    const behind = await start(() => [{ domain: 'lag.test', records: saved.replace('192.0.2.2', '192.0.2.99') }])
    const r = await compare('lag.test', [ns('ns1', current), ns('ns2', behind)])
    expect(r.findings).toEqual([
      { code: 'served.missing', params: { ns: 'ns2', type: 'A', name: 'www.lag.test', value: '192.0.2.2' } },
      { code: 'served.extra', params: { ns: 'ns2', type: 'A', name: 'www.lag.test', value: '192.0.2.99' } },
    ])
  })

  it('asks no question whose answer is implied: a nameserver that refuses the zone is asked once, a name it says does not exist once', async () => {
    const good = await start(() => [{ domain: 'implied.test', records: `${saved}\ntxt www v=spf1 -all` }])
    const refusing = await start(() => [{ domain: 'elsewhere.test', records: saved }])
    const refused = await servedAgainstSaved(
      { domain: 'implied.test', records: saved, nameservers: [ns('ns1', good), ns('ns2', refusing)], unresolved: [] },
      resolverNsAsk(1000),
    )
    expect(refused.findings).toEqual([{ code: 'served.unreachable', params: { ns: 'ns2', reason: 'EREFUSED' } }])
    expect(refusing.asked.filter((q) => q.endsWith('implied.test'))).toHaveLength(1)
    // The second nameserver has not heard of www yet: asked once for it, and both its sets are missing there.
    const behind = await start(() => [{ domain: 'implied.test', records: saved.replace('a www 192.0.2.2', '') }])
    const r = await servedAgainstSaved(
      {
        domain: 'implied.test',
        records: `${saved}\ntxt www v=spf1 -all`,
        nameservers: [ns('ns1', good), ns('ns2', behind)],
        unresolved: [],
      },
      resolverNsAsk(1000),
    )
    expect(r.findings).toEqual([
      { code: 'served.missing', params: { ns: 'ns2', type: 'A', name: 'www.implied.test', value: '192.0.2.2' } },
      { code: 'served.missing', params: { ns: 'ns2', type: 'TXT', name: 'www.implied.test', value: 'v=spf1 -all' } },
    ])
    expect(behind.asked.filter((q) => q.endsWith(' www.implied.test'))).toHaveLength(1)
    expect(good.asked.filter((q) => q.endsWith(' www.implied.test')).length).toBeGreaterThanOrEqual(3)
  })

  it('a record the service rewrote: every nameserver agrees, on something other than what is saved', async () => {
    const rewritten = saved.replace('v=spf1 -all', 'v=spf1 ~all')
    const a = await start(() => [{ domain: 'rw.test', records: rewritten }])
    const b = await start(() => [{ domain: 'rw.test', records: rewritten }])
    const r = await compare('rw.test', [ns('ns1', a), ns('ns2', b)])
    expect(r.findings).toEqual([
      {
        code: 'served.rewritten',
        params: { ns: 'ns1, ns2', type: 'TXT', name: 'rw.test', value: 'v=spf1 -all', served: 'v=spf1 ~all' },
      },
    ])
  })
})
