/**
 * A write's history row is owed by the journal until the store has it (issue 49 point 5): the
 * store's real worker thread ends itself while writing a row (before the store sees it, or after it
 * wrote it and before its answer leaves), in a bounded loop; writes are made while it is down and
 * stays down; the app quits with rows owed. After the worker's restart (or the app's) every row is
 * there, once; rows that cannot be written are said once. The real services, router, runner,
 * journal, worker, store file and sandbox.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { portfolioFileOf } from '../../src/main/store'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import type { JobView } from '@shared/jobs'
import type { WriteEndpointName } from '@shared/endpoints/names'
import type { StoreStatus } from '@shared/portfolio/store-status'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'

const WORKER = new URL('../helpers/dying-store-worker.boot.mjs', import.meta.url)
const dir = mkdtempSync(join(tmpdir(), 'history-owed-'))
const control = join(dir, 'store-death')
const noStart = join(dir, 'store-no-start')
const deathsFile = join(dir, 'store-deaths')
// Read by each worker the store starts (a worker thread takes a copy of the environment).
process.env.HOSTING_ADMIN_TEST_STORE_DEATH = control
process.env.HOSTING_ADMIN_TEST_STORE_NO_START = noStart
process.env.HOSTING_ADMIN_TEST_STORE_DEATHS = deathsFile

const WAIT = { timeout: 20_000, interval: 50 }
const keychain = new SessionSecretStore()
let sb: Sandbox
let services: AppServices | undefined
let accountId: string
const { ok } = routerCalls(() => services)
/** Every job made, with its items: each owes one row. */
const made: JobView[] = []

const start = async (maxRestarts: number) => {
  services = await createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    keychain: async () => keychain,
    storeWorkerUrl: WORKER,
    storeWorker: { maxRestarts },
    cliDoor: false,
  })
}
const quit = async () => {
  await services?.close()
  services = undefined
}
const deaths = () => (existsSync(deathsFile) ? readFileSync(deathsFile, 'utf8').trim().split('\n').filter(Boolean) : [])
const status = (): Promise<StoreStatus> => ok('store.status', {})

/** A write as the app makes it: prepared, confirmed when it must be, sent. */
async function write(operation: WriteEndpointName, items: Record<string, unknown>[]): Promise<JobView> {
  const { job, token } = await ok('jobs.prepare', { accountId, operation, items: items.map((params) => ({ params })) })
  const ended = await ok('jobs.start', { jobId: job.id, ...(token ? { token } : {}) })
  expect(ended.items.map((it) => it.state)).toEqual(items.map(() => 'done'))
  made.push(ended)
  return ended
}
const renew = (domain: string) => write('domains.expiration.renew', [{ domain, years: 1 }])
const rowsOf = async (job: JobView) =>
  (await ok('history.list', { accountId, limit: 500 })).filter((h) => h.jobId === job.id)
const hasEveryRow = async (job: JobView) =>
  expect((await rowsOf(job)).map((r) => r.outcome)).toEqual(job.items.map(() => 'done'))
const domains = () => sb.state.domains.map((d) => d.domainname)
const logged = async (event: string) => (await services!.log.tail(5_000)).filter((l) => l.includes(event)).length

beforeAll(async () => {
  sb = await startSandbox({ domains: 24 })
  await start(12)
  accountId = (
    await ok('accounts.create', { fields: profileFor(sb, 'Main', 1500), apiKey: sb.keys.full, storage: 'keychain' })
  ).id
})
afterAll(async () => {
  await quit()
  await sb.close()
})

describe('history rows owed by the journal', () => {
  it('the worker ended while it writes a row, in a loop: after each restart the row is there, once', async () => {
    for (let k = 0; k < 8; k++) {
      const how = k % 2 === 0 ? 'before' : 'after'
      writeFileSync(control, how)
      const [a, b] = [domains()[2 * k]!, domains()[2 * k + 1]!]
      const job = await write(
        'domains.autorenew.set',
        [a, b].map((domain) => ({ domain, autorenew_all: 0, autorenew_domain: k % 2 })),
      )
      // The worker took its death with the job's first row.
      expect(existsSync(control)).toBe(false)
      expect(deaths()).toHaveLength(k + 1)
      await vi.waitFor(() => hasEveryRow(job), WAIT)
    }
    expect(deaths()).toEqual(['before', 'after', 'before', 'after', 'before', 'after', 'before', 'after'])
  })

  it('a write made while the store is down (it gave up) has its row once Retry brings the worker back', async () => {
    writeFileSync(noStart, '')
    writeFileSync(control, 'before')
    const killed = await renew(domains()[16]!)
    await vi.waitFor(async () => expect((await status()).state).toBe('gaveUp'), WAIT)
    const expiredOn = sb.state.domains[17]!.expirationdate
    const whileDown = await renew(domains()[17]!)
    rmSync(noStart)
    expect(await ok('store.restart', {})).toMatchObject({ state: 'up' })
    for (const job of [killed, whileDown]) await vi.waitFor(() => hasEveryRow(job), WAIT)
    const [row] = await rowsOf(whileDown)
    expect(row).toMatchObject({
      operation: 'domains.expiration.renew',
      subject: domains()[17],
      outcome: 'done',
      requestId: whileDown.items[0]!.requestId,
    })
    // As the row would have been written at once: the date before, the date the service answered.
    expect(row).toMatchObject({
      before: { expirationdate: expiredOn },
      after: { expirationdate: sb.state.domains[17]!.expirationdate },
    })
  })

  it('rows owed when the app quits are written at its next start, from the journal', async () => {
    await quit()
    await start(2)
    writeFileSync(noStart, '')
    writeFileSync(control, 'before')
    const expiredOn = sb.state.domains[19]!.expirationdate
    const killed = await renew(domains()[18]!)
    await vi.waitFor(async () => expect((await status()).state).toBe('gaveUp'), WAIT)
    const whileDown = await renew(domains()[19]!)
    await quit()
    rmSync(noStart)
    await start(2)
    for (const job of [killed, whileDown]) await vi.waitFor(() => hasEveryRow(job), WAIT)
    const [row] = await rowsOf(whileDown)
    // As the journal has the item: what was sent, how it ended, its request ID, when it was sent, the date the service answered.
    const renewed = sb.state.domains[19]!.expirationdate
    expect(row).toMatchObject({
      subject: domains()[19],
      params: { years: 1 },
      outcome: 'done',
      requestId: whileDown.items[0]!.requestId,
      at: whileDown.items[0]!.sentAt,
      before: { expirationdate: expiredOn },
      after: { expirationdate: renewed },
    })
  })

  it('rows that cannot be written are said once (the log, the window), and written once the worker stays up', async () => {
    const saidBefore = await logged('history.owedNotWritten')
    // Every worker ends at its first row: the write's, then each restart's offer of it.
    writeFileSync(control, 'always')
    const job = await renew(domains()[20]!)
    await vi.waitFor(async () => expect((await status()).state).toBe('gaveUp'), WAIT)
    expect(deaths().filter((d) => d === 'always').length).toBeGreaterThanOrEqual(2)
    // Up again by Retry, with rows still owed: the window is told.
    expect(await ok('store.restart', {})).toMatchObject({ state: 'up', historyNotWritten: 'store.workerStopped' })
    await vi.waitFor(async () => expect((await status()).state).toBe('gaveUp'), WAIT)
    rmSync(control)
    expect(await ok('store.restart', {})).toMatchObject({ state: 'up' })
    await vi.waitFor(() => hasEveryRow(job), WAIT)
    await vi.waitFor(async () => expect(await status()).toEqual({ state: 'up', restarts: 1 }), WAIT)
    expect((await logged('history.owedNotWritten')) - saidBefore).toBe(1)
  })

  it('every job item sent has exactly one row in the store file', async () => {
    await quit()
    const db = new Database(portfolioFileOf(dir))
    const row = z.object({ job_id: z.string(), item_index: z.number(), n: z.number() })
    const rows = db
      .prepare(
        'SELECT job_id, item_index, count(*) AS n FROM history WHERE job_id IS NOT NULL GROUP BY job_id, item_index',
      )
      .all([])
      .map((r) => row.parse(r))
    db.close()
    const owed = made.flatMap((job) => job.items.map((_, i) => `${job.id}#${i}:1`)).sort()
    expect(rows.map((r) => `${r.job_id}#${r.item_index}:${r.n}`).sort()).toEqual(owed)
    expect(deaths().filter((d) => d === 'before' || d === 'after')).toHaveLength(10)
  })
})
