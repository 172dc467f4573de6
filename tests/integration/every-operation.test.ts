/**
 * Every operation of API-SPEC.md through the real client, over real loopback HTTP,
 * against the sandbox. The expected method, path and body of each call are
 * written out by hand from the spec (tests/helpers/operation-samples.ts), so this
 * checks the endpoint table against the spec rather than against itself.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { ENDPOINT_NAMES } from '@shared/endpoints/table'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { makeFixture, sampleOf, samples, type Fixture } from '../helpers/operation-samples'

describe('every operation of the spec through the client', () => {
  let sb: Sandbox
  let client: ApiClient
  let fixture: Fixture

  beforeEach(async () => {
    sb = await startSandbox()
    client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    fixture = await makeFixture(sb, client)
    sb.received.length = 0
  })
  afterEach(async () => {
    await sb.close()
  })

  it('the table and this list name the same operations (70 in the spec)', () => {
    expect(Object.keys(samples).sort()).toEqual([...ENDPOINT_NAMES].sort())
    expect(ENDPOINT_NAMES).toHaveLength(70)
  })

  for (const name of ENDPOINT_NAMES) {
    it(`${name}: sends what the spec says and decodes the answer`, async () => {
      const sample = sampleOf(name, fixture)
      const env = await client.send(name, sample.input)

      expect(sb.received).toHaveLength(1)
      const got = sb.received[0]!
      expect(got.endpoint).toBe(name)
      expect(got.method).toBe(sample.method)
      expect(got.url).toBe(`/v1${sample.path}`)
      expect(got.status).toBe(200)
      expect(got.headers.authorization).toBe(`Bearer ${sb.keys.full}`)
      expect(got.headers.accept).toBe('application/json')
      if (sample.body !== undefined) {
        expect(got.headers['content-type']).toBe('application/json')
        expect(Number(got.headers['content-length'])).toBe(Buffer.byteLength(got.rawBody))
        expect(got.body).toEqual(sample.body)
      } else if (sample.method === 'GET') {
        expect(got.rawBody).toBe('')
      }
      if (sample.method === 'POST' || sample.method === 'PUT') expect(got.headers['content-length']).toBeDefined()
      // A DELETE carries no body; undici then omits Content-Length (RFC 7230 section 3.3.2).
      if (sample.method === 'DELETE') expect(got.rawBody).toBe('')
      expect(env.requestId).toMatch(/^req-/)
      expect(env.results).toBeDefined()
    })
  }
})
