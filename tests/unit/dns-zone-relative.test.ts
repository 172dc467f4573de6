/**
 * Issue 52, point 3: names relative to the zone as the zone holds them. `@` and single labels in
 * CNAME, NS, PTR and SRV targets are names a zone reads within itself (BIND reads them so, and the
 * service takes them): never refused, warned of when new (the service documents that reading for
 * MX only), and never rewritten. A line the zone already holds is never an error of its own check.
 */
import { describe, expect, it } from 'vitest'
import { englishCode } from '../helpers/english'
import { formatOf, readZoneFile } from '../../src/cli/zone-file'
import { fromBind, toBind } from '@shared/dns/bind'
import { isEmptyPlan, plan } from '@shared/dns/plan'
import { parse } from '@shared/dns/records'
import { inServiceSpelling } from '@shared/dns/service-spelling'
import { validateRows, warnRows } from '@shared/dns/validate'
import { texts } from '../../src/cli/text'

const ja = texts('ja')
const held = (text: string) => new Set(text.split('\n'))
const errorsOf = (text: string, kept?: string) =>
  validateRows(parse(text), { kept: kept === undefined ? undefined : held(kept) }).map((i) => `${i.index}: ${i.code}`)
const warningsOf = (text: string, kept?: string) =>
  warnRows(parse(text), { kept: kept === undefined ? undefined : held(kept) }).map(
    (i) => `${i.index}: ${englishCode(i.code, i.params)}`,
  )

const RELATIVE = [
  'cname shop @',
  'cname x www',
  'srv _xmpp-server._tcp 5 0 5269 xmpp',
  'ns dept ns1',
  'ptr 32 host',
  'ns sub @',
  'ptr 20 @',
  'srv _sip._udp 10 5 5060 @',
].join('\n')

describe('zone-relative targets', () => {
  it('are not errors, held or new', () => {
    expect(errorsOf(RELATIVE)).toEqual([])
    expect(errorsOf(RELATIVE, RELATIVE)).toEqual([])
  })

  it('are warned of when new, in English and Japanese, with the field they are in; not when the zone holds them', () => {
    expect(warningsOf(RELATIVE)).toEqual([
      '0: The CNAME target “@” is your domain itself as a zone file reads it, but the service documents “@” as a target for MX only, not how it reads it in a CNAME record. Write your domain in full with its final dot (such as example.com.) to be sure.',
      '1: The CNAME target “www” is www.<your domain> as a zone file reads it, but the service does not document how it reads a name without a dot in a CNAME record. Write the full name with its final dot (www.<your domain>.) to be sure.',
      expect.stringMatching(/^2: The SRV target “xmpp” is /),
      expect.stringMatching(/^3: The NS target “ns1” is /),
      expect.stringMatching(/^4: The PTR target “host” is /),
      expect.stringMatching(/^5: The NS target “@” is /),
      expect.stringMatching(/^6: The PTR target “@” is /),
      expect.stringMatching(/^7: The SRV target “@” is /),
    ])
    expect(warnRows(parse('srv _xmpp._tcp 5 0 5269 xmpp\ncname x www')).map((w) => w.field)).toEqual([
      'target',
      'value',
    ])
    const [apex, label] = warnRows(parse('cname shop @\ncname x www'))
    expect(apex && ja.code(apex.code, apex.params)).toMatch(
      /^CNAME のターゲット「@」は、ゾーンファイルではドメイン自身と読まれますが/,
    )
    expect(label && ja.code(label.code, label.params)).toMatch(
      /^CNAME のターゲット「www」は、ゾーンファイルでは www.<ドメイン> と読まれますが/,
    )
    expect(warningsOf(RELATIVE, RELATIVE)).toEqual([])
  })

  it('leaves full names, a single dot and MX (whose `@` the service documents) without the warning', () => {
    expect(
      warningsOf('cname a www.example.com.\ncname b www.\nsrv _x._tcp 0 0 0 .\nmx @ 10\nns sub ns1.example.net.'),
    ).toEqual([])
  })

  it('still refuses a target that is no name at all', () => {
    expect(errorsOf('cname x -bad-\nns sub a..b\nsrv _x._tcp 1 1 1 x!y\nptr 1 @@')).toEqual([
      '0: dns.cname.value',
      '1: dns.hostValue',
      '2: dns.srv.target',
      '3: dns.hostValue',
    ])
  })
})

describe('a line the zone already holds', () => {
  const odd = [
    'a www. 192.0.2.41',
    'a bad 999.0.0.1',
    'srv _sip._tcp 10 5060 sip.example.net.',
    'txt @ "unbalanced',
    'cname beside www.example.net.',
    'a beside 192.0.2.53',
    'mx 10 mail.example.net.',
    'txt',
  ].join('\n')

  it('is never an error of a check against the zone itself; typed anew it is', () => {
    expect(errorsOf(odd)).toEqual([
      '0: dns.host.invalid',
      '1: dns.a.value',
      '2: dns.srv.port',
      '2: dns.srv.target',
      '3: dns.txt.quote',
      '6: dns.mx.order',
      '7: dns.valueMissing',
      '4: dns.cname.exclusive',
    ])
    expect(errorsOf(odd, odd)).toEqual([])
  })

  it('is kept with a warning where the app would not write it so', () => {
    expect(warningsOf(odd, odd)).toEqual([
      '0: The service holds “a www. 192.0.2.41”, which is not in a form it documents; it is kept exactly as it is.',
      '1: The service holds “a bad 999.0.0.1”, which is not in a form it documents; it is kept exactly as it is.',
      '2: The service holds “srv _sip._tcp 10 5060 sip.example.net.”, which is not in a form it documents; it is kept exactly as it is.',
      '3: The service holds “txt @ "unbalanced”, which is not in a form it documents; it is kept exactly as it is.',
      '6: The service holds “mx 10 mail.example.net.”, which is not in a form it documents; it is kept exactly as it is.',
    ])
  })

  it('is held whatever its line end: a CRLF zone against a LF file', () => {
    expect(
      errorsOf('a bad 999.0.0.1\nmx 10 mail.example.net.', 'a bad 999.0.0.1\r\nmx 10 mail.example.net.\r'),
    ).toEqual([])
  })

  it('makes a CNAME beside it an error only where a record beside it is new', () => {
    const zone = 'cname beside www.example.net.\na beside 192.0.2.53'
    expect(errorsOf(zone, zone)).toEqual([])
    expect(errorsOf(`${zone}\ntxt beside new`, zone)).toEqual(['0: dns.cname.exclusive'])
  })
})

describe('the BIND export of such a zone', () => {
  const zone = [
    'a @ 192.0.2.10',
    'a www 192.0.2.10',
    'cname shop @',
    'cname x www',
    'srv _xmpp-server._tcp 5 0 5269 xmpp',
    'a www. 192.0.2.41',
    'a bad 999.0.0.1',
    'cname beside www.example.net.',
    'a beside 192.0.2.53',
    '  # indented  ',
  ].join('\n')

  it('writes relative names as the zone holds them, and what BIND would refuse as comments an import reads back', () => {
    const out = toBind(parse(zone), 'example.com', 3600)
    expect(out.text).toContain('shop IN CNAME @\nx IN CNAME www\n_xmpp-server._tcp IN SRV 5 0 5269 xmpp\n')
    expect(out.text).toContain(
      '; service line: a www. 192.0.2.41\n; service line: a bad 999.0.0.1\n; service line: cname beside www.example.net.\nbeside IN A 192.0.2.53\n',
    )
    expect(out.report.map((n) => englishCode(n.code, n.params))).toEqual([
      'Kept as a comment, as the service holds it (BIND would refuse it as a record; an import reads it back): a www. 192.0.2.41',
      'Kept as a comment, as the service holds it (BIND would refuse it as a record; an import reads it back): a bad 999.0.0.1',
      'Kept as a comment, as the service holds it (BIND would refuse it as a record; an import reads it back): cname beside www.example.net.',
    ])
    expect(ja.code(out.report[0]?.code ?? 'bind.soa', out.report[0]?.params)).toContain('コメントとして残しました')
    const back = fromBind(out.text, 'example.com')
    const rows = inServiceSpelling([...back.rows, ...back.kept], parse(zone), 'example.com')
    expect(isEmptyPlan(plan(parse(zone), rows))).toBe(true)
    // Each line is the live zone's own, the indented comment's space included.
    expect(rows.map((r) => (r.kind === 'raw' ? r.text : r.source)).sort()).toEqual(zone.split('\n').sort())
  })
})

describe('a zone read back from its own export', () => {
  it('is records when a host is named like a type (`a mx ...` could be BIND too)', () => {
    expect(formatOf('a @ 192.0.2.1\na mx 192.0.2.2\nmx mx 10')).toBe('records')
    expect(formatOf('a mx 192.0.2.2')).toBe('unsure')
  })

  it('has the same lines, held with CRLF line ends and read from a LF file', () => {
    const live = 'a @ 192.0.2.60\r\n# saved from a form\r\ncname shop @\r\nmx 10 mail.example.net.\r\ntxt @ v=spf1 -all'
    const file = live.replace(/\r/g, '')
    for (const format of ['records', 'bind'] as const) {
      const text = format === 'records' ? file : toBind(parse(live), 'example.com', 3600).text
      const back = readZoneFile(text, 'example.com', format, { records: live, ttl: 3600 })
      expect({ format, issues: back.issues, empty: isEmptyPlan(plan(parse(live), back.rows)) }).toEqual({
        format,
        issues: [],
        empty: true,
      })
    }
  })
})
