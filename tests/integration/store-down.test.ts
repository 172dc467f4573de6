/**
 * The store never fails in silence: when its worker ends (here it runs out of memory, as a real
 * one may), the app says so (store.status), refuses a zone save whose snapshot cannot be kept
 * (nothing is sent; restore promises a snapshot before every save from this app), and Retry starts
 * the worker again, after which the same save goes out with its snapshot. The real services,
 * router, worker and sandbox.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { profileFor } from '../../support/profile'
import { accountLists } from '../../support/portfolio-data'
import { APP, routerCalls } from '../helpers/router-calls'
import { english } from '../helpers/english'

let sb: Sandbox
let services: AppServices
let accountId: string
const { ok } = routerCalls(() => services)

beforeAll(async () => {
  sb = await startSandbox({ domains: 4 })
  services = await createAppServices({
    userDataDir: mkdtempSync(join(tmpdir(), 'store-down-')),
    allowedOrigins: [APP],
    keychain: async () => new SessionSecretStore(),
    // A worker held to a small heap, and no restart of its own: the store stays down until Retry.
    storeWorker: { resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 }, maxRestarts: 0 },
  })
  ;({ id: accountId } = await ok('accounts.create', {
    fields: profileFor(sb, 'Main'),
    apiKey: sb.keys.full,
    storage: 'session',
  }))
})
afterAll(async () => {
  await services.close()
  await sb.close()
})

const puts = () => sb.received.filter((r) => r.endpoint === 'domains.dns.set' && r.method === 'PUT').length

describe('a store whose worker ended', () => {
  it('is said to be down, refuses a zone save it cannot snapshot (nothing sent), and after Retry the save goes out with its snapshot', async () => {
    const domain = sb.state.domains.filter((d) => nsFlavour(d) !== 'registrar')[0]!.domainname
    const zone = await createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths }).call(
      'domains.dns.get',
      { domain },
    )
    expect(await ok('store.status', {})).toEqual({ state: 'up', restarts: 0 })

    // More than the worker's heap, handed over in parts as every long list is: it runs out of memory.
    const template = accountLists({ domains: 1, seed: 5 }).domains[0]!
    const tooLarge = Array.from({ length: 400_000 }, (_, i) => ({
      ...template,
      domainid: i,
      domainname: `d${i}-${'x'.repeat(200)}.example`,
    }))
    await expect(
      services.store.putList(accountId, 'domains.list', {}, tooLarge, new Date().toISOString()),
    ).rejects.toMatchObject({ data: { code: 'store.workerStopped' } })
    expect(await ok('store.status', {})).toMatchObject({ state: 'gaveUp', reason: 'ERR_WORKER_OUT_OF_MEMORY' })

    const records = `${zone.records}\na storedown 192.0.2.55`
    const item = { params: { domain, ns_type: zone.ns_type, records }, guard: { records: zone.records } }
    const before = puts()
    const refused = await ok('jobs.submit', { accountId, operation: 'domains.dns.set', items: [item] })
    expect(refused.items[0]).toMatchObject({
      state: 'failed',
      error: { code: 'store.snapshotNotKept', params: { domain } },
    })
    expect(english(refused.items[0]!.error!)).toContain('Nothing was sent')
    expect(puts()).toBe(before)

    expect(await ok('store.restart', {})).toMatchObject({ state: 'up' })
    const saved = await ok('jobs.submit', { accountId, operation: 'domains.dns.set', items: [item] })
    expect(saved.items[0]).toMatchObject({ state: 'done' })
    expect(puts()).toBe(before + 1)
    const snapshots = await ok('history.snapshots', { accountId, kind: 'dns', domain })
    expect(snapshots.length).toBe(1)
  })
})
