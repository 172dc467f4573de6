import fc from 'fast-check'
import { englishCode } from '../helpers/english'
import { recordRow } from '../helpers/dns-rows'
import { describe, expect, it } from 'vitest'
import { editRecord, parse, recordKey, records, serialise, type Row } from '@shared/dns/records'
import { applyPlan, isEmptyPlan, plan } from '@shared/dns/plan'
import { validateRows, warnRows } from '@shared/dns/validate'
import { match } from '../helpers/matchers'

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/)
const host = fc.oneof(
  fc.constant('@'),
  fc.constant('*'),
  label,
  fc.tuple(label, label).map(([a, b]) => `${a}.${b}`),
)
const octet = fc.integer({ min: 0, max: 255 })
const ipv4 = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'))
const fqdn = fc.tuple(label, label).map(([a, b]) => `${a}.${b}.example.`)
const recordLine = fc.oneof(
  fc.tuple(host, ipv4).map(([h, ip]) => `a ${h} ${ip}`),
  fc.tuple(host, fc.integer({ min: 1, max: 0xffff })).map(([h, n]) => `aaaa ${h} 2001:db8::${n.toString(16)}`),
  fc.tuple(host, fqdn, fc.integer({ min: 0, max: 100 })).map(([h, t, p]) => `mx ${h} ${t} ${p}`),
  fc.tuple(fqdn, fc.integer({ min: 0, max: 100 })).map(([t, p]) => `mx ${t} ${p}`),
  fc
    .tuple(
      host,
      fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !s.includes('\n') && s.trim() === s && s.length > 0),
    )
    .map(([h, v]) => `txt ${h} ${v}`),
  fc.tuple(label, fqdn).map(([h, t]) => `cname ${h} ${t}`),
)
const otherLine = fc.oneof(
  fc.constant(''),
  fc.constant('# a comment'),
  fc.constant('; zone note'),
  fc.constant('loc @ 52 22 23.000 N 4 53 32.000 E'),
  fc.constant('  a   spaced   192.0.2.1  '),
  fc.constant('a www 192.0.2.1\r'),
)
const zone = fc
  .array(fc.oneof({ weight: 4, arbitrary: recordLine }, { weight: 1, arbitrary: otherLine }), { maxLength: 60 })
  .map((l) => l.join('\n'))

describe('records model', () => {
  it('round-trips any text exactly, even text it does not understand', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => serialise(parse(text)) === text),
      { numRuns: 2000 },
    )
  })

  it('round-trips generated zones exactly, and understands their records', () => {
    fc.assert(
      fc.property(zone, (text) => {
        const rows = parse(text)
        expect(serialise(rows)).toBe(text)
        // An MX with a host (`mx www mail.example. 10`) is not the service's form: it stays a raw line.
        const understood = text
          .split('\n')
          .filter((l) => /^(a|aaaa|txt|cname)\s/.test(l.trim()) || /^mx \S+ \d+$/.test(l.trim())).length
        expect(records(rows).length).toBe(understood)
      }),
      { numRuns: 500 },
    )
  })

  it('keeps lines it does not understand as raw rows', () => {
    const rows = parse('a www 192.0.2.1\nloc @ 52 22 N\n# note\n\nsrv _sip._tcp 10 5 5060 sip.example.com.')
    expect(rows.map((r) => r.kind)).toEqual(['record', 'raw', 'raw', 'raw', 'record'])
    expect(rows[1]).toEqual({ kind: 'raw', text: 'loc @ 52 22 N', reason: 'unknown' })
  })

  it('reads "mx <server> <priority>" as a record at the apex, and "mx @ 10" as the domain its own mail server', () => {
    const [mx, self] = parse('mx mail.example.com. 10\nmx @ 10').map(recordRow)
    expect(mx).toMatchObject({ type: 'mx', host: '@', value: 'mail.example.com. 10' })
    expect(self).toMatchObject({ type: 'mx', host: '@', value: '@ 10' })
  })

  it('keeps an MX line the service’s form cannot place byte for byte, marked with what is wrong', () => {
    const rows = parse('mx 10 mail.example.com.\nmx @ mail.example.com. 10\nmx  www mail.example.com. 10 \nmx a b c d')
    expect(rows).toEqual([
      { kind: 'raw', text: 'mx 10 mail.example.com.', reason: 'unplaced', unplaced: 'mx.priorityFirst' },
      { kind: 'raw', text: 'mx @ mail.example.com. 10', reason: 'unplaced', unplaced: 'mx.withHost' },
      { kind: 'raw', text: 'mx  www mail.example.com. 10 ', reason: 'unplaced', unplaced: 'mx.withHost' },
      { kind: 'raw', text: 'mx a b c d', reason: 'unplaced', unplaced: 'mx.shape' },
    ])
    expect(serialise(rows)).toBe(
      'mx 10 mail.example.com.\nmx @ mail.example.com. 10\nmx  www mail.example.com. 10 \nmx a b c d',
    )
  })

  it('writes a new or edited MX in the service’s form', () => {
    expect(serialise([{ kind: 'record', type: 'mx', host: '@', value: 'mail.example.com. 10' }])).toBe(
      'mx mail.example.com. 10',
    )
    const [mx] = parse('mx  mail.example.com.   10').map(recordRow)
    expect(serialise([editRecord(mx!, { value: 'mx2.example.com. 20' })])).toBe('mx mx2.example.com. 20')
  })

  it('writes an edited row canonically and leaves the others as they were', () => {
    const rows = parse('A   www   192.0.2.1\ntxt @ v=spf1 -all')
    const edited: Row[] = [editRecord(recordRow(rows[0]), { value: '192.0.2.2' }), rows[1]!]
    expect(serialise(edited)).toBe('a www 192.0.2.2\ntxt @ v=spf1 -all')
    expect(editRecord(recordRow(rows[1]), { value: 'v=spf1 -all' })).toBe(rows[1])
  })
})

describe('plan', () => {
  it('applying the plan to the old records gives the new records', () => {
    fc.assert(
      fc.property(zone, zone, (a, b) => {
        const before = parse(a)
        const after = parse(b)
        const result = applyPlan(records(before), plan(before, after)).map(recordKey).sort()
        expect(result).toEqual(records(after).map(recordKey).sort())
      }),
      { numRuns: 500 },
    )
  })

  it('is empty for the same records in another order, and names added, removed and changed rows', () => {
    expect(isEmptyPlan(plan(parse('a www 192.0.2.1\na @ 192.0.2.2'), parse('a @ 192.0.2.2\na www 192.0.2.1')))).toBe(
      true,
    )
    const p = plan(
      parse('a www 192.0.2.1\ntxt @ old\ncname docs d.example.com.\n# note'),
      parse('a www 192.0.2.9\ntxt @ old\nmx mail.example.com. 10'),
    )
    expect(p.changed).toEqual([
      { from: match.objectContaining({ value: '192.0.2.1' }), to: match.objectContaining({ value: '192.0.2.9' }) },
    ])
    expect(p.removed.map((r) => r.type)).toEqual(['cname'])
    expect(p.added.map((r) => r.type)).toEqual(['mx'])
    expect(p.rawRemoved).toEqual(['# note'])
  })
})

describe('validation', () => {
  const issuesOf = (text: string) =>
    validateRows(parse(text)).map((i) => `${i.index}: ${englishCode(i.code, i.params)}`)

  it('accepts a good zone', () => {
    expect(
      issuesOf(
        'a @ 192.0.2.1\naaaa @ 2001:db8::1\na * 192.0.2.2\nmx mail.example.com. 10\ntxt @ "v=spf1 -all"\ncname docs docs.example.com.\nsrv _sip._tcp 10 5 5060 sip.example.com.\ncaa @ 0 issue "letsencrypt.org"\nloc @ whatever',
      ),
    ).toEqual([])
  })

  it('explains each problem', () => {
    const issues = issuesOf(
      'a www 192.0.2.300\naaaa @ 12345\nmx @ mail.example.com.\ncname @ x.example.com.\ntxt @ "open\na b$d 192.0.2.1\nsrv sip 10 5 5060 x.example.com.',
    )
    expect(issues).toEqual([
      expect.stringMatching(/^0: An A record needs an IPv4 address/),
      expect.stringMatching(/^1: An AAAA record needs an IPv6 address/),
      expect.stringMatching(/^2: “mx @ mail.example.com.” is not the service’s MX form/),
      expect.stringMatching(/^3: A CNAME cannot be at the apex/),
      expect.stringMatching(/^4: The TXT value has an unmatched quotation mark/),
      expect.stringMatching(/^5: “b\$d” is not a valid host/),
      expect.stringMatching(/^6: An SRV host looks like _service._tcp/),
      expect.stringMatching(/^3: “@” has a CNAME and other records/),
    ])
  })

  it('finds a CNAME beside other records; a duplicate is not an error (the service stores it)', () => {
    expect(issuesOf('a www 192.0.2.1\na www 192.0.2.1')).toEqual([])
    // Recorded: the service stored and served the same CNAME line twice.
    expect(issuesOf('cname docs docs.example.com.\ncname docs docs.example.com.')).toEqual([])
    expect(issuesOf('cname www w.example.com.\na www 192.0.2.1')).toEqual([
      expect.stringMatching(/^0: “www” has a CNAME and other records/),
    ])
  })
})

describe('warnings before the plan', () => {
  const warningsOf = (text: string) => warnRows(parse(text)).map((i) => `${i.index}: ${englishCode(i.code, i.params)}`)

  it('warns about a second SPF record at the same host, quoted or not, and not about one per host', () => {
    expect(
      warningsOf(
        'txt @ v=spf1 include:_spf.example.com -all\ntxt www v=spf1 -all\ntxt @ "v=spf1 mx -all"\ntxt @ google-site-verification=abc',
      ),
    ).toEqual(['2: More than one SPF record at this name (2)'])
    expect(warningsOf('txt @ v=spf1 -all\ntxt @ v=spf10 -all\ntxt mail v=spf1 a -all')).toEqual([])
  })

  it('warns about a duplicate with a one-click removal, for every copy after the first', () => {
    const warnings = warnRows(
      parse(
        'txt _acme-challenge.test token\ncname docs docs.example.com.\ntxt _acme-challenge.test token\ncname docs docs.example.com.',
      ),
    )
    expect(warnings.map((w) => [w.index, w.code, w.fix])).toEqual([
      [2, 'dns.duplicate', 'remove'],
      [3, 'dns.duplicate', 'remove'],
    ])
    expect(warningsOf('a www 192.0.2.1\na www 192.0.2.1')[0]).toMatch(/^1: The same record as row 1\./)
  })

  it('warns when an MX mail server has dots but no final dot: the service appends the zone', () => {
    expect(warningsOf('mx smtp.google.com 1\nmx mail 10\nmx mail.example.com. 20\nmx @ 30')).toEqual([
      '0: “smtp.google.com” has no final dot, so the service adds the domain to it (mail would go to smtp.google.com.<your domain>). Write “smtp.google.com.” if it is the full name.',
    ])
  })

  it('keeps warnings apart from errors: the service stores two SPF records, so a save may go on', () => {
    expect(validateRows(parse('txt @ v=spf1 -all\ntxt @ v=spf1 mx -all'))).toEqual([])
  })

  it('reports a CNAME beside another record, or a second CNAME, at its host', () => {
    expect(issuesOfRows('cname www a.example.com.\ncname WWW b.example.com.\ncname docs d.example.com.')).toEqual([
      '0: “www” has a CNAME and other records; a CNAME must be the only record at its host.',
      '1: “WWW” has a CNAME and other records; a CNAME must be the only record at its host.',
    ])
    expect(issuesOfRows('a www 192.0.2.1\ncname www w.example.com.\ntxt www x')).toEqual([
      '1: “www” has a CNAME and other records; a CNAME must be the only record at its host.',
    ])
  })
})

function issuesOfRows(text: string): string[] {
  return validateRows(parse(text)).map((i) => `${i.index}: ${englishCode(i.code, i.params)}`)
}
