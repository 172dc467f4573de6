/** The shared domain-name rule, and the renderer's name lists built on it. */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { checkDomainName, DOMAIN_NAME_CODES, normalDomainName } from '@shared/service/validation'
import { parseNames, sortNames, splitName } from '../../src/renderer/src/lib/data/domain-names'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'

describe('the domain-name rule', () => {
  it('accepts names with a TLD, any case, a final dot, xn-- labels and second-level TLDs', () => {
    for (const name of [
      'example.com',
      'Example.COM',
      'example.com.',
      'my-shop.co.jp',
      'a.jp',
      'xn--wgv71a119e.jp',
      'example.xn--p1ai',
      `${'a'.repeat(63)}.com`,
    ]) {
      expect(checkDomainName(name), name).toBeUndefined()
    }
  })

  it('says what is wrong, with what it is about', () => {
    expect(checkDomainName('  ')).toEqual({ code: 'domainName.empty' })
    expect(checkDomainName('nodot')).toEqual({ code: 'domainName.noTld', params: { name: 'nodot' } })
    expect(checkDomainName('not_a_name')).toEqual({ code: 'domainName.characters', params: { chars: '_' } })
    expect(checkDomainName('a b!.com')).toEqual({ code: 'domainName.characters', params: { chars: '  !' } })
    expect(checkDomainName('bad..com')).toEqual({ code: 'domainName.emptyLabel' })
    expect(checkDomainName('.com')).toEqual({ code: 'domainName.emptyLabel' })
    expect(checkDomainName('-start.com')).toEqual({ code: 'domainName.hyphen', params: { label: '-start' } })
    expect(checkDomainName('end-.com')).toEqual({ code: 'domainName.hyphen', params: { label: 'end-' } })
    expect(checkDomainName(`${'a'.repeat(64)}.com`)).toEqual({
      code: 'domainName.labelLength',
      params: { label: 'a'.repeat(64), length: 64 },
    })
    expect(checkDomainName(`${'abcdefghi.'.repeat(26)}com`)?.code).toBe('domainName.length')
    expect(checkDomainName('example.123')).toEqual({ code: 'domainName.tld', params: { tld: '123' } })
    expect(checkDomainName('example.c')).toEqual({ code: 'domainName.tld', params: { tld: 'c' } })
  })

  it('names in other scripts: their ASCII form is offered', () => {
    expect(checkDomainName('日本語.jp')).toEqual({ code: 'domainName.ascii', params: { ascii: 'xn--wgv71a119e.jp' } })
    // Full-width letters are the same name in ASCII.
    expect(checkDomainName('ｅｘａｍｐｌｅ.com')).toEqual({
      code: 'domainName.ascii',
      params: { ascii: 'example.com' },
    })
  })

  it('never throws, and a name it accepts is a host name of labels the registry takes', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const problem = checkDomainName(s)
        if (problem) return DOMAIN_NAME_CODES.includes(problem.code)
        const n = normalDomainName(s)
        return /^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]+)$/.test(n) && n.length <= 253
      }),
    )
  })

  it('every code has its words in English and Japanese', () => {
    for (const code of DOMAIN_NAME_CODES) {
      expect(en[code]).toBeTruthy()
      expect(ja[code]).toBeTruthy()
    }
  })
})

describe('name lists', () => {
  it('parses any mix of separators, once each, in the rule’s form', () => {
    expect(parseNames('A.com, b.net\n\na.com  C.org.')).toEqual(['a.com', 'b.net', 'c.org'])
  })

  it('sorts names into those to check and those refused with their problem', () => {
    expect(sortNames(['a.com', 'nodot', 'b_c.jp'])).toEqual({
      valid: ['a.com'],
      invalid: [
        { name: 'nodot', problem: { code: 'domainName.noTld', params: { name: 'nodot' } } },
        { name: 'b_c.jp', problem: { code: 'domainName.characters', params: { chars: '_' } } },
      ],
    })
  })

  it('splits a valid name into sld and tld, and refuses what the rule refuses', () => {
    expect(splitName(' Shop.Co.JP. ')).toEqual({ sld: 'shop', tld: 'co.jp' })
    expect(splitName('example.123')).toBeUndefined()
    expect(splitName('my_shop.com')).toBeUndefined()
  })
})
