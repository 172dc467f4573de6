/**
 * The parts of a record's value, as the table's fields hold them: MX priority and mail server
 * (in either order, saved in the service's), SRV priority, weight, port and target, CAA flags,
 * tag and value; and each problem named with the field it is about.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { englishCode } from '../helpers/english'
import { rawRow } from '../helpers/dns-rows'
import { editRecord, joinValue, parse, placeLine, serialise, splitValue, type RecordRow } from '@shared/dns/records'
import { fieldIssues, validateRows, warnRows } from '@shared/dns/validate'

const rec = (type: RecordRow['type'], host: string, value: string): RecordRow => ({ kind: 'record', type, host, value })

describe('MX: priority and mail server', () => {
  it('reads the service’s order and the usual zone-file order alike', () => {
    expect(splitValue('mx', 'mail.example.com. 10')).toEqual({ priority: '10', target: 'mail.example.com.' })
    expect(splitValue('mx', '10 mail.example.com.')).toEqual({ priority: '10', target: 'mail.example.com.' })
  })

  it('writes the service’s order: mail server, then priority', () => {
    expect(joinValue('mx', { priority: '10', target: 'mail.example.com.' })).toBe('mail.example.com. 10')
  })

  it('tells a line written priority first that the priority goes after the server, and mends it in one click', () => {
    const rows = parse('mx 10 mail.example.com.\nmx mail.example.com. 30')
    expect(validateRows(rows).map((i) => [i.index, i.code, i.fix])).toEqual([[0, 'dns.mx.order', 'place']])
    expect(englishCode('dns.mx.order', validateRows(rows)[0]!.params)).toMatch(
      /^The priority goes after the mail server/,
    )
    const placed = placeLine(rawRow(rows[0]))
    expect(placed && serialise([placed])).toBe('mx mail.example.com. 10')
  })

  it('refuses an MX line typed with a host (the form has none) but keeps one the service already holds', () => {
    const rows = parse('mx @ mail.example.com. 10\nmx www mail.example.com. 10')
    expect(validateRows(rows).map((i) => [i.code, i.fix])).toEqual([
      ['dns.mx.withHost', 'place'],
      ['dns.mx.withHost', undefined],
    ])
    const kept = new Set(['mx @ mail.example.com. 10', 'mx www mail.example.com. 10'])
    expect(validateRows(rows, { kept })).toEqual([])
    expect(warnRows(rows, { kept }).map((w) => [w.code, w.fix])).toEqual([
      ['dns.unplacedKept', 'place'],
      ['dns.unplacedKept', undefined],
    ])
  })

  it('says an MX for a subdomain cannot be written, on the host field', () => {
    expect(validateRows([rec('mx', 'www', 'mail.example.com. 10')]).map((i) => [i.code, i.field])).toEqual([
      ['dns.mx.apexOnly', 'host'],
    ])
    expect(
      validateRows([rec('mx', '@', 'mail.example.com. 10'), rec('mx', '@', '@ 10'), rec('mx', '@', 'mail 5')]),
    ).toEqual([])
  })

  it('names the field that is wrong', () => {
    expect(fieldIssues('mx', '@', { priority: '', target: 'mail.example.com.' })).toEqual([
      { code: 'dns.mx.priority', field: 'priority' },
    ])
    expect(fieldIssues('mx', '@', { priority: '70000', target: 'mail server' }).map((i) => i.field)).toEqual([
      'priority',
      'target',
    ])
  })
})

describe('SRV: priority, weight, port, target', () => {
  it('splits and joins by position', () => {
    expect(splitValue('srv', '10 5 5060 sip.example.com.')).toEqual({
      priority: '10',
      weight: '5',
      port: '5060',
      target: 'sip.example.com.',
    })
    expect(joinValue('srv', { priority: '10', weight: '5', port: '5060', target: 'sip.example.com.' })).toBe(
      '10 5 5060 sip.example.com.',
    )
  })

  it('names each field that is wrong, and the host', () => {
    const issues = fieldIssues('srv', 'sip', { priority: '10', weight: '', port: '99999', target: 'sip.example.com.' })
    expect(issues.map((i) => [i.field, englishCode(i.code, i.params)])).toEqual([
      ['host', expect.stringMatching(/^An SRV host looks like _service._tcp/)],
      ['weight', expect.stringMatching(/^An SRV weight is a whole number from 0 to 65535/)],
      ['port', 'An SRV port is a number from 0 to 65535, such as 5060.'],
    ])
    expect(fieldIssues('srv', '_sip._tcp', { priority: '0', weight: '0', port: '0', target: '.' })).toEqual([])
  })

  it('checks the parts as typed when a field in the middle is still empty', () => {
    // "10 5060" alone would read as weight 5060 and no port.
    const parts = { priority: '10', weight: '', port: '5060', target: 'sip.example.com.' }
    const typed = editRecord(rec('srv', '_sip._tcp', ''), { value: joinValue('srv', parts), parts })
    expect(typed.value).toBe('10 5060 sip.example.com.')
    expect(validateRows([typed]).map((i) => i.field)).toEqual(['weight'])
    // Once the type changes, the parts typed for SRV no longer apply.
    expect(editRecord(typed, { type: 'txt' }).parts).toBeUndefined()
  })
})

describe('CAA: flags, tag, value', () => {
  it('shows the value without its quotation marks and writes it with them', () => {
    expect(splitValue('caa', '0 issue "letsencrypt.org"')).toEqual({
      flags: '0',
      tag: 'issue',
      value: 'letsencrypt.org',
    })
    expect(splitValue('caa', '0 iodef mailto:sec@example.com')).toEqual({
      flags: '0',
      tag: 'iodef',
      value: 'mailto:sec@example.com',
    })
    expect(joinValue('caa', { flags: '0', tag: 'issue', value: 'letsencrypt.org' })).toBe('0 issue "letsencrypt.org"')
    expect(joinValue('caa', { flags: '128', tag: 'issue', value: 'ca.example; account=1' })).toBe(
      '128 issue "ca.example; account=1"',
    )
  })

  it('gives back any value it was given, through its fields', () => {
    const part = fc
      .stringMatching(/^[a-z0-9.;=:@ -]{1,20}$/)
      .map((s) => s.trim())
      .filter((s) => s.length > 0)
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom('issue', 'issuewild', 'iodef'),
        part,
        (flags, tag, value) => {
          const joined = joinValue('caa', { flags: String(flags), tag, value })
          expect(splitValue('caa', joined)).toEqual({ flags: String(flags), tag, value })
        },
      ),
    )
  })

  it('names each field that is wrong', () => {
    expect(
      fieldIssues('caa', '@', { flags: '300', tag: 'issue', value: 'letsencrypt.org' }).map((i) => i.field),
    ).toEqual(['flags'])
    expect(fieldIssues('caa', '@', { flags: '0', tag: 'bogus', value: '' }).map((i) => i.code)).toEqual([
      'dns.caa.tag',
      'dns.caa.content',
    ])
  })
})

describe('one-part types', () => {
  it('have one field, value, and their problems are about it', () => {
    expect(splitValue('txt', 'v=spf1 -all')).toEqual({ value: 'v=spf1 -all' })
    expect(validateRows(parse('a www 192.0.2.300\ntxt @ "open'))).toEqual([
      { index: 0, code: 'dns.a.value', params: { value: '192.0.2.300' }, field: 'value' },
      { index: 1, code: 'dns.txt.quote', field: 'value' },
    ])
  })
})

describe('hosts', () => {
  it('takes an IDN host as its punycode, and refuses one with a character a name cannot hold instead of reading part of it', () => {
    const issues = (host: string) =>
      validateRows([{ kind: 'record', type: 'a', host, value: '192.0.2.1' }]).map((i) => i.code)
    expect(issues('bücher')).toEqual([])
    expect(issues('www.Bücher')).toEqual([])
    // URL would read these as another host (`x`, or `bü` without its port), or throw.
    for (const host of ['bü/x', 'bü@x', 'bü:80', 'bü cher', 'ｂü／x'])
      expect(issues(host)).toEqual(['dns.host.invalid'])
  })
})
