import { describe, expect, it } from 'vitest'
import {
  ENDPOINT_NAMES,
  PAGED_ENDPOINT_NAMES,
  endpoints,
  isSafePathSegment,
  paramLocation,
  pathParamNames,
  type EndpointDef,
  type EndpointName,
} from '@shared/endpoints/table'
import { z } from 'zod'
import { parseWith } from '@shared/errors/field-issues'
import { serverRefOf } from '@shared/service/server-ref'

const defs = ENDPOINT_NAMES.map((n): readonly [EndpointName, EndpointDef] => [n, endpoints[n]])
/** The members a parameter schema names (every operation's is a z.object). */
const membersOf = (params: z.ZodType): string[] => (params instanceof z.ZodObject ? Object.keys(params.shape) : [])

describe('endpoint table rules', () => {
  it('every path parameter is a parameter of the schema', () => {
    for (const [name, def] of defs) {
      const shape = membersOf(def.params)
      for (const p of pathParamNames(def.path)) expect(shape, `${name} lacks ${p}`).toContain(p)
    }
  })

  it('reads are safe to retry; everything that changes anything is never retried', () => {
    for (const [name, def] of defs) expect(def.retry, name).toBe(def.method === 'GET' ? 'safe' : 'never')
  })

  it('an operation that asks for confirmation changes something: it is never a read', () => {
    for (const [name, def] of defs) if (def.confirm) expect(def.method, name).not.toBe('GET')
  })

  it('paged lists take limit and page', () => {
    expect(PAGED_ENDPOINT_NAMES.length).toBe(20)
    for (const n of PAGED_ENDPOINT_NAMES) {
      const shape = membersOf(endpoints[n].params)
      expect(shape).toEqual(expect.arrayContaining(['limit', 'page']))
      expect(paramLocation(endpoints[n], 'limit')).toBe('query')
    }
  })

  it('the two parameters whose location the spec leaves open are placed in one visible spot', () => {
    expect(paramLocation(endpoints['domains.expiration.renew'], 'domain')).toBe('body')
    expect(paramLocation(endpoints['domains.whois.set'], 'domain')).toBe('body')
  })

  it('validates inputs the spec bounds', () => {
    const renew = endpoints['domains.expiration.renew'].params
    for (const years of [1, 5, 9]) expect(renew.safeParse({ domain: 'a.com', years }).success).toBe(true)
    for (const years of [0, 10, 1.5, -1]) expect(renew.safeParse({ domain: 'a.com', years }).success).toBe(false)
    expect(endpoints['svcips.register'].params.safeParse({ servers: 'x', region: 'EU' }).success).toBe(false)
    // ns_type is the service's product word (issue 13): any one word goes, a word the service returned included.
    expect(
      endpoints['domains.dns.set'].params.safeParse({ domain: 'a.com', ns_type: 'svc2', records: '' }).success,
    ).toBe(true)
    for (const ns_type of ['', 'two words', '../x', 'a/b'])
      expect(
        endpoints['domains.dns.set'].params.safeParse({ domain: 'a.com', ns_type, records: '' }).success,
        ns_type,
      ).toBe(false)
    expect(
      endpoints['servers.resource.set'].params.safeParse({ kind: 'a', webid: 1, type: 'cpu', num: 1 }).success,
    ).toBe(false)
    expect(
      endpoints['domains.dnssec.set'].params.safeParse({
        domain: 'a.com',
        ds_records: [{ keytag: 70000, alg: 8, digesttype: 2, digest: 'ab' }],
      }).success,
    ).toBe(false)
  })
})

describe('a server in a path: its id or its name (issue 22)', () => {
  const serverOps = ENDPOINT_NAMES.filter((n) => pathParamNames(endpoints[n].path).includes('webid'))
  const parse = (name: (typeof serverOps)[number], webid: unknown) =>
    endpoints[name].params.safeParse({ kind: 'a', webid, months: 1, type: 'db_num', num: 1 })

  it('every server path operation takes both forms', () => {
    expect(serverOps).toHaveLength(7)
    for (const name of serverOps) {
      // An id, as a number or as digits, is the number it was.
      expect(parse(name, 42).data, name).toMatchObject({ webid: 42 })
      expect(parse(name, '42').data, name).toMatchObject({ webid: 42 })
      // A name is sent as it is: the sandbox's names, and the characters a hosting account name may hold.
      for (const webname of ['aaurora1', 'newsite1', 'web-01', 'Web_Site', 'x', '1st-server', 'a'.repeat(64)]) {
        expect(parse(name, webname).data, `${name} ${webname}`).toMatchObject({ webid: webname })
        expect(isSafePathSegment(webname), webname).toBe(true)
      }
    }
  })

  it('refuses what is neither, with a code the renderer words', () => {
    const bad = [
      '',
      ' ',
      '.',
      '..',
      '...',
      '-web',
      '_web',
      'a.b',
      'a/b',
      'a\\b',
      'a?b',
      'a#b',
      'a%2fb',
      'a b',
      'a\nb',
      'a\u0000',
      'a\u007f',
      'ウェブ',
      'a'.repeat(65),
      0,
      -1,
      1.5,
    ]
    for (const name of serverOps)
      for (const v of bad) expect(parse(name, v).success, `${name} ${JSON.stringify(v)}`).toBe(false)
    const r = parseWith(endpoints['servers.get'].params, { kind: 'a', webid: 'a/b' })
    expect(r).toEqual({ ok: false, issues: [{ path: 'webid', code: 'field.serverRef' }] })
  })

  it('a service IP stays numeric, and so does the server a service IP setting names', () => {
    expect(endpoints['svcips.get'].params.safeParse({ vipid: 'vip-one' }).success).toBe(false)
    expect(endpoints['svcips.get'].params.safeParse({ vipid: '7' }).data).toEqual({ vipid: 7 })
    expect(
      endpoints['svcips.setting.set'].params.safeParse({ vipid: 7, webid: 'aaurora1', domainname: 'a.com' }).success,
    ).toBe(false)
  })

  it('links and calls name a server by its name, by its id when the name cannot stand in a path or reads as an id', () => {
    expect(serverRefOf({ webid: '13', webname: 'aaurora1' })).toBe('aaurora1')
    expect(serverRefOf({ webid: '13', webname: '' })).toBe('13')
    expect(serverRefOf({ webid: '13', webname: '2024' })).toBe('13')
    expect(serverRefOf({ webid: '13', webname: 'web.site' })).toBe('13')
  })
})
