/**
 * The sandbox against recordings of the live service: every recorded request is sent to the
 * sandbox (its state set to what the recording's first answer shows), and its answer must have
 * the recorded status, the recorded shape (members and JSON types, the request echo included)
 * and the recorded values, request IDs aside. A sandbox written from the app's own rules could
 * not fail this; one written from the recordings must pass it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { SERVICE_NAMESERVERS } from '../../src/sandbox/nameservers'
import { rateLimitRecording, recording, shapeOf, type Exchange, type Recording } from '../helpers/live-fixtures'

let sb: Sandbox | undefined
afterEach(async () => {
  await sb?.close()
  sb = undefined
})

/** A sandbox holding the one domain the recording is about, as its first answer shows it. */
async function sandboxFor(rec: Recording): Promise<Sandbox> {
  const first = rec.exchanges[0]!.response.body.results
  const words = { svc1: 'hosting-dns', svc11: 'external-dns' }
  const s = await startSandbox({ domains: 1, service: { nsTypeWords: words } })
  const d = s.state.domains[0]!
  const item: unknown = Array.isArray(first) ? first[0] : first
  if (typeof item !== 'object' || item === null) return s
  const num = (k: string): number | undefined => {
    const v: unknown = Reflect.get(item, k)
    return typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined
  }
  const text = (k: string): string | undefined => {
    const v: unknown = Reflect.get(item, k)
    return typeof v === 'string' ? v : undefined
  }
  d.domainid = num('domainid') ?? d.domainid
  d.domainname = text('domainname') ?? d.domainname
  d.registrar = text('registrar') ?? d.registrar
  d.expirationdate = text('expirationdate') ?? d.expirationdate
  for (const k of ['autorenew', 'autorenew_all', 'autorenew_domain'] as const) d[k] = num(k) ?? d[k]
  const records = text('records')
  if (records !== undefined) {
    // The flavour the recording's word names, and the nameservers that make it the one shown.
    const flavour = text('ns_type') === words.svc11 ? 'svc11' : 'svc1'
    d.ns = flavour === 'svc1' ? [...SERVICE_NAMESERVERS.svc1] : ['ns1.elsewhere.example', 'ns2.elsewhere.example']
    d.dns[flavour] = { records, ttl: num('ttl') ?? 3600 }
  }
  return s
}

async function send(s: Sandbox, x: Exchange): Promise<{ status: number; body: unknown }> {
  const url = s.url.replace(/\/v1$/, '') + x.request.path
  const res = await fetch(url, {
    method: x.request.method,
    headers: {
      authorization: `Bearer ${s.keys.full}`,
      ...(x.request.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(x.request.body ? { body: JSON.stringify(x.request.body) } : {}),
  })
  const body: unknown = await res.json()
  return { status: res.status, body }
}

/** An answer without its request ID (each answer has its own). */
const withoutRequestId = (v: unknown): unknown =>
  typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'request_id')) : v

describe.each([
  'zone-save-echo.json',
  'zone-duplicates.json',
  'domains-list-default-page.json',
  'unknown-domain.json',
  'autorenew-on.json',
])('%s', (file) => {
  it('the sandbox answers each recorded request with the recorded status, shape and values', async () => {
    const rec = recording(file)
    sb = await sandboxFor(rec)
    for (const [i, x] of rec.exchanges.entries()) {
      const got = await send(sb, x)
      const at = `${file} exchange ${i + 1}: ${x.request.method} ${x.request.path}`
      expect(got.status, at).toBe(x.response.status)
      expect(shapeOf(got.body), at).toEqual(shapeOf(x.response.body))
      expect(withoutRequestId(got.body), at).toEqual(withoutRequestId(x.response.body))
    }
  })
})

describe('rate-limit-burst.json', () => {
  it('the sandbox refuses a request over its limit with the recorded 429: the same body and no Retry-After', async () => {
    const rec = rateLimitRecording()
    sb = await startSandbox({ domains: 1, service: { rateLimit: { limit: 1, windowMs: 60_000, blockMs: 18_000 } } })
    const path = `/v1/domains/${sb.state.domains[0]!.domainname}/dns`
    await send(sb, { request: { method: 'GET', path }, response: { status: 200, body: {} } })
    const url = sb.url.replace(/\/v1$/, '') + path
    const res = await fetch(url, { headers: { authorization: `Bearer ${sb.keys.full}` } })
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBeNull()
    const body: unknown = await res.json()
    // The recorded answer, for the path asked here.
    const recorded: unknown = JSON.parse(
      JSON.stringify(rec['429'].body).replaceAll(String(Reflect.get(Object(rec['429'].body.request), 'path')), path),
    )
    expect(shapeOf(body)).toEqual(shapeOf(recorded))
    expect(withoutRequestId(body)).toEqual(withoutRequestId(recorded))
  })
})
