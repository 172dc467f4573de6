/**
 * A server path names the server by its numeric id or by its name (issue 22, the service's
 * server documentation). The sandbox is asked directly, as the service would be, so what is
 * checked is its lookup and not the app's validators; then once through the app's client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { createApiClient } from '../../src/main/http'

let sb: Sandbox

beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())

async function ask(
  method: 'GET' | 'PUT',
  path: string,
  body?: unknown,
): Promise<{ status: number; results: Record<string, unknown> }> {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sb.keys.full}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  const json = z.object({ results: z.record(z.string(), z.unknown()).optional() }).parse(await res.json())
  return { status: res.status, results: json.results ?? {} }
}

describe('the sandbox finds a server by id or by name', () => {
  const reads = ['', '/expiration', '/autorenew', '/resource']

  it.each(reads)('GET /{servers}/{webid}%s: the same server by its id and by its name', async (tail) => {
    const s = sb.state.servers.b[1]!
    const word = sb.serverPaths.b
    const byId = await ask('GET', `/${word}/${s.webid}${tail}`)
    const byName = await ask('GET', `/${word}/${s.webname}${tail}`)
    expect(byId.status).toBe(200)
    expect(byName.status).toBe(200)
    expect(byName.results).toEqual(byId.results)
    expect(byName.results).toMatchObject({ webid: String(s.webid), webname: s.webname })
  })

  it('a write by name changes that server and no other', async () => {
    const [s, other] = sb.state.servers.a
    const before = { s: s!.expirationdate, other: other!.expirationdate }
    const r = await ask('PUT', `/${sb.serverPaths.a}/${s!.webname}/expiration`, { months: 2 })
    expect(r.status).toBe(200)
    expect(r.results).toMatchObject({ webid: String(s!.webid), webname: s!.webname })
    expect(s!.expirationdate).not.toBe(before.s)
    expect(other!.expirationdate).toBe(before.other)
    const res = await ask('PUT', `/${sb.serverPaths.a}/${s!.webname}/resource`, { type: 'db_num', num: 7 })
    expect(res.status).toBe(200)
    expect(s!.resource.db_num).toBe(7)
  })

  it('404 for neither: an unknown name, an unknown id, a name of another kind, a name in another case', async () => {
    const a = sb.state.servers.a[0]!
    const unknownId =
      Math.max(
        ...Object.values(sb.state.servers)
          .flat()
          .map((s) => s.webid),
      ) + 1000
    for (const path of [
      `/${sb.serverPaths.a}/no-such-server`,
      `/${sb.serverPaths.a}/${unknownId}`,
      `/${sb.serverPaths.b}/${a.webname}`,
      `/${sb.serverPaths.b}/${a.webid}/expiration`,
      `/${sb.serverPaths.a}/${a.webname.toUpperCase()}/autorenew`,
    ]) {
      expect((await ask('GET', path)).status, path).toBe(404)
    }
  })

  it('digits are always an id: a server whose name is all digits is not found by it', async () => {
    const s = sb.state.servers.c[0]!
    const original = s.webname
    s.webname = '777'
    try {
      expect((await ask('GET', `/${sb.serverPaths.c}/777`)).status).toBe(404)
      expect((await ask('GET', `/${sb.serverPaths.c}/${s.webid}`)).results).toMatchObject({ webname: '777' })
    } finally {
      s.webname = original
    }
  })

  it('through the app: a name is sent in the path as it is, and answered for that server', async () => {
    const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    const s = sb.state.servers.c[1]!
    const got = await client.call('servers.autorenew.get', { kind: 'c', webid: s.webname })
    expect(got).toMatchObject({ webid: String(s.webid), webname: s.webname })
    expect(sb.received.at(-1)).toMatchObject({
      endpoint: 'servers.autorenew.get',
      path: `/v1/${sb.serverPaths.c}/${s.webname}/autorenew`,
      status: 200,
    })
  })
})
