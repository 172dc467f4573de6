/**
 * No value can retarget a call: every path parameter of every operation of the endpoint
 * table is tried with values that URL parsing would resolve or split ("", ".", "..", "a/b",
 * control characters...). Each is refused as a validation error and the service receives
 * nothing. Generated from the table, so a new operation is covered without editing this.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { AppError } from '../../src/main/base/app-error'
import { ENDPOINT_NAMES, endpoints, isSafePathSegment, pathParamNames } from '@shared/endpoints/table'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { makeFixture, sampleOf, type Fixture } from '../helpers/operation-samples'
import { rawPayload } from '../helpers/raw-payload'
import { appErrorOf } from '../helpers/english'

const BAD_VALUES = [
  '',
  ' ',
  '.',
  '..',
  '../x',
  'a/b',
  '/',
  'x/..',
  'a\\b',
  'a\nb',
  'a\tb',
  '\u0000',
  'a\u007fb',
  '%2e%2e',
  'a?b=c',
  'a#b',
  '. .',
  '...',
]

let sb: Sandbox
let client: ApiClient
let fixture: Fixture

beforeAll(async () => {
  sb = await startSandbox()
  client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
  fixture = await makeFixture(sb, client)
})
afterAll(() => sb.close())

const cases = ENDPOINT_NAMES.flatMap((name) =>
  pathParamNames(endpoints[name].path)
    .filter((p) => p !== 'kind') // an enum of three words, mapped to the account's own path words
    .map((param) => [name, param] as const),
)

describe('path values', () => {
  it('covers every path parameter of the table', () => {
    expect(cases.length).toBeGreaterThanOrEqual(45)
  })

  it.each(cases)('%s: %s refuses every value that is not one path segment of its shape', async (name, param) => {
    const sample = sampleOf(name, fixture)
    for (const bad of BAD_VALUES) {
      const before = sb.received.length
      const input = { ...sample.input, [param]: bad }
      const err = await client.call(name, rawPayload(input)).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(err, `${name} ${param}=${JSON.stringify(bad)} was sent`).toBeInstanceOf(AppError)
      expect(appErrorOf(err).kind, `${name} ${param}=${JSON.stringify(bad)}`).toBe('validation')
      expect(sb.received.length, `${name} ${param}=${JSON.stringify(bad)} reached the service`).toBe(before)
    }
  })

  // A server path takes the server's name as well as its id (issue 22): the name is the new
  // form, so values built on a real name are tried too, and the name itself must arrive whole.
  const serverCases = cases.filter(([, param]) => param === 'webid')
  it('every server path operation is among them', () => {
    expect(serverCases.map(([name]) => name).sort()).toEqual(
      ENDPOINT_NAMES.filter((n) => n.startsWith('servers.') && endpoints[n].path.includes('{webid}')).sort(),
    )
    expect(serverCases).toHaveLength(7)
  })

  it.each(serverCases)(
    '%s: a name goes out as one segment; a name with anything more is refused',
    async (name, param) => {
      const webname = sb.state.servers.b[0]!.webname
      const sample = sampleOf(name, fixture)
      const bad = [
        `${webname}/..`,
        `${webname}/x`,
        `../${webname}`,
        `${webname}?x=1`,
        `${webname}#x`,
        `${webname}%2f`,
        `${webname}.`,
        `${webname} `,
        `${webname}\n`,
        `.${webname}`,
        `-${webname}`,
      ]
      for (const v of bad) {
        const before = sb.received.length
        const err = await client.call(name, rawPayload({ ...sample.input, [param]: v })).then(
          () => undefined,
          (e: unknown) => e,
        )
        expect(err, `${name} ${param}=${JSON.stringify(v)} was sent`).toBeInstanceOf(AppError)
        expect(appErrorOf(err).kind, `${name} ${param}=${JSON.stringify(v)}`).toBe('validation')
        expect(sb.received.length, `${name} ${param}=${JSON.stringify(v)} reached the service`).toBe(before)
      }
      await client.call(name, rawPayload({ ...sample.input, [param]: webname }))
      const wanted = sample.path.replace(String(fixture.webidB), webname)
      expect(sb.received.at(-1)).toMatchObject({ endpoint: name, path: `/v1${wanted}`, status: 200 })
    },
  )

  it('the guard itself refuses what would not stay one segment', () => {
    for (const bad of ['', '.', '..', 'a/b', 'a\\b', 'a\nb', '%2e', 'a?b', 'a#b'])
      expect(isSafePathSegment(bad), bad).toBe(false)
    for (const good of ['example.com', '12345', 'REG1-2B9R', 'ns1.example.com', 'req-abc.1:2'])
      expect(isSafePathSegment(good), good).toBe(true)
  })
})
