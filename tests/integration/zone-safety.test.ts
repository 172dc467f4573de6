/**
 * Zone safety in main, through the real IPC router and sandbox: every zone save says what it was
 * planned from, is checked against it (records, TTL and ns_type) just before it is sent, and a
 * save over the safety rule (more than 30 % of a zone of 10 records or more, or the apex NS
 * records, however the apex is written) goes out only with its own confirmation, whoever asks.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import type { JobRequest } from '@shared/jobs'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'

let sb: Sandbox
let services: AppServices
let outside: ApiClient
let accountId: string
const { call, ok } = routerCalls(() => services)

beforeAll(async () => {
  sb = await startSandbox({ domains: 8 })
  services = await createAppServices({
    userDataDir: mkdtempSync(join(tmpdir(), 'zone-safety-')),
    allowedOrigins: [APP],
    keychain: async () => new SessionSecretStore(),
  })
  ;({ id: accountId } = await ok('accounts.create', {
    fields: profileFor(sb, 'Main'),
    apiKey: sb.keys.full,
    storage: 'session',
  }))
  outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
})
afterAll(async () => {
  await services.close()
  await sb.close()
})

const editable = () => sb.state.domains.filter((d) => nsFlavour(d) !== 'registrar').map((d) => d.domainname)
const puts = () => sb.received.filter((r) => r.endpoint === 'domains.dns.set' && r.method === 'PUT').length
/** Sets a zone past the app: `n` A records, one NS at the apex written as `apex`. */
async function zoneOf(domain: string, n: number, apex = '@') {
  const records = [
    `ns ${apex} ns1.example.net.`,
    ...Array.from({ length: n - 1 }, (_, i) => `a h${i} 192.0.2.${i + 1}`),
  ].join('\n')
  await outside.call('domains.dns.set', { domain, ns_type: 'svc1', records, ttl: 3600 })
  return outside.call('domains.dns.get', { domain })
}
const submit = (items: JobRequest['items']) => call('jobs.submit', { accountId, operation: 'domains.dns.set', items })

describe('a zone save sent straight over IPC', () => {
  it('without the zone it was planned from: refused at prepare, nothing sent', async () => {
    const domain = editable()[0]!
    const before = puts()
    const r = await submit([{ params: { domain, ns_type: 'svc1', records: 'a @ 192.0.2.1' } }])
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'ipc.invalidPayload', issues: [{ path: 'items.0.guard', code: 'dns.guardRequired' }] },
    })
    expect(puts()).toBe(before)
  })

  it('over the 30 % rule: refused without its own confirmation, sent with it and journaled so', async () => {
    const domain = editable()[1]!
    const zone = await zoneOf(domain, 12)
    // 4 of 12 records changed: 33 %.
    const records = zone.records.replace(/192\.0\.2\.([1-4])$/gm, '198.51.100.$1')
    const before = puts()
    const item = { params: { domain, ns_type: zone.ns_type, records }, guard: { records: zone.records } }
    expect(await submit([item])).toMatchObject({
      ok: false,
      error: { code: 'dns.overSafetyRule', params: { zones: domain, percent: 30, min: 10 } },
    })
    expect(puts()).toBe(before)
    const done = await ok('jobs.submit', {
      accountId,
      operation: 'domains.dns.set',
      items: [{ ...item, overRule: true }],
    })
    expect(done.items[0]).toMatchObject({ state: 'done', overRule: true })
    expect(puts()).toBe(before + 1)
    // 3 of 12 is 25 %: no confirmation of its own.
    const fresh = await outside.call('domains.dns.get', { domain })
    const three = fresh.records.replace(/198\.51\.100\.([1-3])$/gm, '203.0.113.$1')
    const small = await ok('jobs.submit', {
      accountId,
      operation: 'domains.dns.set',
      items: [{ params: { domain, ns_type: zone.ns_type, records: three }, guard: { records: fresh.records } }],
    })
    expect(small.items[0]).toMatchObject({ state: 'done' })
    expect(small.items[0]!.overRule).toBeUndefined()
  })

  it('below the floor of 10 records the share does not count; the apex NS always does, written as the full name too', async () => {
    const domain = editable()[2]!
    const zone = await zoneOf(domain, 3)
    const all = zone.records.replace(/192\.0\.2\./g, '198.51.100.')
    const done = await ok('jobs.submit', {
      accountId,
      operation: 'domains.dns.set',
      items: [{ params: { domain, ns_type: zone.ns_type, records: all }, guard: { records: zone.records } }],
    })
    expect(done.items[0]).toMatchObject({ state: 'done' })
    const named = await zoneOf(domain, 3, `${domain.toUpperCase()}.`)
    const before = puts()
    const moved = named.records.replace('ns1.example.net.', 'ns1.elsewhere.example.')
    expect(
      await submit([{ params: { domain, ns_type: named.ns_type, records: moved }, guard: { records: named.records } }]),
    ).toMatchObject({ ok: false, error: { code: 'dns.overSafetyRule' } })
    expect(puts()).toBe(before)
  })

  it('a TTL or DNS service changed at the service since the plan: nothing sent for it', async () => {
    const domain = editable()[3]!
    const zone = await zoneOf(domain, 4)
    const planned = { records: zone.records, ttl: zone.ttl, ns_type: zone.ns_type }
    // Someone else changes only the TTL.
    await outside.call('domains.dns.set', { domain, ns_type: zone.ns_type, records: zone.records, ttl: 7200 })
    const before = puts()
    const job = await ok('jobs.submit', {
      accountId,
      operation: 'domains.dns.set',
      items: [
        { params: { domain, ns_type: zone.ns_type, records: `${zone.records}\na new 192.0.2.99` }, guard: planned },
      ],
    })
    expect(job.items[0]).toMatchObject({ state: 'failed', error: { code: 'dns.changedSincePlan' } })
    expect(puts()).toBe(before)
    expect((await outside.call('domains.dns.get', { domain })).ttl).toBe(7200)
  })

  // Issue 41, point 2: a line that hides a record gets past no screen and no rule: main refuses it
  // with its place, even with the zone it was planned from and the over-rule confirmation.
  it.each([
    ['a lone CR', 'a www 192.0.2.1\rns @ ns.evil.example.', 'U+000D', 16],
    ['U+2028', 'txt @ ok\u2028ns @ ns.evil.example.', 'U+2028', 9],
    ['U+2029', 'a www 192.0.2.1\u2029ns @ ns.evil.example.', 'U+2029', 16],
    ['NEL', 'a www 192.0.2.1\u0085ns @ ns.evil.example.', 'U+0085', 16],
    ['NUL', 'txt @ a\u0000b', 'U+0000', 8],
    ['ESC', 'txt @ a\u001b[2Kb', 'U+001B', 8],
  ])(
    'a zone line with %s: refused at prepare with its line and column, nothing sent',
    async (_what, line, character, column) => {
      const domain = editable()[3]!
      const zone = await zoneOf(domain, 5)
      const before = puts()
      const r = await submit([
        {
          params: { domain, ns_type: zone.ns_type, records: `${zone.records}\n${line}` },
          guard: { records: zone.records },
          overRule: true,
        },
      ])
      expect(r).toMatchObject({
        ok: false,
        error: {
          code: 'ipc.invalidPayload',
          issues: [
            {
              path: 'items.0.records',
              code: 'dns.hiddenCharacter',
              params: { line: zone.records.split('\n').length + 1, column, character },
            },
          ],
        },
      })
      expect(puts()).toBe(before)
    },
  )
})
