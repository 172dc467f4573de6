/**
 * Every error kind of the client, over real loopback HTTP; time-outs, cancellation,
 * retry of reads only, and that the API key never shows up in an error.
 */
import { createServer, type Server } from 'node:http'
import { closedLoopbackPort } from '../../support/free-port'
import { listeningPort } from '../../support/listening-port'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { AppError } from '../../src/main/base/app-error'
import { appErrorOf, english } from '../helpers/english'
import { startSandbox, type Sandbox } from '../../src/sandbox'

let sb: Sandbox
let client: ApiClient
const fastRetry = { attempts: 2, baseDelayMs: 5 }

async function caught(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (err) {
    return appErrorOf(err)
  }
  throw new Error('expected the call to fail')
}

/** Whatever a caller could see of an error: none of it may contain the key. */
function exposedText(err: AppError): string {
  return [
    err.message,
    english(err),
    err.stack ?? '',
    JSON.stringify(err),
    JSON.stringify(err.toData()),
    String(err),
  ].join('\n')
}

beforeAll(async () => {
  sb = await startSandbox()
  client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths, retry: fastRetry })
})
afterAll(async () => {
  await sb.close()
})
afterEach(() => {
  sb.faults.clear()
})

describe('error kinds', () => {
  it('bad-request: the message and request_id come from the live error body', async () => {
    const d = sb.state.domains[0]!.domainname
    const err = await caught(
      client.call('domains.dns.set', { domain: d, ns_type: 'svc1', records: 'bogus line here ok' }),
    )
    expect(err.kind).toBe('bad-request')
    expect(err.status).toBe(400)
    expect(english(err)).toMatch(/Unknown record type "bogus" on line 1/)
    expect(err.requestId).toMatch(/^req-/)
    // The sandbox logged the failed request under that id.
    expect(sb.state.logs.some((l) => l.request_id === err.requestId)).toBe(true)
  })

  it('validation: invalid input is refused before anything is sent', async () => {
    const before = sb.received.length
    const err = await caught(client.call('domains.expiration.renew', { domain: 'a.com', years: 10 }))
    expect(err.kind).toBe('validation')
    expect(err.issues?.[0]?.path).toBe('years')
    expect(sb.received.length).toBe(before)
  })

  it('unauthorized: a wrong key, with a message that says to replace it or allow this computer’s address; the key is not echoed', async () => {
    const wrongKey = 'sk_live_wrong_key_0123456789'
    const bad = createApiClient({ baseUrl: sb.url, apiKey: wrongKey, serverPaths: sb.serverPaths })
    const err = await caught(bad.call('servers.list', { kind: 'a' }))
    expect(err.kind).toBe('unauthorized')
    expect(err.status).toBe(401)
    expect(english(err)).toMatch(/replace it for this account in Accounts/)
    // The service keeps an allowed-address list per token: a refusal may be that, not the key.
    expect(english(err)).toMatch(/this computer’s internet address is in the token’s list of allowed addresses/)
    expect(exposedText(err)).not.toContain(wrongKey)
  })

  it('forbidden: the read-only key may read but not write', async () => {
    const ro = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.readOnly, serverPaths: sb.serverPaths })
    const servers = await ro.call('servers.list', { kind: 'a' })
    expect(servers.length).toBeGreaterThan(0)
    const err = await caught(
      ro.call('servers.expiration.extend', { kind: 'a', webid: Number(servers[0]!.webid), months: 1 }),
    )
    expect(err.kind).toBe('forbidden')
    expect(err.status).toBe(403)
    expect(english(err)).toMatch(/list of allowed addresses/)
    // The refusal names what was refused: this change.
    expect(english(err)).toMatch(/refused this change \(PUT|POST|PATCH/)
  })

  it('forbidden on a read names the read, and speaks of no write access', async () => {
    const c = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    // A token not allowed the operation (API-SPEC section 5): here, reading the log.
    sb.faults.inject('logs.list', { status: 403, times: 1 })
    const err = await caught(c.call('logs.list', { limit: 1 }))
    expect(err.kind).toBe('forbidden')
    expect(err.data.code).toBe('error.forbiddenRead')
    expect(english(err)).toMatch(/refused to let this key read \(GET \/logs/)
    expect(english(err)).not.toMatch(/write access/)
  })

  it('forbidden from an address the token does not allow says the address, not the key, whatever was asked', async () => {
    const c = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    sb.faults.inject('logs.list', {
      status: 403,
      message: 'access from this IP address is not permitted for this token',
      times: 1,
    })
    const err = await caught(c.call('logs.list', { limit: 1 }))
    expect(err.kind).toBe('forbidden')
    expect(err.data.code).toBe('error.forbiddenAddress')
    expect(err.data.serviceMessage).toBe('access from this IP address is not permitted for this token')
    expect(english(err)).toMatch(/add this computer’s address to the token’s allowed addresses/)
  })

  it('a domain the account does not hold is a bad request, as the service answers it, with the service’s words', async () => {
    const err = await caught(client.call('domains.get', { domain: 'no-such-domain.com' }))
    expect(err.kind).toBe('bad-request')
    expect(err.data.serviceMessage).toBe('domainname is invalid.')
  })

  it('not-found: an unknown server', async () => {
    const err = await caught(client.call('servers.get', { kind: 'a', webid: 999_999 }))
    expect(err.kind).toBe('not-found')
    expect(err.status).toBe(404)
  })

  it.each([
    [500, 'server-error'],
    [503, 'unavailable'],
    [504, 'gateway-timeout'],
  ] as const)('%i -> %s (after the retries a read is allowed)', async (status, kind) => {
    sb.faults.inject('servers.list', { status })
    const before = sb.received.length
    const err = await caught(client.call('servers.list', { kind: 'a' }))
    expect(err.kind).toBe(kind)
    expect(err.status).toBe(status)
    expect(err.requestId).toMatch(/^req-/)
    // 500 is not retried; 503 and 504 are, twice.
    expect(sb.received.length - before).toBe(status === 500 ? 1 : 3)
  })

  it('a read succeeds when a 503 clears on retry', async () => {
    sb.faults.inject('domains.list', { status: 503, times: 1 })
    const before = sb.received.length
    const list = await client.call('domains.list', { limit: 5 })
    expect(list).toHaveLength(5)
    expect(sb.received.length - before).toBe(2)
  })

  it('a write is never retried, whatever the failure', async () => {
    const s = sb.state.servers.a[0]!
    const before = s.expirationdate
    for (const fault of [{ status: 503 as const }, { status: 504 as const }, { reset: true }]) {
      sb.faults.inject('servers.expiration.extend', { ...fault, times: 5 })
      const n = sb.received.length
      await caught(client.call('servers.expiration.extend', { kind: 'a', webid: s.webid, months: 1 }))
      expect(sb.received.length - n).toBe(1)
      sb.faults.clear()
    }
    expect(s.expirationdate).toBe(before)
  })

  it('network: a reset connection, and a port nobody listens on', async () => {
    sb.faults.inject('servers.get', { reset: true })
    const s = sb.state.servers.a[0]!
    const err = await caught(client.call('servers.get', { kind: 'a', webid: s.webid }))
    expect(err.kind).toBe('network')

    const port = await closedLoopbackPort()
    const nowhere = createApiClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: sb.keys.full,
      serverPaths: sb.serverPaths,
      retry: fastRetry,
    })
    const err2 = await caught(nowhere.call('logs.list', {}))
    expect(err2.kind).toBe('network')
    expect(english(err2)).toMatch(/ECONNREFUSED/)
    // Words first, with where the refusal came from; the system's code after.
    expect(english(err2)).toMatch(new RegExp(`^The service at 127\\.0\\.0\\.1:${port} refused the connection`))
    expect(exposedText(err2)).not.toContain(sb.keys.full)
  })

  it('malformed-response: a body that is not JSON', async () => {
    sb.faults.inject('svcips.list', { malformed: true })
    const err = await caught(client.call('svcips.list', {}))
    expect(err.kind).toBe('malformed-response')
  })

  it('timeout: a hung request ends at the configured limit', async () => {
    sb.faults.inject('logs.list', { hang: true })
    // The client's timers run on a clock the test moves: the limit, not the machine, decides.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const quick = createApiClient({
        baseUrl: sb.url,
        apiKey: sb.keys.full,
        serverPaths: sb.serverPaths,
        timeoutMs: 300,
        retry: fastRetry,
      })
      const before = sb.received.length
      let ended = false
      const err = caught(quick.call('logs.list', {})).finally(() => (ended = true))
      // At the service, and hanging (vi.waitFor would move the fake clock: this turns the loop only).
      while (sb.received.length < before + 1) await new Promise((r) => setImmediate(r))
      await vi.advanceTimersByTimeAsync(290)
      expect(ended).toBe(false)
      await vi.advanceTimersByTimeAsync(10)
      expect((await err).kind).toBe('timeout')
    } finally {
      vi.useRealTimers()
    }
  })

  it('cancelled: the caller aborts a call in flight', async () => {
    sb.faults.inject('logs.list', { hang: true })
    const ac = new AbortController()
    const before = sb.received.length
    const p = caught(client.call('logs.list', {}, { signal: ac.signal }))
    // In flight: at the service, hanging.
    await vi.waitFor(() => expect(sb.received.length).toBe(before + 1), { timeout: 10_000 })
    ac.abort()
    expect((await p).kind).toBe('cancelled')
  })

  it('the default time-out is the spec’s 120 seconds', async () => {
    const { DEFAULT_TIMEOUT_MS } = await import('../../src/main/http')
    expect(DEFAULT_TIMEOUT_MS).toBe(120_000)
  })
})

describe('base URL rules', () => {
  it('refuses plain http to anything but loopback', () => {
    const refusal = (baseUrl: string) => {
      try {
        createApiClient({ baseUrl, apiKey: 'k', serverPaths: sb.serverPaths })
      } catch (err) {
        return english(appErrorOf(err))
      }
      return 'accepted'
    }
    expect(refusal('http://api.example.com/v1')).toMatch(/https/)
    expect(refusal('https://user:pw@api.example.com/v1')).toMatch(/user name/)
    expect(() =>
      createApiClient({ baseUrl: 'http://[::1]:8080/v1', apiKey: 'k', serverPaths: sb.serverPaths }),
    ).not.toThrow()
    expect(() =>
      createApiClient({ baseUrl: 'https://api.example.com/v1/', apiKey: 'k', serverPaths: sb.serverPaths }),
    ).not.toThrow()
  })
})

describe('error bodies of other shapes', () => {
  let server: Server
  let url: string
  let next: { status: number; body: string } = { status: 200, body: '{}' }
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(next.status, { 'content-type': 'application/json' })
      res.end(next.body)
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${listeningPort(server)}/v1`
  })
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()))
  })

  it('an HTML error page from a proxy gets the default wording for its status', async () => {
    next = { status: 502, body: '<html>Bad gateway</html>' }
    const c = createApiClient({ baseUrl: url, apiKey: 'secret-key-xyz', serverPaths: sb.serverPaths, retry: fastRetry })
    const err = await caught(c.call('logs.list', {}))
    expect(err.kind).toBe('server-error')
    expect(english(err)).toMatch(/internal error/)
  })

  it('a service message that quotes the key has it redacted', async () => {
    next = {
      status: 401,
      body: JSON.stringify({ errors: { code: 401, message: 'bad token secret-key-xyz' }, request_id: 'r-1' }),
    }
    const c = createApiClient({ baseUrl: url, apiKey: 'secret-key-xyz', serverPaths: sb.serverPaths, retry: fastRetry })
    const err = await caught(c.call('logs.list', {}))
    expect(err.kind).toBe('unauthorized')
    expect(err.requestId).toBe('r-1')
    expect(exposedText(err)).not.toContain('secret-key-xyz')
    expect(english(err)).toContain('[redacted]')
  })

  it.each([
    ['lower-case hex', (k: string) => Buffer.from(k).toString('hex')],
    ['upper-case hex', (k: string) => Buffer.from(k).toString('hex').toUpperCase()],
    ['base64', (k: string) => Buffer.from(k).toString('base64')],
    ['base64 without padding', (k: string) => Buffer.from(k).toString('base64').replace(/=+$/, '')],
    ['base64url', (k: string) => Buffer.from(k).toString('base64url')],
    ['lower case', (k: string) => k.toLowerCase()],
  ])('a service message that quotes the key in %s has it redacted', async (_form, encode) => {
    const key = 'Secret-Key-XYZ-0123'
    next = {
      status: 401,
      body: JSON.stringify({ errors: { code: 401, message: `bad token ${encode(key)} (as sent)` }, request_id: 'r-1' }),
    }
    const c = createApiClient({ baseUrl: url, apiKey: key, serverPaths: sb.serverPaths, retry: fastRetry })
    const err = await caught(c.call('logs.list', {}))
    expect(exposedText(err)).not.toContain(encode(key))
    expect(english(err)).toContain('[redacted]')
  })

  /** A key with the characters a URL encodes, and the ways a service or a proxy may percent-encode it. */
  const urlKey = 'Sk+live/AbC=dEf+0123/xyz'
  const percentForms: [string, (k: string) => string][] = [
    ['upper-case hex', (k) => encodeURIComponent(k)],
    ['lower-case hex (%2b%2f)', (k) => encodeURIComponent(k).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ['lower-case hex, the key folded too', (k) => encodeURIComponent(k).toLowerCase()],
    ['mixed-case hex', (k) => encodeURIComponent(k).replace(/%2B/g, '%2b')],
    ['every character encoded', (k) => [...Buffer.from(k)].map((b) => `%${b.toString(16)}`).join('')],
    ['encoded twice (a URL inside a URL)', (k) => encodeURIComponent(encodeURIComponent(k)).toLowerCase()],
  ]

  it.each(percentForms)(
    'a service message that quotes the key percent-encoded, %s, has it redacted',
    async (_form, encode) => {
      expect(encode(urlKey)).not.toContain(urlKey)
      next = {
        status: 401,
        body: JSON.stringify({
          errors: { code: 401, message: `bad token in /v1/domains?token=${encode(urlKey)}` },
          request_id: 'r-1',
        }),
      }
      const c = createApiClient({ baseUrl: url, apiKey: urlKey, serverPaths: sb.serverPaths, retry: fastRetry })
      const err = await caught(c.call('logs.list', {}))
      expect(exposedText(err).toLowerCase()).not.toContain(encode(urlKey).toLowerCase())
      expect(english(err)).toContain('token=[redacted]')
    },
  )

  it.each(percentForms)(
    'a key an answer echoes in any field, percent-encoded %s, is redacted before anyone reads the answer',
    async (_form, encode) => {
      // The service's log, as the window's Requests screen shows it: a logged request and answer that carry the key.
      const entry = {
        request_id: 'r-9',
        datetime: '2030-01-01 00:00:00',
        method: 'GET',
        path: `/v1/domains?token=${encode(urlKey)}`,
        request: `{"key":"${urlKey.toLowerCase()}"}`,
        response: `{"errors":{"message":"token ${encode(urlKey)}"}}`,
        addr: '192.0.2.1',
      }
      next = {
        status: 200,
        body: JSON.stringify({ results: [entry], paging: { max: 1, page: 1, limit: 10 }, request_id: 'r-3' }),
      }
      const c = createApiClient({ baseUrl: url, apiKey: urlKey, serverPaths: sb.serverPaths, retry: fastRetry })
      const [logged] = await c.call('logs.list', {})
      expect(logged).toEqual({
        ...entry,
        path: '/v1/domains?token=[redacted]',
        request: '{"key":"[redacted]"}',
        response: '{"errors":{"message":"token [redacted]"}}',
      })
    },
  )

  it('a 200 whose results do not match the schema is malformed-response', async () => {
    next = { status: 200, body: JSON.stringify({ results: [{ domainid: 'not-a-number' }], request_id: 'r-2' }) }
    const c = createApiClient({ baseUrl: url, apiKey: 'k', serverPaths: sb.serverPaths })
    const err = await caught(c.call('domains.list', {}))
    expect(err.kind).toBe('malformed-response')
    expect(err.requestId).toBe('r-2')
  })
})
