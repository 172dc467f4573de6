/**
 * The client against how the live service really answers: its exact bodies replayed over
 * loopback (tests/fixtures/live), its rate limit (429, in the sandbox and replayed), redirects,
 * request IDs, the User-Agent; and the sandbox's live behaviours: product words for ns_type,
 * what it keeps of a DNS save, one auto-renewal story.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../src/main/base/app-error'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createApiClient } from '../../src/main/http'
import { Pacer } from '../../src/main/http/pacer'
import { isOutcomeUnknown } from '../../src/main/jobs/outcome'
import { LIVE_RATE_LIMIT, scaledRateLimit, startSandbox, type Sandbox } from '../../src/sandbox'
import type { ChannelName, PayloadOf, ResultOf } from '@shared/ipc/contract'
import { english, englishCode } from '../helpers/english'
import { profileFor } from '../../support/profile'
import { startReplayServer, type ReplayServer } from '../helpers/replay-server'
import { answerText, liveFixture, recording } from '../helpers/live-fixtures'
import pkg from '../../package.json' with { type: 'json' }

const fixture = liveFixture
const serverPaths = { a: 'webservers', b: 'managedservers', c: 'cloudservers' }
const KEY = 'live-key-0123456789abcdef'

async function caught(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (err) {
    if (err instanceof AppError) return err
    throw new Error(`expected an AppError, got ${String(err)}`)
  }
  throw new Error('expected the call to fail')
}

describe('answers in the live shape, replayed', () => {
  let live: ReplayServer
  beforeAll(async () => {
    live = await startReplayServer()
  })
  afterAll(() => live.close())
  const client = (opts: { timeoutMs?: number; userAgent?: string } = {}) =>
    createApiClient({ baseUrl: live.url, apiKey: KEY, serverPaths, retry: { attempts: 2, baseDelayMs: 20 }, ...opts })

  it('a DNS setting with extra members, ttl as text, the request echo and the service’s own ns_type word', async () => {
    live.queue({ status: 200, body: fixture('dns-get.json') })
    const dns = await client().call('domains.dns.get', { domain: 'example-shop.com' })
    expect(dns).toEqual({
      domainid: 1044817,
      domainname: 'example-shop.com',
      ns_type: 'hosting-dns',
      records: 'a @ 192.0.2.10\nmx mail.example-shop.com. 10\ntxt @ v=spf1 include:_spf.example.net ~all',
      ttl: 3600,
    })
  })

  it('a save sends back the word the service gave; its answer only repeats the request (the TTL as the number sent)', async () => {
    live.queue({ status: 200, body: answerText('zone-save-echo.json', 1) })
    const sent = recording('zone-save-echo.json').exchanges[1]!.request.body!
    const env = await client().send('domains.dns.set', {
      domain: 'example-wisteria.net',
      ns_type: 'hosting-dns',
      records: String(sent.records),
      ttl: 3600,
    })
    expect(JSON.parse(live.received.at(-1)!.body)).toMatchObject({ ns_type: 'hosting-dns', ttl: 3600 })
    expect(env.results.ttl).toBe(3600)
    expect(env.results.records).toBe(sent.records)
    expect(env.requestId).toBe('202111151921102617260311570V')
  })

  it('an error with domainid and domainname inside errors: the service’s message and request ID come through', async () => {
    live.queue({ status: 400, body: fixture('error-with-domain.json') })
    const err = await caught(
      client().call('domains.localtransfer.set', { domain: 'example-shop.com', username: 'someone' }),
    )
    expect(err.kind).toBe('bad-request')
    expect(err.toData().serviceMessage).toBe('The domain is locked against transfer.')
    expect(err.requestId).toBe('e5d4c3b2-a190-4f8e-9d7c-6b5a4f3e2d1c')
  })

  it('a read answered 429 waits as Retry-After says, then goes again and succeeds', async () => {
    const before = live.received.length
    live.queue(
      { status: 429, body: fixture('too-many-requests.json'), headers: { 'retry-after': '1' } },
      { status: 200, body: fixture('dns-get.json') },
    )
    const dns = await client().call('domains.dns.get', { domain: 'example-shop.com' })
    expect(dns.domainname).toBe('example-shop.com')
    const [first, second] = live.received.slice(before)
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950)
  })

  it('429s in a row without Retry-After: the read keeps waiting (a doubling delay) until it goes through', async () => {
    const before = live.received.length
    const limited = { status: 429, body: fixture('too-many-requests.json') }
    live.queue(limited, limited, limited, limited, { status: 200, body: fixture('dns-get.json') })
    expect((await client().call('domains.dns.get', { domain: 'example-shop.com' })).ttl).toBe(3600)
    expect(live.received.length - before).toBe(5)
  })

  it('a write answered 429 is sent again after the wait (the service did not act), and done once', async () => {
    const before = live.received.length
    live.queue(
      { status: 429, body: fixture('too-many-requests.json'), headers: { 'retry-after': '0' } },
      { status: 200, body: fixture('renew.json') },
    )
    const renewed = await client().call('domains.expiration.renew', { domain: 'example-shop.com', years: 1 })
    expect(renewed.expirationdate).toBe('2028-04-02')
    const sent = live.received.slice(before)
    expect(sent).toHaveLength(2)
    expect(sent.map((r) => `${r.method} ${r.path} ${r.body}`)).toEqual(
      Array(2).fill('PUT /v1/domains/expiration {"domain":"example-shop.com","years":1}'),
    )
  })

  it('a write still answered 429 at its time-out ends "rate limited": a plain failure, not an unknown outcome', async () => {
    live.otherwise({ status: 429, body: fixture('too-many-requests.json'), headers: { 'retry-after': '1' } })
    try {
      const err = await caught(
        client({ timeoutMs: 1500 }).call('domains.expiration.renew', { domain: 'example-shop.com', years: 1 }),
      )
      expect(err.kind).toBe('rate-limited')
      expect(err.status).toBe(429)
      expect(isOutcomeUnknown(err.toData())).toBe(false)
      expect(english(err)).toMatch(/asks to slow down/)
      expect(english(err)).not.toMatch(/bad request/i)
    } finally {
      live.otherwise(undefined)
    }
  })

  it('a redirect is reported with where it points (the key redacted) and never followed', async () => {
    const before = live.received.length
    live.queue({ status: 301, body: '', headers: { location: `https://api.other.example/v1?key=${KEY}` } })
    const err = await caught(client().call('domains.list', {}))
    expect(err.kind).toBe('redirect')
    expect(english(err)).toBe(
      'The base URL redirects to https://api.other.example/v1?key=[redacted]: update the account’s base URL (the app never follows a redirect with your key).',
    )
    expect(JSON.stringify(err.toData())).not.toContain(KEY)
    expect(live.received.length - before).toBe(1)
  })

  it('a request ID is passed on only in a plausible shape, and never one holding the key', async () => {
    const body = (id: string) => JSON.stringify({ errors: { code: 404, message: 'Not found.' }, request_id: id })
    live.queue({ status: 404, body: body('<script>alert(1)</script>') })
    expect((await caught(client().call('domains.get', { domain: 'a.com' }))).requestId).toBeUndefined()
    live.queue({ status: 404, body: body(`req-${KEY}`) })
    expect((await caught(client().call('domains.get', { domain: 'a.com' }))).requestId).toBeUndefined()
    live.queue({ status: 404, body: body('x'.repeat(400)), headers: { 'x-request-id': 'req-from-header.1' } })
    expect((await caught(client().call('domains.get', { domain: 'a.com' }))).requestId).toBe('req-from-header.1')
  })

  it('every request names the app and its version in its User-Agent', async () => {
    live.queue({ status: 200, body: fixture('dns-get.json') }, { status: 200, body: fixture('dns-get.json') })
    await client().call('domains.dns.get', { domain: 'example-shop.com' })
    expect(live.received.at(-1)!.headers['user-agent']).toBe(`HostingAdmin/${pkg.version} (+node; ${process.platform})`)
    await client({ userAgent: `HostingAdmin/${pkg.version} (+electron; linux)` }).call('domains.dns.get', {
      domain: 'example-shop.com',
    })
    expect(live.received.at(-1)!.headers['user-agent']).toBe(`HostingAdmin/${pkg.version} (+electron; linux)`)
  })
})

describe('the sandbox’s rate limit', () => {
  let sb: Sandbox
  beforeAll(async () => {
    sb = await startSandbox({ domains: 600 })
  })
  afterAll(() => sb.close())

  it('answers over-limit requests with 429 in the live error shape, acting on nothing and logging nothing', async () => {
    // A window and a block longer than the test: how fast this machine sends does not matter.
    sb.service.rateLimit = { limit: 5, windowMs: 60_000, blockMs: 60_000 }
    const logsBefore = sb.state.logs.length
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${sb.url}/domains?limit=1`, { headers: { authorization: `Bearer ${sb.keys.full}` } }).then(
          async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.text() }),
        ),
      ),
    )
    const limited = answers.filter((a) => a.status === 429)
    expect(limited).toHaveLength(7)
    // As recorded: no Retry-After, and the call echoed in the body.
    expect(limited.every((a) => a.retryAfter === null)).toBe(true)
    const body: unknown = JSON.parse(limited[0]!.body)
    expect(body).toMatchObject({
      errors: { code: 429, message: 'Too Many Requests : Too Many Requests.' },
      request: { method: 'GET' },
    })
    expect(body).toHaveProperty('request_id')
    expect(sb.state.logs.length - logsBefore).toBe(answers.length - limited.length)
  })

  it('listAll slows to the service’s pace and reads every page without a failure', async () => {
    // The live limit scaled to a tenth: 60 a 6 s window, a 1.8 s block. The recorded count, not a
    // smaller one: the client takes a block in which it saw under a quarter of the recorded 60
    // answered for another process's (pacer.ts), and learns no pace from it.
    const limit = scaledRateLimit(LIVE_RATE_LIMIT, 0.1)
    sb.service.rateLimit = limit
    // The client's first wait scaled the same (300 ms / 10), so that it sees the block as it would live.
    const pacer = new Pacer({ firstProbeMs: 30 })
    const client = createApiClient({
      baseUrl: sb.url,
      apiKey: sb.keys.full,
      serverPaths: sb.serverPaths,
      pacer,
      retry: { attempts: 2, baseDelayMs: 30 },
    })
    const before = sb.received.length
    const all = await client.listAll('domains.list', {}, { pageSize: 5, concurrency: 6 })
    expect(all).toHaveLength(600)
    const answered = sb.received.slice(before)
    expect(answered.filter((r) => r.status === 429).length).toBeGreaterThan(0)
    // 120 pages of 5, and the short page that ends the list.
    expect(answered.filter((r) => r.status === 200)).toHaveLength(121)
    // Paced by the block it caused, a little under the service's rate.
    expect(pacer.requestsPerSecond).toBeLessThan((limit.limit * 1000) / limit.windowMs)
  }, 30_000)

  it('a write answered 429 is sent again byte for byte once the block is over, and the service acts on it once', async () => {
    sb.service.rateLimit = { limit: 1, windowMs: 400, blockMs: 200 }
    const client = createApiClient({
      baseUrl: sb.url,
      apiKey: sb.keys.full,
      serverPaths: sb.serverPaths,
      retry: { attempts: 2, baseDelayMs: 50 },
    })
    const d = sb.state.domains[0]!
    const expiration = d.expirationdate
    const before = sb.received.length
    const logsBefore = sb.state.logs.length
    // The window's one request: the renewal after it is refused.
    await client.call('domains.get', { domain: d.domainname })
    const renewed = await client.call('domains.expiration.renew', { domain: d.domainname, years: 1 })
    const sends = sb.received.slice(before).filter((r) => r.endpoint === 'domains.expiration.renew')
    expect(sends.length).toBeGreaterThanOrEqual(2)
    expect(sends.map((r) => r.status)).toEqual([...Array.from({ length: sends.length - 1 }, () => 429), 200])
    // The same bytes each time, and the same length declared.
    expect(new Set(sends.map((r) => r.rawBody))).toEqual(new Set([JSON.stringify({ domain: d.domainname, years: 1 })]))
    expect(new Set(sends.map((r) => r.headers['content-length'])).size).toBe(1)
    // Done once: a year on, and one entry in the service's log for it.
    const oneYearOn = `${Number(expiration.slice(0, 4)) + 1}${expiration.slice(4)}`
    expect(renewed.expirationdate).toBe(oneYearOn)
    expect(d.expirationdate).toBe(oneYearOn)
    expect(
      sb.state.logs.slice(logsBefore).filter((l) => l.method === 'PUT' && l.path === '/v1/domains/expiration'),
    ).toHaveLength(1)
  })
})

describe('a bulk job under the rate limit, and what the service kept', () => {
  const APP = 'app://app'
  const sender = { url: `${APP}/index.html`, key: 'test', sendProgress: () => undefined, sendJob: () => true }
  let sb: Sandbox
  let services: AppServices
  let accountId: string
  async function ok<C extends ChannelName>(channel: C, payload: PayloadOf<C>): Promise<ResultOf<C>> {
    const r = await services.router.client(sender)(channel, payload)
    if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`)
    return r.value
  }
  beforeAll(async () => {
    sb = await startSandbox({ domains: 20, service: { nsTypeWords: { svc1: 'hosting-dns', svc11: 'external-dns' } } })
    services = await createAppServices({
      userDataDir: mkdtempSync(join(tmpdir(), 'live-')),
      allowedOrigins: [APP],
      keychain: async () => new SessionSecretStore(),
    })
    accountId = (
      await ok('accounts.create', { fields: profileFor(sb, 'Live'), apiKey: sb.keys.full, storage: 'session' })
    ).id
  })
  afterAll(async () => {
    await services.close()
    await sb.close()
  })

  it('renews twelve domains at 3 at once against 6 requests a 600 ms window: every item done, none failed, each sent until accepted', async () => {
    sb.service.rateLimit = { limit: 6, windowMs: 600, blockMs: 180 }
    try {
      const names = sb.state.domains.slice(0, 12).map((d) => d.domainname)
      const expected = new Map(
        sb.state.domains
          .slice(0, 12)
          .map((d) => [d.domainname, `${Number(d.expirationdate.slice(0, 4)) + 1}${d.expirationdate.slice(4)}`]),
      )
      const before = sb.received.length
      // Preparing reads each domain's expiration date (for the confirmation), under the same limit.
      const { job, token } = await ok('jobs.prepare', {
        accountId,
        operation: 'domains.expiration.renew',
        items: names.map((domain) => ({ params: { domain, years: 1 } })),
        concurrency: 3,
      })
      const done = await ok('jobs.start', { jobId: job.id, token })
      expect(done.items.map((it) => it.state)).toEqual(Array(12).fill('done'))
      const answered = sb.received.slice(before)
      expect(answered.filter((r) => r.endpoint === 'domains.expiration.renew' && r.status === 200)).toHaveLength(12)
      expect(answered.filter((r) => r.status === 429).length).toBeGreaterThan(0)
      // Each domain was renewed once: a year on, not two.
      for (const name of names)
        expect(sb.state.domains.find((d) => d.domainname === name)!.expirationdate).toBe(expected.get(name))
    } finally {
      sb.service.rateLimit = undefined
    }
  }, 60_000)

  it('a DNS save the service keeps differently (comments dropped, TTL raised) is done, with what changed', async () => {
    sb.service.dropComments = true
    sb.service.minTtl = 120
    try {
      const d = sb.state.domains.find((x) => x.ns.every((n) => !n.includes('registrar')))!
      const current = await ok('domains.dns.get', { accountId, domain: d.domainname })
      expect(['hosting-dns', 'external-dns']).toContain(current.ns_type)
      const records = '# office\na @ 192.0.2.1\n; mail\nmx mail.example.net. 10'
      const done = await ok('jobs.submit', {
        accountId,
        operation: 'domains.dns.set',
        items: [
          {
            params: { domain: d.domainname, ns_type: current.ns_type, records, ttl: 60 },
            guard: { records: current.records },
            overRule: true,
          },
        ],
      })
      const item = done.items[0]!
      expect(item.state, JSON.stringify(item.error)).toBe('done')
      expect(item.serviceKept).toEqual([
        { code: 'serviceKept.commentsDropped', params: { count: 2 } },
        { code: 'serviceKept.ttlChanged', params: { sent: 60, kept: 3600 } },
      ])
      expect(item.serviceKept!.map((f) => englishCode(f.code, f.params))).toEqual([
        'The service did not keep 2 comment lines.',
        'TTL 60 was stored as 3600.',
      ])
    } finally {
      sb.service.dropComments = false
      sb.service.minTtl = undefined
    }
  })

  it('a DNS save that the service keeps as sent carries no finding; a domain’s own unknown word is sent back and accepted', async () => {
    const d = sb.state.domains.find((x) => x.ns.every((n) => !n.includes('registrar')))!
    d.nsTypeWord = 'legacy-dns-2019'
    const current = await ok('domains.dns.get', { accountId, domain: d.domainname })
    expect(current.ns_type).toBe('legacy-dns-2019')
    const done = await ok('jobs.submit', {
      accountId,
      operation: 'domains.dns.set',
      items: [
        {
          params: { domain: d.domainname, ns_type: 'legacy-dns-2019', records: 'a @ 192.0.2.7', ttl: 600 },
          guard: { records: current.records },
          overRule: true,
        },
      ],
    })
    expect(done.items[0]).toMatchObject({ state: 'done' })
    expect(done.items[0]!.serviceKept).toBeUndefined()
    expect(sb.received.filter((r) => r.endpoint === 'domains.dns.set').at(-1)!.body).toMatchObject({
      ns_type: 'legacy-dns-2019',
    })
  })
})

describe('auto-renewal: one story in the sandbox', () => {
  let sb: Sandbox
  beforeAll(async () => {
    sb = await startSandbox({ domains: 8 })
  })
  afterAll(() => sb.close())

  it('autorenew is the effective setting, kept consistent with the account-wide and the own setting on every write', async () => {
    const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    const consistent = async () => {
      for (const d of await client.listAll('domains.list', {})) {
        expect(d.autorenew, d.domainname).toBe(d.autorenew_all || d.autorenew_domain ? 1 : 0)
      }
    }
    await consistent()
    const [one, other] = sb.state.domains
    await client.call('domains.autorenew.set', { domain: one!.domainname, autorenew_domain: 0 })
    await client.call('domains.autorenew.set', { domain: one!.domainname, autorenew_all: 1 })
    await consistent()
    // The account-wide setting is the account's: every domain shows it, and all are in force.
    const list = await client.listAll('domains.list', {})
    expect(list.every((d) => d.autorenew_all === 1 && d.autorenew === 1)).toBe(true)
    await client.call('domains.autorenew.set', { domain: other!.domainname, autorenew_all: 0, autorenew_domain: 0 })
    await consistent()
    expect((await client.call('domains.get', { domain: one!.domainname })).autorenew).toBe(0)
  })
})
