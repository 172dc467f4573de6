import { describe, expect, it } from 'vitest'
import { applyBulkChange, checkChange, hostKey, valueKey } from '@shared/dns/bulk-change'
import { SAFETY_RULE_PERCENT as THRESHOLD_PERCENT, zoneSafety } from '@shared/dns/zone-safety'

const zone = (...lines: string[]) => lines.join('\n')

describe('replace value X with Y', () => {
  const text = zone(
    '# web servers',
    'a @ 192.0.2.10',
    'a www 192.0.2.10',
    'a old 192.0.2.1',
    'a other 192.0.2.100',
    'txt @ v=spf1 ip4:192.0.2.10 -all',
    'mx mail.example.com. 10',
    'cname docs www.example.com.',
    'aaaa @ 2001:db8::10',
    'a h1 203.0.113.1',
    'a h2 203.0.113.2',
    'a h3 203.0.113.3',
    '',
  )

  it('changes only records whose whole value is X, and keeps every other line as it was', () => {
    const r = applyBulkChange(text, { kind: 'replace', from: '192.0.2.10', to: '198.51.100.20' })
    expect(r.records).toBe(
      text.replace('a @ 192.0.2.10', 'a @ 198.51.100.20').replace('a www 192.0.2.10', 'a www 198.51.100.20'),
    )
    expect(r.plan.changed.map((c) => [c.from.host, c.from.value, c.to.value])).toEqual([
      ['@', '192.0.2.10', '198.51.100.20'],
      ['www', '192.0.2.10', '198.51.100.20'],
    ])
    expect(r.plan.added).toEqual([])
    expect(r.plan.removed).toEqual([])
    expect(r.changed).toBe(2)
    expect(r.total).toBe(11)
    expect(r.issues).toEqual([])
    expect(r.empty).toBe(false)
    expect(r.needsOwnConfirmation).toBe(false)
  })

  it('never replaces X where it is only part of another value, and says where it was left', () => {
    const r = applyBulkChange(text, { kind: 'replace', from: '192.0.2.1', to: '198.51.100.1' })
    // 192.0.2.1 is a prefix of 192.0.2.10 and 192.0.2.100: only the record whose value is exactly it changes.
    expect(r.plan.changed.map((c) => c.from.host)).toEqual(['old'])
    expect(r.records).toContain('a other 192.0.2.100')
    expect(r.records).toContain('a www 192.0.2.10')
    const spf = applyBulkChange(text, { kind: 'replace', from: '192.0.2.10', to: '198.51.100.20' })
    expect(spf.records).toContain('txt @ v=spf1 ip4:192.0.2.10 -all')
    // Only where it stands on its own: not the 192.0.2.100 it begins.
    expect(spf.mentions.map((m) => m.value)).toEqual(['v=spf1 ip4:192.0.2.10 -all'])
    expect(r.mentions).toEqual([])
  })

  it('can be limited to one type', () => {
    const r = applyBulkChange(zone('a @ 192.0.2.10', 'txt @ 192.0.2.10'), {
      kind: 'replace',
      from: '192.0.2.10',
      to: '198.51.100.20',
      type: 'a',
    })
    expect(r.plan.changed).toHaveLength(1)
    expect(r.records).toBe(zone('a @ 198.51.100.20', 'txt @ 192.0.2.10'))
  })

  it('matches the name part of a value with several parts as a whole (an MX mail server), keeping the rest', () => {
    const r = applyBulkChange(text, { kind: 'replace', from: 'MAIL.example.com.', to: 'mx.example.net.' })
    expect(r.plan.changed.map((c) => c.to.value)).toEqual(['mx.example.net. 10'])
    const none = applyBulkChange(text, { kind: 'replace', from: 'example.com.', to: 'example.net.' })
    expect(none.empty).toBe(true)
  })

  it('compares a TXT value with or without its quotation marks, and host names without case', () => {
    const r = applyBulkChange(zone('txt @ "token=abc"', 'cname www Web.Example.com.'), {
      kind: 'replace',
      from: 'token=abc',
      to: '"token=def"',
    })
    expect(r.records).toBe(zone('txt @ "token=def"', 'cname www Web.Example.com.'))
    const c = applyBulkChange(zone('cname www Web.Example.com.'), {
      kind: 'replace',
      from: 'web.example.com.',
      to: 'web.example.net.',
    })
    expect(c.records).toBe('cname www web.example.net.')
  })

  it('reports a zone the change would make invalid, and only for what the change brings in', () => {
    // A second A record of www with the same value was already there: not the change's doing.
    const before = zone('a www 192.0.2.10', 'a dup 192.0.2.5', 'a dup 192.0.2.5', 'txt @ 192.0.2.10')
    const r = applyBulkChange(before, { kind: 'replace', from: '192.0.2.10', to: 'web.example.net.' })
    expect(r.issues).toEqual([
      { code: 'dns.a.value', params: { value: 'web.example.net.' }, record: 'a www web.example.net.' },
    ])
    // The same change on a zone without the record to replace: nothing to send, nothing wrong.
    const clean = applyBulkChange(zone('a dup 192.0.2.5', 'a dup 192.0.2.5'), {
      kind: 'replace',
      from: '192.0.2.10',
      to: 'x',
    })
    expect(clean.empty).toBe(true)
    expect(clean.issues).toEqual([])
  })

  it('warns of a duplicate the replacement makes, without refusing the zone (the service stores duplicates)', () => {
    const r = applyBulkChange(zone('a www 192.0.2.10', 'a www 198.51.100.20'), {
      kind: 'replace',
      from: '192.0.2.10',
      to: '198.51.100.20',
    })
    expect(r.issues).toEqual([])
    expect(r.warnings.map((i) => [i.code, i.record])).toEqual([['dns.duplicate', 'a www 198.51.100.20']])
  })

  it('keeps comments, unknown lines and the final newline', () => {
    const t = zone('; note', 'loc @ 52 22 23.000 N', 'a www 192.0.2.10', '')
    const r = applyBulkChange(t, { kind: 'replace', from: '192.0.2.10', to: '198.51.100.20' })
    expect(r.records).toBe(zone('; note', 'loc @ 52 22 23.000 N', 'a www 198.51.100.20', ''))
    expect(r.plan.rawAdded).toEqual([])
    expect(r.plan.rawRemoved).toEqual([])
  })
})

describe('the safety rule', () => {
  const tenRecords = Array.from({ length: 10 }, (_, i) => `a h${i} 192.0.2.${i < 4 ? 10 : 50 + i}`)

  it(`exactly ${THRESHOLD_PERCENT} % is not over; one more record is`, () => {
    const three = applyBulkChange(zone(...tenRecords.slice(1)).concat('\na h0 192.0.2.99'), {
      kind: 'replace',
      from: '192.0.2.10',
      to: '198.51.100.20',
    })
    expect([three.changed, three.total]).toEqual([3, 10])
    expect(three.overThreshold).toBe(false)
    expect(three.needsOwnConfirmation).toBe(false)
    const four = applyBulkChange(zone(...tenRecords), { kind: 'replace', from: '192.0.2.10', to: '198.51.100.20' })
    expect([four.changed, four.total]).toEqual([4, 10])
    expect(four.overThreshold).toBe(true)
    expect(four.needsOwnConfirmation).toBe(true)
    // 3 of 9 is a third, but the share applies to zones of 10 records or more (OctoDNS's floor):
    // in a small zone one record is already over 10 %.
    const third = applyBulkChange(zone(...tenRecords.slice(1)), {
      kind: 'replace',
      from: '192.0.2.10',
      to: '198.51.100.20',
    })
    expect([third.changed, third.total, third.overThreshold]).toEqual([3, 9, false])
    const small = applyBulkChange(zone('a @ 192.0.2.10', 'a www 192.0.2.10', 'txt @ "v=spf1 -all"'), {
      kind: 'replace',
      from: '192.0.2.10',
      to: '198.51.100.20',
    })
    expect([small.changed, small.total, small.needsOwnConfirmation]).toEqual([2, 3, false])
  })

  it('an empty zone: nothing to replace is no change; a record added is not over the rule (below the floor)', () => {
    for (const t of ['', '\n', '# only a comment']) {
      const r = applyBulkChange(t, { kind: 'replace', from: '192.0.2.10', to: '198.51.100.20' })
      expect(r.empty).toBe(true)
      expect(r.records).toBe(t)
      expect(r.needsOwnConfirmation).toBe(false)
      expect(r.total).toBe(0)
    }
    const added = applyBulkChange('', { kind: 'add', type: 'a', host: 'www', value: '192.0.2.1' })
    expect(added.records).toBe('a www 192.0.2.1\n')
    // An addition is not counted against the rule (OctoDNS counts updates and deletes only).
    expect([added.changed, added.total, added.overThreshold]).toEqual([0, 0, false])
  })

  it('counts as OctoDNS does: updates and deletes, each against the existing records; additions never', () => {
    const before = zone(...tenRecords)
    const many = Array.from({ length: 25 }, (_, i) => `a new${i} 198.51.100.${i}`)
    // 25 records added to a zone of 10: 250 %, and not unsafe.
    expect(zoneSafety('example.com', before, zone(...tenRecords, ...many))).toMatchObject({
      changed: 0,
      added: 25,
      total: 10,
      overThreshold: false,
    })
    // 4 of 10 deleted is over; 3 deleted and 3 updated is not (each share is 30 %, not over).
    expect(zoneSafety('example.com', before, zone(...tenRecords.slice(4))).overThreshold).toBe(true)
    const threeAndThree = [
      ...tenRecords.slice(0, 4),
      ...tenRecords.slice(4, 7).map((l) => l.replace(/[0-9.]+$/, '203.0.113.1')),
    ]
    expect(zoneSafety('example.com', before, zone(...threeAndThree))).toMatchObject({
      changed: 6,
      total: 10,
      overThreshold: false,
    })
    // 4 of 10 updated is over, whatever is added beside.
    const fourUpdated = tenRecords.map((l, i) => (i < 4 ? l.replace(/[0-9.]+$/, '203.0.113.1') : l))
    expect(zoneSafety('example.com', before, zone(...fourUpdated, ...many)).overThreshold).toBe(true)
  })

  it('an NS record added, removed or changed at the apex needs its own confirmation, whatever the share', () => {
    const base = zone(
      'ns @ ns1.example.net.',
      'ns @ ns2.example.net.',
      'ns sub ns1.other.net.',
      ...tenRecords.map((l) => l.replace('192.0.2.10', '192.0.2.11')),
    )
    const changed = applyBulkChange(base, { kind: 'replace', from: 'ns1.example.net.', to: 'ns1.example.org.' })
    expect(changed.changed).toBe(1)
    expect(changed.overThreshold).toBe(false)
    expect(changed.apexNs).toBe(true)
    expect(changed.needsOwnConfirmation).toBe(true)
    const added = applyBulkChange(base, { kind: 'add', type: 'ns', host: '', value: 'ns3.example.net.' })
    expect(added.records).toContain('ns @ ns3.example.net.')
    expect(added.apexNs).toBe(true)
    const removed = applyBulkChange(base, { kind: 'remove', type: 'ns', host: '@', value: 'NS2.example.net.' })
    expect(removed.plan.removed.map((r) => r.value)).toEqual(['ns2.example.net.'])
    expect(removed.apexNs).toBe(true)
    // Below the apex, an NS record is a delegation like any other record.
    const sub = applyBulkChange(base, { kind: 'replace', from: 'ns1.other.net.', to: 'ns1.other.org.' })
    expect(sub.apexNs).toBe(false)
    expect(sub.needsOwnConfirmation).toBe(false)
  })

  it("an apex written as the zone's full name is the apex", () => {
    const base = zone('ns example.com. ns1.example.net.', 'a www 192.0.2.1')
    const changed = applyBulkChange(
      base,
      { kind: 'replace', from: 'ns1.example.net.', to: 'ns1.example.org.' },
      'example.com',
    )
    expect(changed.apexNs).toBe(true)
    expect(zoneSafety('Example.COM', base, base.replace('ns1.example.net.', 'ns9.example.org.')).apexNs).toBe(true)
    expect(
      zoneSafety('example.com', zone('ns sub.example.com. ns1.x.net.'), zone('ns sub.example.com. ns2.x.net.')).apexNs,
    ).toBe(false)
  })
})

describe('add and remove', () => {
  it('adds a record once: a zone that has it (host in another case) has nothing to change', () => {
    const r = applyBulkChange(zone('a WWW 192.0.2.1', ''), { kind: 'add', type: 'a', host: 'www', value: '192.0.2.1' })
    expect(r.empty).toBe(true)
    expect(r.alreadyThere).toBe(true)
    const mx = applyBulkChange(zone('a www 192.0.2.1'), {
      kind: 'add',
      type: 'mx',
      host: '@',
      value: 'mail.example.net. 20',
      parts: { priority: '20', target: 'mail.example.net.' },
    })
    expect(mx.records).toBe(zone('a www 192.0.2.1', 'mx mail.example.net. 20'))
  })

  it('removes the records matching every criterion given, hosts without case', () => {
    const t = zone('a www 192.0.2.1', 'a WWW 192.0.2.2', 'aaaa www 2001:db8::1', 'a api 192.0.2.1')
    expect(applyBulkChange(t, { kind: 'remove', host: 'Www', type: 'a' }).records).toBe(
      zone('aaaa www 2001:db8::1', 'a api 192.0.2.1'),
    )
    expect(applyBulkChange(t, { kind: 'remove', value: '192.0.2.1' }).records).toBe(
      zone('a WWW 192.0.2.2', 'aaaa www 2001:db8::1'),
    )
    // A value is compared whole: 192.0.2.1 does not match 192.0.2.10.
    expect(applyBulkChange(zone('a www 192.0.2.10'), { kind: 'remove', value: '192.0.2.1' }).empty).toBe(true)
    // No criterion at all removes nothing (and the form says why).
    expect(applyBulkChange(t, { kind: 'remove' }).empty).toBe(true)
    expect(checkChange({ kind: 'remove', value: ' ' })).toEqual([{ code: 'bulkDns.removeCriteria', field: 'type' }])
  })

  it('the empty host is the apex', () => {
    expect(hostKey('')).toBe('@')
    expect(hostKey(' @ ')).toBe('@')
    expect(hostKey('WWW')).toBe('www')
    expect(
      applyBulkChange(zone('txt @ hello', 'txt www hello'), { kind: 'remove', host: '', value: 'hello' }).records,
    ).toBe('txt www hello')
    expect(
      applyBulkChange(zone('txt @ hello', 'txt www hello'), { kind: 'remove', host: '@', value: 'hello' }).records,
    ).toBe('txt www hello')
  })
})

describe('checking a change before any zone is read', () => {
  it('needs both values, different ones, and a value that fits the type given', () => {
    expect(checkChange({ kind: 'replace', from: ' ', to: '' }).map((i) => i.code)).toEqual([
      'bulkDns.fromRequired',
      'bulkDns.toRequired',
    ])
    expect(checkChange({ kind: 'replace', from: '192.0.2.1', to: ' 192.0.2.1 ' }).map((i) => i.code)).toEqual([
      'bulkDns.sameValue',
    ])
    expect(
      checkChange({ kind: 'replace', from: '2001:DB8::1', to: '2001:db8::1', type: 'aaaa' }).map((i) => i.code),
    ).toEqual(['bulkDns.sameValue'])
    expect(checkChange({ kind: 'replace', from: '192.0.2.1', to: 'web', type: 'a' })).toEqual([
      { code: 'dns.a.value', params: { value: 'web' }, field: 'to' },
    ])
    expect(checkChange({ kind: 'replace', from: '192.0.2.1', to: '198.51.100.1', type: 'a' })).toEqual([])
  })

  it('checks an added record as the editor does', () => {
    expect(checkChange({ kind: 'add', type: 'a', host: 'bad host', value: '192.0.2.1' }).map((i) => i.code)).toEqual([
      'dns.host.invalid',
    ])
    expect(
      checkChange({
        kind: 'add',
        type: 'mx',
        host: '@',
        value: 'mail.example.net.',
        parts: { priority: '', target: 'mail.example.net.' },
      }),
    ).toEqual([{ code: 'dns.mx.priority', field: 'priority' }])
    expect(checkChange({ kind: 'add', type: 'a', host: '', value: '192.0.2.1' })).toEqual([])
    // An IDN host is a name as its punycode, as in the editor and in the zone's own check.
    expect(checkChange({ kind: 'add', type: 'a', host: 'bücher', value: '192.0.2.1' })).toEqual([])
    expect(checkChange({ kind: 'add', type: 'a', host: 'bü cher', value: '192.0.2.1' }).map((i) => i.code)).toEqual([
      'dns.host.invalid',
    ])
  })

  it('compares values per type', () => {
    expect(valueKey('aaaa', '2001:DB8::A')).toBe(valueKey('aaaa', '2001:db8::a'))
    expect(valueKey('mx', '10 mail.example.com.')).toBe(valueKey('mx', 'mail.example.com. 10'))
    expect(valueKey('txt', '"Hello"')).not.toBe(valueKey('txt', 'hello'))
  })
})

describe('the health of each zone after a bulk change', () => {
  it('carries the findings of the zone as it would be, the ones the change introduces first; none when nothing changes', () => {
    const zone = [
      'a @ 192.0.2.1',
      'txt @ "v=spf1 -all"',
      'cname www @',
      'txt mail "v=spf1 -all"',
      'txt mail "v=spf1 ~all"',
    ].join('\n')
    const added = applyBulkChange(
      zone,
      { kind: 'add', type: 'txt', host: '@', value: '"v=spf1 include:_spf.example.net -all"' },
      'example.com',
    )
    expect(added.health.map((f) => [f.rule, f.record.host, f.introduced === true])).toEqual([
      ['spf.multiple', '@', true],
      ['spf.multiple', '@', true],
      ['spf.multiple', 'mail', false],
      ['spf.multiple', 'mail', false],
    ])
    expect(
      applyBulkChange(zone, { kind: 'replace', from: '198.51.100.7', to: '198.51.100.8' }, 'example.com').health,
    ).toEqual([])
  })
})
