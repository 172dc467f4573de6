/**
 * The offline health rules, each on a zone that breaks it and on the same zone mended: the
 * finding, its record and its parameters, and that a plan lists the findings it introduces first.
 */
import { describe, expect, it } from 'vitest'
import { indexZone, planHealthOffline, zoneFindings, type HealthRule } from '@shared/dns/health/rules'
import { parse } from '@shared/dns/records'
import { healthText } from '@shared/i18n/health-text'
import { texts } from '../../src/cli/text'

const zone = 'example.com'
const found = (lines: string[]) => zoneFindings(indexZone(parse(lines.join('\n')), zone))
const rules = (lines: string[]) => found(lines).map((f) => f.rule)
const only = (lines: string[], rule: HealthRule) => found(lines).filter((f) => f.rule === rule)

describe('zone health rules (offline)', () => {
  it('spf.multiple: two SPF records at one name, each named; one is fine; TXT that is not SPF does not count', () => {
    const two = only(
      ['txt @ v=spf1 -all', 'txt @ "v=spf1 include:_spf.example.net ~all"', 'txt www v=spf1 -all'],
      'spf.multiple',
    )
    expect(two.map((f) => f.record.value)).toEqual(['v=spf1 -all', '"v=spf1 include:_spf.example.net ~all"'])
    expect(two[0]?.params).toEqual({ count: 2 })
    expect(rules(['txt @ v=spf1 -all', 'txt @ google-site-verification=abc'])).toEqual([])
  })

  it('spf.syntax: unknown mechanisms, bad addresses, a modifier twice; valid records pass', () => {
    expect(only(['txt @ v=spf1 ip4:192.0.2.300 -all'], 'spf.syntax')[0]?.params).toEqual({
      problem: 'spfAddress',
      part: 'ip4:192.0.2.300',
    })
    expect(only(['txt @ v=spf1 inclde:example.net -all'], 'spf.syntax')[0]?.params).toEqual({
      problem: 'spfUnknownMechanism',
      part: 'inclde:example.net',
    })
    expect(only(['txt @ v=spf1 redirect=a.example redirect=b.example'], 'spf.syntax')[0]?.params).toMatchObject({
      problem: 'spfModifierTwice',
    })
    expect(only(['txt @ v=spf1 include: -all'], 'spf.syntax')[0]?.params).toMatchObject({ problem: 'spfTerm' })
    expect(
      rules([
        'txt @ "v=spf1 a mx/24 ip4:192.0.2.0/24 ip6:2001:db8::/32 include:_spf.example.net exists:%{i}.x.example ?all"',
      ]),
    ).toEqual([])
  })

  it('dmarc.syntax: version, policy, ranges, report addresses; a good record passes', () => {
    expect(only(['txt _dmarc "v=DMARC1; p=block"'], 'dmarc.syntax')[0]?.params).toEqual({
      problem: 'dmarcPolicy',
      part: 'p=block',
    })
    expect(only(['txt _dmarc "p=none; v=DMARC1"'], 'dmarc.syntax')[0]?.params).toMatchObject({
      problem: 'dmarcVersion',
    })
    expect(only(['txt _dmarc "v=DMARC1; rua=mailto:d@example.com"'], 'dmarc.syntax')[0]?.params).toMatchObject({
      problem: 'dmarcPolicyMissing',
    })
    expect(only(['txt _dmarc "v=DMARC1; p=none; pct=150"'], 'dmarc.syntax')[0]?.params).toEqual({
      problem: 'dmarcValue',
      part: 'pct=150',
    })
    expect(only(['txt _dmarc "v=DMARC1; p=none; rua=d@example.com"'], 'dmarc.syntax')[0]?.params).toMatchObject({
      problem: 'dmarcAddress',
    })
    expect(
      rules([
        'txt _dmarc "v=DMARC1; p=quarantine; sp=reject; pct=50; rua=mailto:d@example.com,mailto:e@example.net!10m; adkim=s"',
      ]),
    ).toEqual([])
  })

  it('dkim.syntax: a key that is not base64, an unknown key type, no key; revoked (empty p=) passes', () => {
    expect(only(['txt s1._domainkey "v=DKIM1; k=rsa; p=MIGf@@"'], 'dkim.syntax')[0]?.params).toEqual({
      problem: 'dkimKey',
      part: 'p',
    })
    expect(only(['txt s1._domainkey "v=DKIM1; k=dsa; p=MIGf"'], 'dkim.syntax')[0]?.params).toMatchObject({
      problem: 'dkimKeyType',
    })
    expect(only(['txt s1._domainkey "v=DKIM1; k=rsa"'], 'dkim.syntax')[0]?.params).toMatchObject({
      problem: 'dkimKeyMissing',
    })
    expect(
      rules([
        'txt s1._domainkey "v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC+"',
        'txt old._domainkey "v=DKIM1; p="',
      ]),
    ).toEqual([])
  })

  it('cname.beside and cname.apex', () => {
    expect(only(['cname www web.example.net.', 'txt www hello'], 'cname.beside')[0]).toMatchObject({
      record: { type: 'cname', host: 'www' },
      params: { count: 1 },
    })
    // The same name written full is the same name.
    expect(rules(['cname www web.example.net.', 'a www.example.com. 192.0.2.1'])).toContain('cname.beside')
    expect(rules(['cname @ web.example.net.'])).toEqual(['cname.apex'])
    // An MX belongs to the apex in the service's form, so a CNAME at www beside it is fine.
    expect(rules(['cname www web.example.net.', 'mx mail.example.net. 10', 'a @ 192.0.2.1'])).toEqual([])
  })

  it('mx.cname and ns.cname for targets inside the zone', () => {
    expect(only(['mx mail 10', 'cname mail mx.example.net.'], 'mx.cname')[0]?.params).toEqual({
      target: 'mail.example.com',
    })
    expect(only(['ns sub ns1.example.com.', 'cname ns1 real.example.net.'], 'ns.cname')[0]?.params).toEqual({
      target: 'ns1.example.com',
    })
    expect(rules(['mx mail 10', 'a mail 192.0.2.25'])).toEqual([])
  })

  it('caa.syntax: flags, tags, issuers, iodef; good records pass', () => {
    expect(only(['caa @ 300 issue "letsencrypt.org"'], 'caa.syntax')[0]?.params).toMatchObject({ problem: 'caaFlags' })
    expect(only(['caa @ 0 issuer "letsencrypt.org"'], 'caa.syntax')[0]?.params).toMatchObject({ problem: 'caaTag' })
    expect(only(['caa @ 0 issue "lets encrypt"'], 'caa.syntax')[0]?.params).toMatchObject({ problem: 'caaIssuer' })
    expect(only(['caa @ 0 iodef "security@example.com"'], 'caa.syntax')[0]?.params).toMatchObject({
      problem: 'caaIodef',
    })
    expect(
      rules([
        'caa @ 0 issue "letsencrypt.org"',
        'caa @ 0 issuewild ";"',
        'caa @ 128 iodef "mailto:sec@example.com"',
        'caa @ 0 issue "pki.goog; cansignhttpexchanges=yes"',
      ]),
    ).toEqual([])
  })

  it('a plan lists what the save introduces first, then what the zone already had', () => {
    const before = parse(['txt @ v=spf1 -all', 'txt @ v=spf1 ~all', 'a www 192.0.2.1'].join('\n'))
    const after = parse(
      ['txt @ v=spf1 -all', 'txt @ v=spf1 ~all', 'a www 192.0.2.1', 'cname @ web.example.net.'].join('\n'),
    )
    const findings = planHealthOffline(before, after, zone)
    expect(findings.map((f) => [f.rule, f.introduced])).toEqual([
      ['cname.apex', true],
      ['cname.beside', true],
      ['spf.multiple', false],
      ['spf.multiple', false],
    ])
  })

  it('every finding is worded in English and Japanese, with its why and its fix', () => {
    const f = only(['txt @ v=spf1 ip4:192.0.2.300 -all'], 'spf.syntax')[0]!
    const en = healthText({ tCode: texts('en').code }, f)
    expect(en.title).toBe('The SPF record does not parse: an address that is not valid “ip4:192.0.2.300”')
    expect(en.fix).toMatch(/RFC 7208/)
    const ja = healthText({ tCode: texts('ja').code }, f)
    expect(ja.title).toBe('SPF レコードを解釈できません: 正しくないアドレス「ip4:192.0.2.300」')
  })

  it('the findings of a 5,000-record zone are all found (grouped by name, not pairwise)', () => {
    const lines = Array.from({ length: 5000 }, (_, i) =>
      i % 50 === 0 ? `cname h${i} x.example.net.` : `a h${i - (i % 50)} 192.0.2.${i % 250}`,
    )
    expect(only(lines, 'cname.beside')).toHaveLength(100)
  })
})
