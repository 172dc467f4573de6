/**
 * What a history row keeps of a write (issue 39, point 4), through the real IPC router, the real
 * job runner, a real store file and the sandbox over loopback: a save that changes only the
 * zone's TTL keeps the TTL before and after; a server extension keeps the new expiry the service
 * answered, under the server's name whether the write named it by id or by name; dynamic DNS
 * keeps off and on, read from the service before the write, and never its password.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import type { JobView } from '@shared/jobs'
import type { WriteEndpointName } from '@shared/endpoints/names'
import { asGuardedItem } from '../helpers/zone-guard'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'
import { nsFlavour } from '../../src/sandbox/nameservers'

let sb: Sandbox
let services: AppServices
let accountId: string
let outside: ApiClient

const { ok } = routerCalls(() => services)
async function write(operation: WriteEndpointName, params: Record<string, unknown>): Promise<JobView> {
  const item = await asGuardedItem(operation, params, outside)
  const { job, token } = await ok('jobs.prepare', { accountId, operation, items: [item] })
  return ok('jobs.start', { jobId: job.id, ...(token ? { token } : {}) })
}
const rowsOf = async (job: JobView) =>
  (await ok('history.list', { accountId, limit: 500 })).filter((h) => h.jobId === job.id)

beforeAll(async () => {
  sb = await startSandbox({ domains: 8 })
  services = await createAppServices({
    userDataDir: mkdtempSync(join(tmpdir(), 'history-facts-')),
    allowedOrigins: [APP],
    keychain: async () => new SessionSecretStore(),
  })
  accountId = (
    await ok('accounts.create', { fields: profileFor(sb, 'Main', 1500), apiKey: sb.keys.full, storage: 'session' })
  ).id
  outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
})
afterAll(async () => {
  await services.close()
  await sb.close()
})

describe('what a history row keeps', () => {
  it('a save that changes only the zone’s TTL keeps the TTL before and after', async () => {
    const domain = sb.state.domains.find((d) => nsFlavour(d) !== 'registrar')!.domainname
    const zone = await outside.call('domains.dns.get', { domain })
    const to = zone.ttl === 600 ? 900 : 600
    const job = await write('domains.dns.set', { domain, ns_type: zone.ns_type, records: zone.records, ttl: to })
    expect(job.items[0]?.state).toBe('done')
    const [row] = await rowsOf(job)
    expect(row).toMatchObject({
      aspect: 'dns',
      subject: domain,
      before: { ttl: zone.ttl, records: zone.records },
      after: { ttl: to, records: zone.records },
    })
  })

  it('a server extension keeps the new expiry the service answered, under the server’s name however the write named it', async () => {
    const server = sb.state.servers.b[0]!
    const was = server.expirationdate
    const byId = await write('servers.expiration.extend', { kind: 'b', webid: server.webid, months: 3 })
    expect(byId.items[0]?.state).toBe('done')
    const now = (await outside.call('servers.expiration.get', { kind: 'b', webid: server.webid })).expirationdate
    expect(now).not.toBe(was)
    const [first] = await rowsOf(byId)
    expect(first).toMatchObject({
      subjectKind: 'server',
      subject: `b:${server.webname}`,
      aspect: 'expiration',
      before: { expirationdate: was },
      after: { expirationdate: now },
    })

    const byName = await write('servers.expiration.extend', { kind: 'b', webid: server.webname, months: 1 })
    expect(byName.items[0]?.state).toBe('done')
    const [second] = await rowsOf(byName)
    expect(second).toMatchObject({ subject: `b:${server.webname}`, before: { expirationdate: now } })
    expect(second?.after).toEqual({
      expirationdate: (await outside.call('servers.expiration.get', { kind: 'b', webid: server.webid })).expirationdate,
    })
  })

  it('a server the write names by id and the app has listed is named too, when its write failed', async () => {
    const server = sb.state.servers.a[0]!
    await ok('all.servers.list', { accountId, kind: 'a', callId: 'servers-a' })
    sb.faults.inject('servers.expiration.extend', { status: 403, times: 1 })
    const job = await write('servers.expiration.extend', { kind: 'a', webid: server.webid, months: 1 })
    expect(job.items[0]?.state).toBe('failed')
    const [row] = await rowsOf(job)
    expect(row?.subject).toBe(`a:${server.webname}`)
  })

  it('dynamic DNS keeps off and on as the service holds them, and never its password', async () => {
    const d = sb.state.domains[2]!
    d.dynamicdns = 0
    const job = await write('domains.dynamicdns.set', {
      domain: d.domainname,
      dynamicdns: 1,
      password: 'correct-horse-battery',
    })
    expect(job.items[0]?.state).toBe('done')
    const [row] = await rowsOf(job)
    expect(row).toMatchObject({ aspect: 'dynamicdns', before: { dynamicdns: 0 }, after: { dynamicdns: 1 } })
    expect(JSON.stringify(row)).not.toContain('correct-horse-battery')
  })
})
