/**
 * An unknown outcome is settled from the service's log only by the one matching entry logged
 * after the job began (its baseline, journaled with the job): an earlier identical renewal, a
 * missing baseline or two matches leave it unknown, saying why. Real runner, journal, store and
 * sandbox; a restart is the services closed and made again on the same data folder.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import type { JobView } from '@shared/jobs'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'

let sb: Sandbox
let dir: string
let services: AppServices
let accountId: string
let outside: ApiClient
// One keychain for every run of the app: its keys outlive a restart, as the system's do.
const keys = new SessionSecretStore()
const boot = () =>
  createAppServices({ userDataDir: dir, allowedOrigins: [APP], keychain: async () => keys, logCheckDelaysMs: [60_000] })
const { ok } = routerCalls(() => services)
const renewals = () => sb.received.filter((r) => r.endpoint === 'domains.expiration.renew')
const yearOf = (name: string) => Number(sb.state.domains.find((d) => d.domainname === name)!.expirationdate.slice(0, 4))

/** A renewal the app sends whose connection breaks before the service reads it: never received, outcome unknown. */
async function lostRenewal(domain: string): Promise<JobView> {
  sb.faults.inject('domains.expiration.renew', { reset: true, times: 1 })
  const { job, token } = await ok('jobs.prepare', {
    accountId,
    operation: 'domains.expiration.renew',
    items: [{ params: { domain, years: 1 } }],
  })
  const done = await ok('jobs.start', { jobId: job.id, token })
  expect(done.items[0]!.state).toBe('unknown')
  return done
}
const itemOf = async (jobId: string) => (await ok('jobs.list', {})).find((j) => j.id === jobId)!.items[0]!

beforeAll(async () => {
  sb = await startSandbox({ domains: 12 })
  dir = mkdtempSync(join(tmpdir(), 'log-check-'))
  services = await boot()
  accountId = (
    await ok('accounts.create', { fields: profileFor(sb, 'Main', 1500), apiKey: sb.keys.full, storage: 'keychain' })
  ).id
  outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
})
afterAll(async () => {
  await services.close()
  await sb.close()
})
afterEach(() => sb.faults.clear())

describe('settling an unknown renewal from the log', () => {
  it('after a restart, an earlier identical renewal in the log does not make the lost one “received”', async () => {
    const domain = sb.state.domains[1]!.domainname
    await outside.call('domains.expiration.renew', { domain, years: 1 })
    const year = yearOf(domain)
    const job = await lostRenewal(domain)
    expect(job.logBaseline).toMatch(/^req-/)
    await services.close()
    services = await boot()
    expect(await ok('jobs.checkLog', { jobId: job.id, index: 0 })).toBe('not-found')
    expect(await itemOf(job.id)).toMatchObject({ state: 'unknown', log: { status: 'not-found' } })
    // The service has the earlier renewal only.
    expect(yearOf(domain)).toBe(year)
  })

  it('a job that could not read the log’s newest entry when it started stays unknown, saying why', async () => {
    const domain = sb.state.domains[2]!.domainname
    // Every try of the read is refused (a read is tried three times).
    sb.faults.inject('logs.list', { status: 503, times: 3 })
    const job = await lostRenewal(domain)
    expect(job.logBaseline).toBeNull()
    await outside.call('domains.expiration.renew', { domain, years: 1 })
    expect(await ok('jobs.checkLog', { jobId: job.id, index: 0 })).toBe('undecided')
    expect(await itemOf(job.id)).toMatchObject({ state: 'unknown', log: { status: 'undecided', reason: 'noBaseline' } })
  })

  it('two identical renewals after the baseline: which one this was cannot be told, so it stays unknown', async () => {
    const domain = sb.state.domains[3]!.domainname
    const job = await lostRenewal(domain)
    const before = renewals().length
    await outside.call('domains.expiration.renew', { domain, years: 1 })
    await outside.call('domains.expiration.renew', { domain, years: 1 })
    expect(renewals().length - before).toBe(2)
    expect(await ok('jobs.checkLog', { jobId: job.id, index: 0 })).toBe('undecided')
    expect(await itemOf(job.id)).toMatchObject({ state: 'unknown', log: { status: 'undecided', reason: 'several' } })
  })

  it('one identical renewal after the baseline settles it, from the answer the service logged', async () => {
    const domain = sb.state.domains[4]!.domainname
    const job = await lostRenewal(domain)
    await outside.call('domains.expiration.renew', { domain, years: 1 })
    expect(await ok('jobs.checkLog', { jobId: job.id, index: 0 })).toBe('received')
    expect(await itemOf(job.id)).toMatchObject({ state: 'done', resolvedFromLog: true })
  })
})
