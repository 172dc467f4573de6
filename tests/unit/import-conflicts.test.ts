import { describe, expect, it } from 'vitest'
import { chooseSide, importConflicts, mergeKeepingExisting } from '@shared/dns/import-conflicts'
import { parse, records, serialise, type RecordRow } from '@shared/dns/records'

const zone = parse(['a @ 192.0.2.1', 'a www 192.0.2.1', 'txt @ "v=spf1 -all"'].join('\n'))
const file: RecordRow[] = [
  { kind: 'record', type: 'a', host: '@', value: '198.51.100.7' },
  { kind: 'record', type: 'cname', host: 'www', value: 'example.com.' },
  { kind: 'record', type: 'txt', host: '@', value: '"google-site-verification=x"' },
  { kind: 'record', type: 'a', host: 'ftp', value: '192.0.2.9' },
]

describe('a BIND file merged into a zone', () => {
  it('holds apart a CNAME beside other records and another apex address; an added TXT or a new name merges', () => {
    const conflicts = importConflicts(zone, file)
    expect(conflicts.map((c) => c.host)).toEqual(['@', 'www'])
    expect(conflicts[0]!.existing.map((r) => r.value)).toEqual(['192.0.2.1'])
    const merged = mergeKeepingExisting(zone, file, conflicts)
    expect(merged.added.map((r) => r.host)).toEqual(['@', 'ftp'])
    expect(records(merged.rows).filter((r) => r.type === 'a' && r.host === '@')).toHaveLength(1)
  })

  it('takes the imported side of one name, and back', () => {
    const conflicts = importConflicts(zone, file)
    const merged = mergeKeepingExisting(zone, file, conflicts).rows
    const www = conflicts[1]!
    const taken = chooseSide(merged, www, 'imported')
    expect(
      records(taken)
        .filter((r) => r.host === 'www')
        .map((r) => `${r.type} ${r.value}`),
    ).toEqual(['cname example.com.'])
    const back = chooseSide(taken, www, 'existing')
    expect(
      records(back)
        .filter((r) => r.host === 'www')
        .map((r) => `${r.type} ${r.value}`),
    ).toEqual(['a 192.0.2.1'])
    expect(serialise(chooseSide(merged, conflicts[0]!, 'imported'))).toContain('a @ 198.51.100.7')
    expect(serialise(chooseSide(merged, conflicts[0]!, 'imported'))).not.toContain('a @ 192.0.2.1')
  })

  it('sees no conflict where the file says what the zone says', () => {
    expect(importConflicts(zone, [{ kind: 'record', type: 'a', host: 'WWW', value: '192.0.2.1' }])).toEqual([])
  })
})
