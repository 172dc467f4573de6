import { describe, expect, it } from 'vitest'
import { englishCode } from '../helpers/english'
import { fromBind, toBind } from '../../src/shared/dns/bind'
import { parse, recordKey, records } from '../../src/shared/dns/records'

describe('BIND zone files', () => {
  it('exports the common types and imports them back to the same records', () => {
    const rows = parse(
      [
        'a @ 192.0.2.1',
        'a www 192.0.2.2',
        'aaaa @ 2001:db8::1',
        'mx mail.example.com. 10',
        'txt @ v=spf1 include:_spf.example.com -all',
        'cname docs docs.example.net.',
        'srv _sip._tcp 10 5 5060 sip.example.com.',
        'caa @ 0 issue "letsencrypt.org"',
        'ns sub ns1.other.example.',
        '# a comment',
        'loc @ 52 22 N',
      ].join('\n'),
    )
    const out = toBind(rows, 'example.com', 600)
    expect(out.text).toContain('$ORIGIN example.com.\n$TTL 600\n')
    expect(out.text).toContain('@ IN MX 10 mail.example.com.')
    expect(out.text).toContain('@ IN TXT "v=spf1 include:_spf.example.com -all"')
    expect(out.report.map((n) => englishCode(n.code, n.params))).toEqual(['Not exported (not understood): loc @ 52 22 N'])
    const back = fromBind(out.text, 'example.com')
    expect(back.ttl).toBe(600)
    expect(back.report).toEqual([])
    expect(back.rows.map(recordKey).sort()).toEqual(records(rows).map(recordKey).sort())
  })

  it('imports a typical zone file, and reports what it could not convert', () => {
    const zone = `$TTL 3600
$ORIGIN example.org.
@   IN SOA ns1.example.org. admin.example.org. (
        2024010101 ; serial
        7200 3600 1209600 3600 )
@        IN  NS    ns1.example.org.
@   300  IN  A     192.0.2.10
www          A     192.0.2.11      ; no class, no TTL
         IN  AAAA  2001:db8::11
mail.example.org. IN A 192.0.2.12
@        IN  MX    20 mail.example.org.
@        IN  TXT   "v=spf1 " "-all"
other.example.net. IN A 192.0.2.99
@        IN  HINFO "PC" "Linux"
$INCLUDE other.zone
`
    const r = fromBind(zone, 'example.org')
    expect(r.ttl).toBe(3600)
    expect(r.rows.map((x) => `${x.type} ${x.host} ${x.value}`)).toEqual([
      'ns @ ns1.example.org.',
      'a @ 192.0.2.10',
      'a www 192.0.2.11',
      'aaaa www 2001:db8::11',
      'a mail 192.0.2.12',
      'mx @ mail.example.org. 20',
      'txt @ v=spf1 -all',
    ])
    expect(r.report.map((n) => englishCode(n.code, n.params))).toEqual([
      'The SOA record is managed by the service; not imported.',
      'Outside the zone example.org, not imported: other.example.net. IN A 192.0.2.99',
      'Record type HINFO is not supported; not imported: @        IN  HINFO "PC" "Linux"',
      'Directive not supported: $INCLUDE other.zone',
    ])
  })
})
