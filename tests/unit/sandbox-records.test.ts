/**
 * The sandbox's model of the service's records text, written from the service's record syntax
 * and the recordings: it takes what the service takes (duplicates, comments, any MX shape of
 * three words or more) and rewrites only as a test turns on.
 */
import { describe, expect, it } from 'vitest'
import { keptRecords, keptTtl, refusedRecords } from '../../src/sandbox/records'
import { defaultBehaviour } from '../../src/sandbox/behaviour'
import { recording } from '../helpers/live-fixtures'

describe('the service’s records text', () => {
  it('takes every recorded zone as it is, duplicates included', () => {
    for (const file of ['zone-save-echo.json', 'zone-duplicates.json']) {
      for (const x of recording(file).exchanges) {
        const records = x.request.body?.records
        if (typeof records === 'string') {
          expect(refusedRecords(records), file).toBeUndefined()
          expect(keptRecords(records, defaultBehaviour()), file).toBe(records)
        }
      }
    }
  })

  it('takes the documented forms, MX as the syntax page writes it, comments and blank lines', () => {
    expect(
      refusedRecords(
        'mx mail.example.com. 10\nmx @ 10\n# note\n\nsrv _smtp._tcp 1 2 25 server1.example.com\naaaa ipv6 FF01::101',
      ),
    ).toBeUndefined()
  })

  it('refuses an unknown type or a line without a value, naming the line', () => {
    expect(refusedRecords('a www 192.0.2.1\nbogus line here')).toBe('Unknown record type "bogus" on line 2.')
    expect(refusedRecords('a www')).toBe('Malformed record on line 1: expected "type host value".')
  })

  it('drops comments, groups lines by type and raises a small TTL only when told to', () => {
    const b = { ...defaultBehaviour(), dropComments: true, reorderLines: true, minTtl: 120 }
    expect(keptRecords('txt @ x\n# c\na www 192.0.2.1\ntxt www y\nmx mail 10', b)).toBe(
      'a www 192.0.2.1\nmx mail 10\ntxt @ x\ntxt www y',
    )
    expect(keptTtl(60, b)).toBe(3600)
    expect(keptTtl(120, b)).toBe(120)
    expect(keptTtl(60, defaultBehaviour())).toBe(60)
  })
})
