import { describe, expect, it } from 'vitest'
import {
  dnsSettingSchema,
  dnssecSchema,
  dynamicDnsSchema,
  serverResourceSchema,
  serverSchema,
  svcipOneOrManySchema,
} from '@shared/endpoints/decoders'
import { endpoints } from '@shared/endpoints/table'

describe('tolerant decoding of what the service answers', () => {
  it('ttl as a string (GET) or a number (after PUT)', () => {
    const base = { domainid: 1, domainname: 'a.com', ns_type: 'svc1', records: 'a @ 192.0.2.1' }
    expect(dnsSettingSchema.parse({ ...base, ttl: '3600' }).ttl).toBe(3600)
    expect(dnsSettingSchema.parse({ ...base, ttl: 300 }).ttl).toBe(300)
    expect(dnsSettingSchema.parse({ ...base, ttl: '' }).ttl).toBeUndefined()
    expect(dnsSettingSchema.safeParse({ ...base, ttl: 'soon' }).success).toBe(false)
  })

  it('ids and flags as numbers or numeric strings', () => {
    const s = serverSchema.parse({
      webid: 123,
      webname: 'w',
      paid: 1,
      starttime: '2024-01-01',
      expirationdate: '2025-01-01',
      autorenew: '1',
      plan: 'S',
    })
    expect(s.webid).toBe('123')
    expect(s.autorenew).toBe(1)
    expect(s.paid).toBe('1')
    expect(
      dynamicDnsSchema.parse({ domainid: '7', domainname: 'a.com', dynamicdns: '1', password: 'x' }),
    ).toMatchObject({ domainid: 7, dynamicdns: 1 })
  })

  it('unknown members (the live service echoes a request member) are dropped', () => {
    const s = serverSchema.parse({ webid: '1', webname: 'w', request: { path: '/x' }, surprise: true })
    expect(s).not.toHaveProperty('request')
    expect(s).not.toHaveProperty('surprise')
  })

  it('ds_records: one object in responses, an array, or nothing', () => {
    const r = { keytag: '12345', alg: 13, digesttype: '2', digest: 'AB' }
    expect(dnssecSchema.parse({ domainid: 1, domainname: 'a.com', ds_records: r }).ds_records).toEqual([
      { keytag: 12345, alg: 13, digesttype: 2, digest: 'AB' },
    ])
    expect(dnssecSchema.parse({ domainid: 1, domainname: 'a.com', ds_records: [r, r] }).ds_records).toHaveLength(2)
    expect(dnssecSchema.parse({ domainid: 1, domainname: 'a.com', ds_records: {} }).ds_records).toEqual([])
    expect(dnssecSchema.parse({ domainid: 1, domainname: 'a.com' }).ds_records).toEqual([])
  })

  it('resource allocations are "default" or a number', () => {
    const r = serverResourceSchema.parse({ webid: '1', webname: 'w', disk_quota: 'default', db_num: '20', ftp_num: 3 })
    expect(r.disk_quota).toBe('default')
    expect(r.db_num).toBe(20)
    expect(r.ftp_num).toBe(3)
    // After a change only the changed field comes back.
    expect(endpoints['servers.resource.set'].result.parse({ webid: '1', webname: 'w', db_num: 30 })).toMatchObject({
      db_num: 30,
    })
  })

  it('svcip registration answers one object or an array; both become an array', () => {
    const v = {
      vipid: '9',
      vipname: 'v',
      webname: 'w',
      domainname: '',
      paid: '0',
      starttime: '',
      expirationdate: '',
      region: 'JP',
    }
    expect(svcipOneOrManySchema.parse(v)).toHaveLength(1)
    expect(svcipOneOrManySchema.parse([v, v])).toHaveLength(2)
  })
})
