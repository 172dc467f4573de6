/**
 * The demo account's sandbox as the app runs it: the key is checked before a byte of the body
 * is read, bodies are capped, nothing is recorded, and it runs only while it is used.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { request as httpRequest } from 'node:http'
import { sandboxDemo } from '../../src/main/accounts/demo'

type Demo = ReturnType<typeof sandboxDemo>
let demos: Demo[] = []
afterEach(async () => {
  await Promise.all(demos.map((d) => d.close()))
  demos = []
})
const makeDemo = () => {
  const d = sandboxDemo()
  demos.push(d)
  return d
}

/**
 * Streams `total` bytes of body in 64 KB chunks and reports how many were written before the
 * server answered, and its status. Bounded: it stops writing once answered or after `total`.
 */
function streamBody(
  url: string,
  total: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; written: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(total), ...headers },
    })
    let written = 0
    let answered = false
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    req.on('response', (res) => {
      answered = true
      res.resume()
      resolve({ status: res.statusCode ?? 0, written })
    })
    // The server closes the connection once it has answered; that is expected here.
    req.on('error', (err) => (answered ? undefined : reject(err)))
    const pump = () => {
      while (!answered && written < total) {
        written += chunk.length
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      if (!answered) req.end()
    }
    pump()
  })
}

describe('the demo sandbox in the app', () => {
  it('answers a call without the key before reading its body: a 100 MB upload is cut short', async () => {
    const demo = makeDemo()
    const { baseUrl } = await demo.start()
    const r = await streamBody(`${baseUrl}/domains/example.com/dns`, 100 * 1024 * 1024)
    expect(r.status).toBe(401)
    // Far less than the body was sent before the answer came (socket buffers allow a few MB at most).
    expect(r.written).toBeLessThan(20 * 1024 * 1024)
  })

  it('refuses a body over 1 MB with 413, even with the key, and keeps serving', async () => {
    const demo = makeDemo()
    const { baseUrl, apiKey } = await demo.start()
    const r = await streamBody(`${baseUrl}/domains/example.com/dns`, 3 * 1024 * 1024, {
      authorization: `Bearer ${apiKey}`,
    })
    expect(r.status).toBe(413)
    const ok = await fetch(`${baseUrl}/domains?limit=1&page=1`, { headers: { authorization: `Bearer ${apiKey}` } })
    expect(ok.status).toBe(200)
  })

  it('records no request, and keeps its data across a stop and a start', async () => {
    const demo = makeDemo()
    expect(demo.running()).toBe(false)
    const first = await demo.start()
    expect(demo.running()).toBe(true)
    const headers = { authorization: `Bearer ${first.apiKey}`, 'content-type': 'application/json' }
    const sb = demo.sandbox()
    const domain = sb?.state.domains[0]?.domainname
    if (!sb || !domain) throw new Error('the demo has no domain')
    const set = await fetch(`${first.baseUrl}/domains/${domain}/transferlock`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ transfer_lock: 0 }),
    })
    expect(set.status).toBe(200)
    expect(sb.received).toEqual([])

    await demo.close()
    expect(demo.running()).toBe(false)
    await expect(fetch(`${first.baseUrl}/domains?limit=1`, { headers })).rejects.toThrow()

    const second = await demo.start()
    expect(second.apiKey).toBe(first.apiKey)
    const read = await fetch(`${second.baseUrl}/domains/${domain}/transferlock`, { headers })
    expect(await read.json()).toMatchObject({ results: { transfer_lock: 0 } })
  })
})
