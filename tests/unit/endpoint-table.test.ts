import { describe, expect, it } from 'vitest'
import { ENDPOINT_NAMES, PAGED_ENDPOINT_NAMES, endpoints, paramLocation, pathParamNames, type EndpointDef } from '../../src/shared/endpoints/table'

const defs = ENDPOINT_NAMES.map((n) => [n, endpoints[n] as EndpointDef] as const)

describe('endpoint table rules', () => {
  it('every path parameter is a parameter of the schema', () => {
    for (const [name, def] of defs) {
      const shape = Object.keys((def.params as unknown as { shape: object }).shape)
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
      const shape = Object.keys((endpoints[n].params as unknown as { shape: object }).shape)
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
    expect(endpoints['domains.dns.set'].params.safeParse({ domain: 'a.com', ns_type: 'svc2', records: '' }).success).toBe(true)
    for (const ns_type of ['', 'two words', '../x', 'a/b']) expect(endpoints['domains.dns.set'].params.safeParse({ domain: 'a.com', ns_type, records: '' }).success, ns_type).toBe(false)
    expect(endpoints['servers.resource.set'].params.safeParse({ kind: 'a', webid: 1, type: 'cpu', num: 1 }).success).toBe(false)
    expect(endpoints['domains.dnssec.set'].params.safeParse({ domain: 'a.com', ds_records: [{ keytag: 70000, alg: 8, digesttype: 2, digest: 'ab' }] }).success).toBe(false)
  })
})
