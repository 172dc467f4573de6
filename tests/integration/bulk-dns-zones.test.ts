/**
 * The store.zones channel the bulk DNS change chooses its zones from: every zone read, of
 * every account or of one, through the real router, store and sandbox; a bad payload is refused.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { profileFor } from '../../support/profile'
import { routerCalls } from '../helpers/router-calls'
import { match } from '../helpers/matchers'

const APP = 'app://app'
const sender = { url: `${APP}/index.html`, key: 'page', sendProgress: () => undefined, sendJob: () => true }

let sb: Sandbox
let services: AppServices
const { call } = routerCalls(() => services, sender)

beforeAll(async () => {
  sb = await startSandbox({ keys: { full: 'key-zones' } })
  services = await createAppServices({
    userDataDir: mkdtempSync(join(tmpdir(), 'zones-')),
    allowedOrigins: [APP],
    keychain: async () => new SessionSecretStore(),
  })
})
afterAll(async () => {
  await services.close()
  await sb.close()
})

describe('store.zones', () => {
  it('lists the zones read, per account, with their kind, settings and record count, and refuses a bad account id', async () => {
    const account = await services.accounts.create(profileFor(sb, 'Zones'), 'key-zones', 'session')
    const domain = sb.state.domains[0]!.domainname
    const free = sb.state.freedns[0]!.domainname
    expect(await call('domains.dns.get', { accountId: account.id, domain })).toMatchObject({ ok: true })
    expect(await call('freedns.get', { accountId: account.id, domain: free })).toMatchObject({ ok: true })

    const all = await call('store.zones', {})
    if (!all.ok) throw new Error(all.error.code)
    const mine = await call('store.zones', { accountId: account.id })
    expect(mine).toEqual(all)
    expect(all.value).toEqual([
      expect.objectContaining({
        accountId: account.id,
        kind: 'dns',
        domain,
        ttl: 3600,
        ns_type: match.any(String),
        recordCount: match.any(Number),
      }),
      expect.objectContaining({ accountId: account.id, kind: 'freedns', domain: free, ttl: 3600 }),
    ])
    expect(await call('store.zones', { accountId: 'another' })).toEqual({ ok: true, value: [] })
    expect(await call('store.zones', { accountId: 'Not An Id!' })).toMatchObject({
      ok: false,
      error: { kind: 'validation', code: 'ipc.invalidPayload' },
    })
  })
})
