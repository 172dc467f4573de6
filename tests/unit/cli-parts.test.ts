/** The command line's pure parts: durations, the nameserver address map, and one TXT line added and removed byte for byte. */
import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { withLine, withoutLine } from '../../src/cli/acme'
import { hostNameOf, isValidationValue, validationOfKeyAuthorization } from '../../src/cli/acme-input'
import { durationMs } from '../../src/cli/main'
import { addressMapOf } from '../../src/cli/propagation'
import { dataDirOf } from '../../src/cli/data-dir'

describe('durations as scripts write them', () => {
  it.each([
    ['90s', 90_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['30d', 2_592_000_000],
    ['500ms', 500],
    ['45', 45_000],
  ])('%s is %i ms', (text, ms) => expect(durationMs(text)).toBe(ms))
  it.each(['', 'soon', '5 m', '-1s', '1y'])('"%s" is refused', (text) => expect(durationMs(text)).toBeUndefined())
})

describe('nameserver addresses given by name', () => {
  it('maps names case-insensitively without the final dot; a name may have several addresses', () => {
    const map = addressMapOf(
      'NS1.Example.NET.=127.0.0.1:5300, ns2.example.net=127.0.0.1:5301,ns2.example.net=::1,broken,=x',
    )
    expect([...map]).toEqual([
      ['ns1.example.net', ['127.0.0.1:5300']],
      ['ns2.example.net', ['127.0.0.1:5301', '::1']],
    ])
    expect(addressMapOf(undefined).size).toBe(0)
  })
})

describe('one TXT line in a zone', () => {
  it.each([
    ['a @ 192.0.2.1\ntxt @ v=spf1 -all', 'with no final newline'],
    ['a @ 192.0.2.1\n', 'with a final newline'],
    ['', 'empty'],
    ['txt _acme-challenge x\na @ 192.0.2.1', 'holding the same line already'],
  ])('is added at the end and removed leaving the zone byte for byte (%j, %s)', (records) => {
    const line = 'txt _acme-challenge x'
    const added = withLine(records, line)
    expect(added.split('\n').filter((l) => l === line).length).toBe(
      records.split('\n').filter((l) => l === line).length + 1,
    )
    expect(withoutLine(added, line)).toBe(records)
  })
  it('is not removed when the zone does not hold it', () =>
    expect(withoutLine('a @ 192.0.2.1', 'txt _acme-challenge x')).toBeUndefined())
})

describe('the data folder', () => {
  it('is the flag, else HOSTING_ADMIN_DATA_DIR, else the platform’s application data folder', () => {
    expect(dataDirOf('/d', { HOSTING_ADMIN_DATA_DIR: '/e' }, 'linux')).toBe('/d')
    expect(dataDirOf(undefined, { HOSTING_ADMIN_DATA_DIR: '/e' }, 'linux')).toBe('/e')
    expect(dataDirOf(undefined, { XDG_CONFIG_HOME: '/nonexistent-config' }, 'linux')).toBe(
      '/nonexistent-config/Hosting Admin',
    )
    expect(dataDirOf(undefined, { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toMatch(
      /Roaming.Hosting Admin$/,
    )
  })
})

describe('what the ACME hooks accept (acme-input)', () => {
  it('a host name: labels of letters, digits, hyphens and underscores; lower-cased, its final dot dropped', () => {
    expect(hostNameOf('_acme-challenge.WWW.Example.COM.')).toBe('_acme-challenge.www.example.com')
    for (const bad of [
      'example.com\ntxt @ x',
      'a b.example.com',
      '-a.example.com',
      'a-.example.com',
      'a..example.com',
      'com',
      '',
      '.',
      `${'a'.repeat(64)}.example.com`,
      'bücher.example',
      '*.example.com',
      'example.com\t',
    ]) {
      expect(hostNameOf(bad), JSON.stringify(bad)).toBeUndefined()
    }
    expect(hostNameOf(`${'a'.repeat(63)}.example.com`)).toBeDefined()
  })

  it('a validation value: 43 characters of base64url, nothing else', () => {
    const value = createHash('sha256').update('x').digest('base64url')
    expect(value).toHaveLength(43)
    expect(isValidationValue(value)).toBe(true)
    for (const bad of [
      `${value}\n`,
      `${value}=`,
      value.slice(1),
      `${value.slice(1)}+`,
      `${value.slice(0, 20)}\ntxt @ x`,
    ])
      expect(isValidationValue(bad)).toBe(false)
  })

  it('lego’s raw mode: the value of a key authorization of the token given, as lego computes it', () => {
    const token = 'evaGxfADs6pSRb2LAv9IZf17Dt3juxGJ-PCt92wr-oA'
    const keyAuthorization = `${token}.9jg46WB3rR_AHD-EBXdN7cBkH1WOu0tA3M9fm21mqTI`
    expect(validationOfKeyAuthorization(token, keyAuthorization)).toBe(
      createHash('sha256').update(keyAuthorization).digest('base64url'),
    )
    expect(validationOfKeyAuthorization('other', keyAuthorization)).toBeUndefined()
    expect(validationOfKeyAuthorization(token, `${token}.short`)).toBeUndefined()
    expect(
      validationOfKeyAuthorization(`${token}\n`, `${token}\n.9jg46WB3rR_AHD-EBXdN7cBkH1WOu0tA3M9fm21mqTI`),
    ).toBeUndefined()
  })
})
