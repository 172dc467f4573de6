/**
 * The sandbox's `hold` fault: a request waits, nothing carried out, until the test lets it go;
 * then it is served as usual. Tests use it to decide when an answer comes instead of guessing
 * how long a machine takes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox'

let sb: Sandbox
/** How long a request may take to reach the sandbox over the loopback (vi.waitFor's default, 1 s, is short on a loaded machine). */
const HELD_WAIT = { timeout: 10_000 }
const get = (path: string) => fetch(`${sb.url}${path}`, { headers: { authorization: `Bearer ${sb.keys.full}` } })
const renew = (domain: string) =>
  fetch(`${sb.url}/domains/expiration`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${sb.keys.full}`, 'content-type': 'application/json' },
    body: JSON.stringify({ domain, years: 1 }),
  })

beforeAll(async () => {
  sb = await startSandbox({ domains: 5 })
})
afterAll(async () => {
  await sb.close()
})

describe('a held request', () => {
  it('is recorded, not carried out, until released; then it is served as usual, oldest first', async () => {
    const [d1, d2] = sb.state.domains
    const before = [d1!.expirationdate, d2!.expirationdate]
    sb.faults.inject('domains.expiration.renew', { hold: true, times: 2 })
    let answered = 0
    const first = renew(d1!.domainname).then((r) => (answered++, r))
    await vi.waitFor(() => expect(sb.faults.held()).toBe(1), HELD_WAIT)
    const second = renew(d2!.domainname).then((r) => (answered++, r))
    await vi.waitFor(() => expect(sb.faults.held('domains.expiration.renew')).toBe(2), HELD_WAIT)
    expect(sb.faults.held('domains.get')).toBe(0)
    // Received, with no answer and no effect.
    const renewals = () => sb.received.filter((r) => r.endpoint === 'domains.expiration.renew')
    expect(renewals().map((r) => r.status)).toEqual([0, 0])
    expect([d1!.expirationdate, d2!.expirationdate]).toEqual(before)
    // Another endpoint is not held.
    expect((await get('/domains?limit=1')).status).toBe(200)
    // The third renewal is past `times`: it goes through at once.
    expect((await renew(sb.state.domains[2]!.domainname)).status).toBe(200)
    expect(answered).toBe(0)

    expect(sb.faults.release(1)).toBe(1)
    expect((await first).status).toBe(200)
    expect(d1!.expirationdate).not.toBe(before[0])
    expect(d2!.expirationdate).toBe(before[1])
    expect(answered).toBe(1)
    expect(sb.faults.held()).toBe(1)

    // clear() lets the rest go.
    sb.faults.clear()
    expect((await second).status).toBe(200)
    expect(sb.faults.held()).toBe(0)
    expect(sb.faults.release()).toBe(0)
  })

  it('keeps the spec’s other effect for when it is released', async () => {
    sb.faults.inject('svcips.list', { hold: true, status: 503, times: 1 })
    const answer = get('/svcips')
    await vi.waitFor(() => expect(sb.faults.held()).toBe(1), HELD_WAIT)
    sb.faults.release()
    expect((await answer).status).toBe(503)
  })
})
