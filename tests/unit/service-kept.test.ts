/** What the service kept against what was sent, per operation; and which auto-renewal setting is in force. */
import { describe, expect, it } from 'vitest'
import { serviceKeptFindingsOf } from '../../src/main/jobs/operations'
import { autorenewInForce } from '@shared/service/autorenew'
// The words the screens show: the renderer's English catalogue and its formatter.
import { serviceKeptText } from '@shared/i18n/service-kept-text'
import { en } from '@shared/i18n/locales/en'
import { translate, translateCode } from '@shared/i18n/translate'

const english = {
  t: (key: Parameters<typeof translate>[2], params?: Parameters<typeof translate>[3]) =>
    translate(en, 'en', key, params),
  tCode: (code: string, params?: Parameters<typeof translateCode>[3]) => translateCode(en, 'en', code, params),
}

const words = (operation: Parameters<typeof serviceKeptFindingsOf>[0], sent: unknown, kept: unknown) =>
  serviceKeptFindingsOf(operation, sent, kept).map((f) => serviceKeptText(english, f))

describe('what the service kept', () => {
  it('DNS: dropped comment lines, a raised TTL, a changed ns_type; blanks and spacing do not count', () => {
    const sent = {
      domain: 'a.com',
      ns_type: 'svc1',
      records: '# web\na  @ 192.0.2.1\n\n; mail\nmx @ mail.a.com 10\n',
      ttl: 60,
    }
    const stored = {
      domainid: 1,
      domainname: 'a.com',
      ns_type: 'svc11',
      records: 'a @ 192.0.2.1\nmx @ mail.a.com 10',
      ttl: 3600,
    }
    expect(words('domains.dns.set', sent, stored)).toEqual([
      'The service did not keep 2 comment lines.',
      'TTL 60 was stored as 3600.',
      'DNS service (ns_type): svc1 was sent; the service stored svc11.',
    ])
  })

  it('DNS: record lines lost or added are quoted, at most three of them', () => {
    const sent = { records: 'a @ 192.0.2.1\na www 192.0.2.2\na x 192.0.2.3\na y 192.0.2.4\na z 192.0.2.5' }
    const stored = { records: 'a @ 192.0.2.1\ntxt @ added-by-service' }
    expect(words('freedns.set', sent, stored)).toEqual([
      'The service did not keep 4 lines: a www 192.0.2.2 · a x 192.0.2.3 · a y 192.0.2.4',
      'The service holds 1 line that was not sent: txt @ added-by-service',
    ])
  })

  it('DNS kept as sent, with the TTL as text: nothing to say', () => {
    const records = '# kept\na @ 192.0.2.1'
    expect(
      serviceKeptFindingsOf(
        'domains.dns.set',
        { ns_type: 'svc1', records, ttl: 300 },
        { ns_type: 'svc1', records, ttl: '300' },
      ),
    ).toEqual([])
    // A TTL that was not sent is not compared.
    expect(serviceKeptFindingsOf('freedns.set', { records }, { records, ttl: 3600 })).toEqual([])
  })

  it('nameservers are a set: order, case and a trailing dot do not count; a changed list does', () => {
    expect(
      serviceKeptFindingsOf(
        'domains.nameserver.set',
        { ns: ['ns1.x.net', 'NS2.x.net.'] },
        { ns: ['ns2.x.net', 'ns1.x.net'] },
      ),
    ).toEqual([])
    expect(
      words('domains.nameserver.set', { ns: ['ns1.x.net', 'ns2.x.net'] }, { ns: ['ns1.y.net', 'ns2.y.net'] }),
    ).toEqual(['Nameservers: ns1.x.net, ns2.x.net was sent; the service stored ns1.y.net, ns2.y.net.'])
  })

  it('WHOIS: the proxy flag and each contact field that was sent', () => {
    const person = { firstname: 'Taro', lastname: 'Yamada', phone: '+81.312345678' }
    const sent = { whois_proxy: 1, contact: { registrant: person, admin: person, tech: person, billing: person } }
    const keptPerson = { ...person, phone: '+81.3-1234-5678' }
    const stored = {
      whoisproxy: '0',
      contact: { registrant: keptPerson, admin: person, tech: person, billing: person },
    }
    expect(words('domains.whois.set', sent, stored)).toEqual([
      'WHOIS privacy proxy: On was sent; the service stored Off.',
      'Registrant: Phone: +81.312345678 was sent; the service stored +81.3-1234-5678.',
    ])
    const findings = serviceKeptFindingsOf('domains.whois.set', sent, stored)
    expect(findings).toEqual([
      { code: 'serviceKept.valueChanged', params: { field: 'whoisproxy', sent: '1', kept: '0' } },
      {
        code: 'serviceKept.valueChanged',
        params: { field: 'contact.registrant.phone', sent: '+81.312345678', kept: '+81.3-1234-5678' },
      },
    ])
  })

  it('flags: auto-renewal, transfer lock, dynamic DNS; only the ones sent; a password is never quoted', () => {
    expect(
      serviceKeptFindingsOf(
        'domains.autorenew.set',
        { autorenew_domain: 1 },
        { autorenew: 1, autorenew_all: 0, autorenew_domain: 1 },
      ),
    ).toEqual([])
    expect(serviceKeptFindingsOf('servers.autorenew.set', { autorenew_server: 1 }, { autorenew_server: '0' })).toEqual([
      { code: 'serviceKept.valueChanged', params: { field: 'autorenew_server', sent: '1', kept: '0' } },
    ])
    expect(words('domains.transferlock.set', { transfer_lock: 0 }, { transfer_lock: 1, authcode: 'x' })).toEqual([
      'Transfer lock: Off was sent; the service stored On.',
    ])
    const ddns = serviceKeptFindingsOf(
      'domains.dynamicdns.set',
      { dynamicdns: 1, password: 'hunter2-secret' },
      { dynamicdns: '1', password: 'other-secret' },
    )
    expect(ddns).toEqual([{ code: 'serviceKept.passwordChanged', params: {} }])
    expect(JSON.stringify(ddns)).not.toContain('secret')
  })

  it('DNSSEC: an answer showing one of the records sent is not a loss; a record that was not sent, or none for some, is', () => {
    const ds = (keytag: number) => ({ keytag, alg: 13, digesttype: 2, digest: 'ab'.repeat(32) })
    expect(
      serviceKeptFindingsOf(
        'domains.dnssec.set',
        { ds_records: [ds(1), ds(2)] },
        { ds_records: [{ ...ds(1), digest: 'AB'.repeat(32) }] },
      ),
    ).toEqual([])
    expect(serviceKeptFindingsOf('domains.dnssec.set', { ds_records: [ds(1)] }, { ds_records: [ds(9)] })).toHaveLength(
      1,
    )
    expect(serviceKeptFindingsOf('domains.dnssec.set', { ds_records: [ds(1)] }, { ds_records: [] })).toHaveLength(1)
  })

  it('operations whose answer is not the stored setting, and answers of another shape, give nothing', () => {
    expect(
      serviceKeptFindingsOf(
        'domains.expiration.renew',
        { domain: 'a.com', years: 1 },
        { expirationdate: '2030-01-01' },
      ),
    ).toEqual([])
    expect(serviceKeptFindingsOf('domains.dns.set', { records: 'a @ 192.0.2.1' }, null)).toEqual([])
    expect(serviceKeptFindingsOf('domains.dns.set', { records: 'a @ 192.0.2.1' }, ['not', 'an', 'object'])).toEqual([])
  })
})

describe('auto-renewal in force', () => {
  it.each([
    [
      { autorenew: 1, autorenew_all: 1, own: 0 },
      { on: true, reason: 'account' },
    ],
    [
      { autorenew: 1, autorenew_all: 0, own: 1 },
      { on: true, reason: 'own' },
    ],
    [
      { autorenew: 1, autorenew_all: 1, own: 1 },
      { on: true, reason: 'both' },
    ],
    [
      { autorenew: 0, autorenew_all: 0, own: 0 },
      { on: false, reason: 'none' },
    ],
    // The case the issue saw: the list said On while both settings were Off.
    [
      { autorenew: 1, autorenew_all: 0, own: 0 },
      { on: true, reason: 'disagrees' },
    ],
    [{ autorenew: 1 }, { on: true, reason: 'reported' }],
    [
      { autorenew_all: 1, own: 0 },
      { on: true, reason: 'account' },
    ],
    [{}, { on: undefined, reason: 'unknown' }],
  ])('%j is %j', (flags, expected) => {
    expect(autorenewInForce(flags)).toEqual(expected)
  })
})
