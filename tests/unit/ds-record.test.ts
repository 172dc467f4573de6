/** DS records by name, and whole DS lines read into their fields. */
import { describe, expect, it } from 'vitest'
import {
  algorithm,
  digestType,
  DNSSEC_ALGORITHMS,
  parseDsLine,
  parseDsLines,
} from '../../src/renderer/src/lib/data/ds-record'
import { checkDsRecord } from '@shared/service/validation'

const D256 = '49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE3C5A0A9F0B7B6D5E4C3B2A19'

describe('names of algorithms and digest types', () => {
  it('has RFC 8624’s numbers and names', () => {
    expect(algorithm(8)?.name).toBe('RSASHA256')
    expect(algorithm(13)?.name).toBe('ECDSAP256SHA256')
    expect(algorithm(14)?.name).toBe('ECDSAP384SHA384')
    expect(algorithm(15)?.name).toBe('ED25519')
    expect(algorithm(16)?.name).toBe('ED448')
    expect(algorithm(5)?.advice).toBe('not-recommended')
    expect(algorithm(1)?.advice).toBe('must-not')
    expect(digestType(1)).toEqual({ n: 1, name: 'SHA-1', advice: 'must-not' })
    expect(digestType(2)?.name).toBe('SHA-256')
    expect(digestType(4)?.name).toBe('SHA-384')
    expect(new Set(DNSSEC_ALGORITHMS.map((a) => a.n)).size).toBe(DNSSEC_ALGORITHMS.length)
  })
})

describe('a whole DS line', () => {
  it('reads the four fields, as the service takes them', () => {
    const r = parseDsLine(`12345 13 2 ${D256}`)
    expect(r).toEqual({ keytag: 12345, alg: 13, digesttype: 2, digest: D256 })
    expect(checkDsRecord(r!)).toBeUndefined()
  })

  it('reads a whole resource record, an algorithm mnemonic, a digest in groups, a comment', () => {
    expect(
      parseDsLine(`example.com. 3600 IN DS 2371 ECDSAP256SHA256 2 ${D256.slice(0, 32)} ${D256.slice(32)} ; KSK`),
    ).toEqual({
      keytag: 2371,
      alg: 13,
      digesttype: 2,
      digest: D256,
    })
    expect(parseDsLine(`example.com. IN ds 60485 5 1 ( 2BB183AF5F22588179A53B0A98631FAD1A292118 )`)).toEqual({
      keytag: 60485,
      alg: 5,
      digesttype: 1,
      digest: '2BB183AF5F22588179A53B0A98631FAD1A292118',
    })
  })

  it('is not a DS line without all four fields, or with text where a number or hex goes', () => {
    for (const line of [
      '',
      '12345 13 2',
      '12345 13 two ABCD',
      'abc 13 2 ABCD',
      '12345 13 2 XYZ',
      'example.com. IN A 192.0.2.1',
    ]) {
      expect(parseDsLine(line), line).toBeUndefined()
    }
  })

  it('several lines, one of them in parentheses over several lines, are several records; one bad line refuses all', () => {
    const text = `a.com. IN DS 1 8 2 ${D256}\n\n; the SHA-384 one\na.com. IN DS 1 8 4 (\n  ${'AB'.repeat(24)}\n  ${'CD'.repeat(24)} )\n`
    expect(parseDsLines(text)).toEqual([
      { keytag: 1, alg: 8, digesttype: 2, digest: D256 },
      { keytag: 1, alg: 8, digesttype: 4, digest: 'AB'.repeat(24) + 'CD'.repeat(24) },
    ])
    expect(parseDsLines(`${text}\nnot a record`)).toBeUndefined()
    expect(parseDsLines('\n \n')).toBeUndefined()
  })
})
