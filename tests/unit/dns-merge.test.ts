/** Keep both (issue 53 point 6): a colleague's zone save and my edit, merged when they touch different records. */
import { describe, expect, it } from 'vitest'
import { mergeZoneVersions } from '@shared/dns/merge'
import { serialise } from '@shared/dns/records'

const base = ['a @ 192.0.2.1', 'mx mail.example.com. 10', 'txt @ v=spf1 -all', 'cname www @'].join('\n')

describe('mergeZoneVersions', () => {
  it('my changes applied over theirs when they touch different records', () => {
    const theirs = `${base}\ntxt bob hello`
    const mine =
      base.replace('a @ 192.0.2.1', 'a @ 192.0.2.9').replace('\ncname www @', '') + '\n# mine\na api 192.0.2.5'
    const m = mergeZoneVersions(
      { records: base, ttl: 3600 },
      { records: theirs, ttl: 3600 },
      { records: mine, ttl: 3600 },
    )
    expect(m).toBeDefined()
    const lines = serialise(m!.rows).split('\n')
    expect(lines).toEqual(
      expect.arrayContaining([
        'a @ 192.0.2.9',
        'txt bob hello',
        'mx mail.example.com. 10',
        'a api 192.0.2.5',
        '# mine',
      ]),
    )
    expect(lines).not.toContain('a @ 192.0.2.1')
    expect(lines).not.toContain('cname www @')
    expect(m!.ttl).toBe(3600)
  })

  it('none when both touch one type and host, or one raw line', () => {
    const theirs = base.replace('txt @ v=spf1 -all', 'txt @ v=spf1 mx -all')
    const mine = `${base}\ntxt @ google-site-verification=x`
    expect(
      mergeZoneVersions({ records: base, ttl: 3600 }, { records: theirs, ttl: 3600 }, { records: mine, ttl: 3600 }),
    ).toBeUndefined()
  })

  it('the TTL of the side that changed it; none when both changed it differently', () => {
    const theirs = `${base}\ntxt bob hello`
    const mine = `${base}\ntxt alice hi`
    expect(
      mergeZoneVersions({ records: base, ttl: 3600 }, { records: theirs, ttl: 300 }, { records: mine, ttl: 3600 })?.ttl,
    ).toBe(300)
    expect(
      mergeZoneVersions({ records: base, ttl: 3600 }, { records: theirs, ttl: 300 }, { records: mine, ttl: 600 }),
    ).toBeUndefined()
  })
})
