/** The HTTP status of an API log entry, read from the response the service logged; and the log filters. */
import { describe, expect, it } from 'vitest'
import {
  filterActive,
  logRow,
  logStatus,
  matchesLogFilter,
  pastDate,
  type LogRow,
} from '../../src/renderer/src/lib/data/log-entry'
import { startSandbox } from '../../src/sandbox'

describe('the status of a log entry', () => {
  it('an error envelope holds the status in errors.code', () => {
    expect(logStatus('{"errors":{"code":500,"message":"Internal Server Error"},"request_id":"r1"}')).toEqual({
      outcome: 'error',
      code: 500,
    })
    expect(logStatus('{"errors":{"code":"404","message":"Not found"}}')).toEqual({ outcome: 'error', code: 404 })
    // An error without a usable code: an error, status unknown.
    expect(logStatus('{"errors":{"message":"?"}}')).toEqual({ outcome: 'error', code: undefined })
    expect(logStatus('{"errors":{"code":7}}')).toEqual({ outcome: 'error', code: undefined })
  })

  it('a result envelope is the service’s success answer, 200', () => {
    expect(logStatus('{"results":{"domainid":1},"request_id":"r2"}')).toEqual({ outcome: 'success', code: 200 })
    expect(logStatus('{"results":[],"paging":{"max":0,"page":1,"limit":50}}')).toEqual({
      outcome: 'success',
      code: 200,
    })
  })

  it('a body logged cut short still says which envelope it is', () => {
    expect(logStatus(`{"results":[{"domainname":"${'a'.repeat(4000)}`.slice(0, 4000) + '…')).toEqual({
      outcome: 'success',
      code: 200,
    })
    expect(logStatus('{ "errors": { "code": 503, "message": "Service Unav…')).toEqual({ outcome: 'error', code: 503 })
  })

  it('anything else is unknown, never guessed', () => {
    for (const body of ['', 'OK', '<html>Bad Gateway</html>', '[]', 'null', '{"request_id":"r3"}', '{"res']) {
      expect(logStatus(body), body).toEqual({ outcome: 'unknown' })
    }
  })

  it('reads what the sandbox really logs: success, an error, and a long answer cut short', async () => {
    const sb = await startSandbox({ domains: 80 })
    try {
      const get = (path: string, key = sb.keys.full) =>
        fetch(`${sb.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
      await get('/domains?limit=80')
      await get('/domains/no-such-domain.com')
      sb.faults.inject('svcips.list', { status: 503, times: 1 })
      await get('/svcips')
      const statuses = sb.state.logs.map((l) => ({
        path: l.path.split('?')[0],
        long: l.response.endsWith('…'),
        status: logStatus(l.response),
      }))
      expect(statuses).toEqual([
        { path: '/v1/domains', long: true, status: { outcome: 'success', code: 200 } },
        // A domain the account does not hold: 400 "domainname is invalid." (recorded).
        { path: '/v1/domains/no-such-domain.com', long: false, status: { outcome: 'error', code: 400 } },
        { path: '/v1/svcips', long: false, status: { outcome: 'error', code: 503 } },
      ])
    } finally {
      await sb.close()
    }
  })
})

describe('log filters', () => {
  const row = (over: Partial<LogRow> = {}): LogRow => ({
    request_id: 'r',
    datetime: '2026-01-02 03:04:05',
    method: 'GET',
    path: '/v1/domains',
    status: { outcome: 'success', code: 200 },
    ...over,
  })
  const none = { method: '', path: '', date: '', errorsOnly: false }

  it('errors only keeps the entries whose response is an error', () => {
    const f = { ...none, errorsOnly: true }
    expect(matchesLogFilter(row(), f)).toBe(false)
    expect(matchesLogFilter(row({ status: { outcome: 'error', code: 500 } }), f)).toBe(true)
    expect(matchesLogFilter(row({ status: { outcome: 'unknown' } }), f)).toBe(false)
    expect(filterActive(f)).toBe(true)
    expect(filterActive(none)).toBe(false)
  })

  it('method, path (any case) and day', () => {
    expect(matchesLogFilter(row(), { ...none, method: 'GET', path: 'DOMAINS', date: '2026-01-02' })).toBe(true)
    expect(matchesLogFilter(row(), { ...none, method: 'PUT' })).toBe(false)
    expect(matchesLogFilter(row(), { ...none, date: '2026-01-03' })).toBe(false)
  })

  it('a page that ends past the day: the pages after it cannot hold that day', () => {
    const page = [row({ datetime: '2026-01-03 00:00:01' }), row({ datetime: '2026-01-01 23:59:59' })]
    expect(pastDate(page, '2026-01-02', true)).toBe(true)
    expect(pastDate(page, '2026-01-01', true)).toBe(false)
    expect(pastDate([...page].reverse(), '2026-01-02', false)).toBe(true)
    expect(pastDate(page, '', true)).toBe(false)
  })

  it('a row keeps no body', () => {
    const r = logRow({
      request_id: 'x',
      datetime: 'd',
      method: 'GET',
      path: '/v1/logs',
      request: '',
      response: '{"results":[]}',
      addr: '127.0.0.1',
    })
    expect(r).toEqual({
      request_id: 'x',
      datetime: 'd',
      method: 'GET',
      path: '/v1/logs',
      status: { outcome: 'success', code: 200 },
    })
  })
})
