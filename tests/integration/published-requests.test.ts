/**
 * The sandbox answers other clients as the live service does: each request published clients
 * send (tests/fixtures/live/published-requests.json, with their sources) is accepted and acted
 * on, over real HTTP on loopback, also where the app's own parameter schemas refuse it (a DNS
 * save with `records` alone as a certbot hook sends it, `order=asc` in lower case, DS numbers
 * as text, the dynamic DNS update as a form POST). And what the service is recorded to refuse
 * it still refuses, with the recorded status and message (unknown-domain.json).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { parseEndpointParams } from '@shared/endpoints/table'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { SERVICE_NAMESERVERS } from '../../src/sandbox/nameservers'
import { recording } from '../helpers/live-fixtures'
import { match } from '../helpers/matchers'

const publishedSchema = z.object({
  about: z.string(),
  requests: z.array(
    z.object({
      name: z.string(),
      source: z.string().min(20),
      changed: z.string(),
      shows: z.string(),
      request: z.object({
        method: z.enum(['GET', 'PUT', 'POST']),
        path: z.string().startsWith('/'),
        contentType: z.string().optional(),
        body: z.record(z.string(), z.unknown()).optional(),
        form: z.string().optional(),
      }),
      expect: z.object({ status: z.number().int(), text: z.string().optional() }),
    }),
  ),
})
const published = publishedSchema.parse(
  JSON.parse(readFileSync(join(__dirname, '../fixtures/live/published-requests.json'), 'utf8')),
)
type Published = (typeof published.requests)[number]
const named = (name: string): Published => {
  const r = published.requests.find((x) => x.name === name)
  if (!r) throw new Error(`published-requests.json has no ${name}`)
  return r
}

const DOMAIN = 'example-camellia.net'
const ZONE = 'a @ 192.0.2.10\na www 192.0.2.10\na * 192.0.2.10\nmx @ 10'

let sb: Sandbox
beforeEach(async () => {
  // One account with the domain the published requests name, served by the service's DNS
  // (svc1), dynamic DNS on with the updater's password, and four more domains for the list.
  sb = await startSandbox({ domains: 5 })
  const d = sb.state.domains[0]!
  d.domainname = DOMAIN
  d.ns = [...SERVICE_NAMESERVERS.svc1]
  d.dns.svc1 = { records: ZONE, ttl: 3600 }
  d.dynamicdns = 1
  d.ddnsPassword = 'Kanra-9-Kara'
})
afterEach(() => sb.close())

/** Sends a request as its client does; `key` null sends none (the dynamic DNS address takes none). */
async function send(
  p: Published['request'],
  key: string | null = sb.keys.full,
): Promise<{ status: number; text: string }> {
  const origin = new URL(sb.url).origin
  const res = await fetch(origin + p.path, {
    method: p.method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(p.contentType ? { 'content-type': p.contentType } : {}),
    },
    ...(p.body ? { body: JSON.stringify(p.body) } : p.form !== undefined ? { body: p.form } : {}),
  })
  return { status: res.status, text: await res.text() }
}

const json = (text: string): unknown => JSON.parse(text)
const resultsOf = (text: string): unknown => z.object({ results: z.unknown() }).parse(json(text)).results

describe('requests published clients send, accepted as the service accepts them', () => {
  it('every published request is answered as its client counts on', async () => {
    expect(published.requests.map((r) => r.name).sort()).toEqual([
      'ddns-form-post',
      'dns-save-records-only',
      'dnssec-numbers-as-text',
      'domains-list-order-lowercase',
    ])
    for (const r of published.requests) {
      const got = await send(r.request, r.request.path.startsWith('/v1/') ? sb.keys.full : null)
      expect({ name: r.name, status: got.status }).toEqual({ name: r.name, status: r.expect.status })
      if (r.expect.text) expect(got.text, r.name).toContain(r.expect.text)
    }
  })

  it('a DNS save of records alone (a certbot hook): the app’s schema refuses it; the sandbox saves the zone in use and keeps its DNS service', async () => {
    const r = named('dns-save-records-only')
    const body = r.request.body ?? {}
    // The app's own schema wants ns_type: a sandbox checking with it would have answered 400.
    expect(parseEndpointParams('domains.dns.set', { ...body, domain: DOMAIN }).ok).toBe(false)
    const before = sb.state.domains[0]!.nsTypeWord
    const saved = await send(r.request)
    expect(saved.status).toBe(200)
    // The answer repeats the request, as recorded (zone-save-echo.json): no ns_type was sent.
    expect(resultsOf(saved.text)).toEqual({
      domainid: sb.state.domains[0]!.domainid,
      domainname: DOMAIN,
      records: body.records,
    })
    const read = await send({ method: 'GET', path: `/v1/domains/${DOMAIN}/dns` })
    expect(resultsOf(read.text)).toMatchObject({
      ns_type: 'svc1',
      records: match.stringContaining('txt _acme-challenge gfj9Xq-8Kx1tYvQ2o0rPz6w5Lq3mNc4sUe7hBd1aRkE'),
      ttl: '3600',
    })
    expect(sb.state.domains[0]!.nsTypeWord).toBe(before)
  })

  it('order=asc in lower case (a DS updater): the app’s schema refuses it; the sandbox lists in ascending order, as with ASC', async () => {
    expect(parseEndpointParams('domains.list', { limit: 100, page: 1, order: 'asc' }).ok).toBe(false)
    const lower = await send(named('domains-list-order-lowercase').request)
    const upper = await send({ method: 'GET', path: '/v1/domains?limit=100&page=1&order=ASC' })
    const desc = await send({ method: 'GET', path: '/v1/domains?limit=100&page=1&order=desc' })
    const names = (text: string) =>
      z
        .array(z.object({ domainname: z.string() }))
        .parse(resultsOf(text))
        .map((d) => d.domainname)
    expect(names(lower.text)).toEqual(names(upper.text))
    expect(names(lower.text)).toHaveLength(5)
    expect(names(desc.text)).toEqual([...names(lower.text)].reverse())
  })

  it('DS numbers as text (the same updater): the app’s schema refuses them; the sandbox stores the DS record', async () => {
    const r = named('dnssec-numbers-as-text')
    expect(parseEndpointParams('domains.dnssec.set', { ...r.request.body, domain: DOMAIN }).ok).toBe(false)
    expect((await send(r.request)).status).toBe(200)
    expect(sb.state.domains[0]!.ds).toEqual([{ keytag: 40213, alg: 14, digesttype: 4, digest: '3B9C5A1E'.repeat(12) }])
  })

  it('the dynamic DNS update as a form POST (a Python updater) sets the wildcard host’s address', async () => {
    const got = await send(named('ddns-form-post').request, null)
    expect(got.text).toBe('status=0\nOK\n')
    expect(sb.state.domains[0]!.dns.svc1.records.split('\n')).toContain('a * 198.51.100.77')
  })
})

describe('what the service is recorded to refuse, still refused', () => {
  it('the published records-only save to a domain the account does not hold: 400 "domainname is invalid." with domainid 0, as recorded', async () => {
    const rec = recording('unknown-domain.json').exchanges[0]!
    const r = named('dns-save-records-only')
    const other = 'thisisadomainidonotown.com'
    const got = await send({ ...r.request, path: `/v1/domains/${other}/dns` })
    expect(got.status).toBe(rec.response.status)
    expect(z.object({ errors: z.unknown() }).parse(json(got.text)).errors).toEqual(rec.response.body.errors)
  })

  it('a records-only save still needs its key: without one, 401 and nothing saved', async () => {
    const got = await send(named('dns-save-records-only').request, null)
    expect(got.status).toBe(401)
    expect(sb.state.domains[0]!.dns.svc1.records).toBe(ZONE)
  })
})
