import { describe, expect, it } from 'vitest'
import { englishCode } from '../helpers/english'
import { fromBind, toBind } from '@shared/dns/bind'
import { mergeRecords, parse, recordKey, records, serialise } from '@shared/dns/records'

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
    expect(out.report.map((n) => englishCode(n.code, n.params))).toEqual([
      'Not exported (not understood): loc @ 52 22 N',
    ])
    const back = fromBind(out.text, 'example.com')
    expect(back.ttl).toBe(600)
    // The SOA written in front is the service's: read back, it is reported, never imported.
    expect(back.report.map((n) => n.code)).toEqual(['bind.soa'])
    expect(back.rows.map(recordKey).sort()).toEqual(records(rows).map(recordKey).sort())
    // A line BIND cannot express comes back as it was.
    expect(back.kept.map((r) => (r.kind === 'raw' ? r.text : ''))).toEqual(['# a comment', 'loc @ 52 22 N'])
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
    const r = fromBind(zone, 'example.org', { nameservers: ['NS1.example.org'] })
    expect(r.ttl).toBe(3600)
    // The apex NS is the domain's nameservers: compared and reported (last), never imported as a record.
    expect(r.rows.map((x) => `${x.type} ${x.host} ${x.value}`)).toEqual([
      'a @ 192.0.2.10',
      'a www 192.0.2.11',
      'aaaa www 2001:db8::11',
      'a mail 192.0.2.12',
      'mx @ mail.example.org. 20',
      'txt @ v=spf1 -all',
    ])
    expect(r.report.map((n) => englishCode(n.code, n.params))).toEqual([
      'The SOA record is managed by the service; not imported.',
      'TTL 300 differs from the zone’s TTL 3600; the service keeps one TTL for the whole zone, so this record gets 3600: @   300  IN  A     192.0.2.10',
      'Outside the zone example.org, not imported: other.example.net. IN A 192.0.2.99',
      'Record type HINFO is not supported; not imported: @        IN  HINFO "PC" "Linux"',
      'Directive not supported: $INCLUDE other.zone',
      'The file’s apex NS records (ns1.example.org) are the domain’s nameservers; they are set apart from the records and not imported.',
    ])
  })

  const lines = (rows: { type: string; host: string; value: string }[]) =>
    rows.map((x) => `${x.type} ${x.host} ${x.value}`)

  it('expands relative names against the domain, and against $ORIGIN where the file sets one', () => {
    const r = fromBind(
      [
        'www IN CNAME @',
        '@ IN MX 10 mail',
        'mail IN A 192.0.2.25',
        '_sip._tcp IN SRV 10 5 5060 sip',
        'sub IN NS ns1.sub',
      ].join('\n'),
      'example.com',
    )
    expect(r.report).toEqual([])
    expect(lines(r.rows)).toEqual([
      'cname www example.com.',
      'mx @ mail.example.com. 10',
      'a mail 192.0.2.25',
      'srv _sip._tcp 10 5 5060 sip.example.com.',
      'ns sub ns1.sub.example.com.',
    ])
    const withOrigin = fromBind(
      [
        '$ORIGIN lab.example.com.',
        'www IN CNAME @',
        '@ IN MX 10 mail',
        'api IN CNAME other.example.net.',
        '$ORIGIN example.com.',
        '@ IN A 192.0.2.1',
      ].join('\n'),
      'example.com',
    )
    // The service's MX form has no host: an MX for lab.example.com is reported, not imported.
    expect(withOrigin.report.map((n) => englishCode(n.code, n.params))).toEqual([
      'Not imported: an MX for “lab”. The service’s MX form has no host (an MX is always for the domain itself): @ IN MX 10 mail',
    ])
    expect(lines(withOrigin.rows)).toEqual([
      'cname www.lab lab.example.com.',
      'cname api.lab other.example.net.',
      'a @ 192.0.2.1',
    ])
  })

  it('imports an MX in the service’s form, the domain itself as its own mail server included', () => {
    const r = fromBind(['@ IN MX 10 mail.example.net.', '@ IN MX 20 @', '@ IN MX 30 backup'].join('\n'), 'example.com')
    expect(serialise(r.rows)).toBe('mx mail.example.net. 10\nmx example.com. 20\nmx backup.example.com. 30')
  })

  it('writes a TXT value over 255 bytes as several quoted strings of at most 255, and joins them on import', () => {
    // The service serves a one-line 408-character DKIM key as two strings.
    const prefix = 'v=DKIM1; k=rsa; p='
    const key = `${prefix}${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A'.repeat(12)}`.padEnd(408, 'Q')
    expect(key).toHaveLength(408)
    const out = toBind(parse(`txt default._domainkey ${key}`), 'example.com')
    const line = out.text.split('\n').find((l) => l.startsWith('default._domainkey'))!
    const strings = line.match(/"[^"]*"/g)!
    expect(strings.map((s) => s.length - 2)).toEqual([255, 153])
    expect(strings.join('').replace(/"/g, '')).toBe(key)
    expect(serialise(fromBind(out.text, 'example.com').rows)).toBe(`txt default._domainkey ${key}`)
    // A short value is one string, as before; quotation marks inside a long one are escaped per piece.
    expect(toBind(parse('txt @ v=spf1 -all'), 'example.com').text).toContain('@ IN TXT "v=spf1 -all"')
    const quotedLong = toBind(parse(`txt @ say "${'a'.repeat(300)}"`), 'example.com').text
    expect(fromBind(quotedLong, 'example.com').rows[0]!.value).toBe(`say "${'a'.repeat(300)}"`)
  })

  it('reports a record TTL that differs from the zone’s one TTL, with units, and takes the zone TTL from $TTL or the first record', () => {
    const r = fromBind(
      ['$TTL 1h', '@ IN A 192.0.2.1', 'www 300 IN A 192.0.2.2', 'api 3600 IN A 192.0.2.3'].join('\n'),
      'example.com',
    )
    expect(r.ttl).toBe(3600)
    expect(r.rows).toHaveLength(3)
    expect(r.report.map((n) => englishCode(n.code, n.params))).toEqual([
      'TTL 300 differs from the zone’s TTL 3600; the service keeps one TTL for the whole zone, so this record gets 3600: www 300 IN A 192.0.2.2',
    ])
    // No $TTL: the first record's TTL is the zone's, and a record without one has the last stated.
    const noDefault = fromBind(
      ['@ 600 IN A 192.0.2.1', 'www IN A 192.0.2.2', 'api 60 IN A 192.0.2.3', 'ftp IN A 192.0.2.4'].join('\n'),
      'example.com',
    )
    expect(noDefault.ttl).toBe(600)
    expect(noDefault.report.map((n) => n.params?.line)).toEqual(['api 60 IN A 192.0.2.3', 'ftp IN A 192.0.2.4'])
  })

  it('compares record TTLs with the zone’s own TTL when merging into it', () => {
    const r = fromBind(['$TTL 300', 'www IN A 192.0.2.2'].join('\n'), 'example.com', { zoneTtl: 3600 })
    expect(r.ttl).toBe(3600)
    expect(r.report.map((n) => n.code)).toEqual(['bind.ttlDiffers'])
    expect(r.report[0]?.params).toMatchObject({ ttl: 300, zoneTtl: 3600 })
  })

  it('merges: adds only records not already there (compared without case or quotation marks), keeps every existing line', () => {
    const existing = parse('# ours\na @ 192.0.2.1\ntxt @ "v=spf1 -all"\nmx Mail.Example.com. 10\n')
    const incoming = fromBind(
      [
        '@ IN A 192.0.2.1',
        '@ IN TXT "v=spf1 -all"',
        '@ IN MX 10 mail.example.com.',
        'www IN A 192.0.2.2',
        'www IN A 192.0.2.2',
      ].join('\n'),
      'example.com',
    ).rows
    const m = mergeRecords(existing, incoming)
    expect(lines(m.added)).toEqual(['a www 192.0.2.2'])
    expect(m.skipped).toHaveLength(4)
    // The loaded text is unchanged, the new record comes after the last record, before the final newline.
    expect(serialise(m.rows)).toBe(
      '# ours\na @ 192.0.2.1\ntxt @ "v=spf1 -all"\nmx Mail.Example.com. 10\na www 192.0.2.2\n',
    )
  })
})
