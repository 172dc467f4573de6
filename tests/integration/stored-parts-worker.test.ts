/**
 * A stored list carried to the window in parts is cut where it is kept, in the store's worker
 * (issue 54): through the real router and a real worker store, the parts are the whole list cut
 * in a first part of STORED_FIRST_PART_SIZE and parts of STORED_PART_SIZE after it, and what crosses
 * from the worker into main is one part at a time, never the whole list (taking in 100,000 domains
 * at once held main's thread ~255 ms). The store on this thread (the command line, tests) answers
 * the same parts.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { openPortfolioStore } from '../../src/main/store'
import { inThread, type PortfolioStoreAsync } from '../../src/main/store/store-async'
import { openStoreInWorker, type WorkerStore } from '../../src/main/store/store-worker'
import { STORED_FIRST_PART_SIZE, STORED_PART_SIZE } from '@shared/portfolio'
import { accountLists, putAccountAsync } from '../../support/portfolio-data'

const APP = 'app://app'
const sender = { url: `${APP}/index.html`, key: 'page', sendProgress: () => undefined, sendJob: () => true }
const T1 = '2030-01-01T00:00:00.000Z'
const T2 = '2030-01-02T00:00:00.000Z'
const DOMAINS = 2 * STORED_PART_SIZE + 500
const lists = accountLists({ domains: DOMAINS, seed: 11 })
const dir = mkdtempSync(join(tmpdir(), 'stored-parts-worker-'))

/** The most items any one answer of the store carried into main since the last `reset`. */
const crossed = { most: 0 }
const LIST_READS = ['readList', 'getList', 'readListPart'] as const
function spied(store: WorkerStore): PortfolioStoreAsync {
  const counted = <T>(value: T): T => {
    if (typeof value === 'object' && value !== null && 'items' in value && Array.isArray(value.items))
      crossed.most = Math.max(crossed.most, value.items.length)
    return value
  }
  const wrapped: Record<string, unknown> = {}
  for (const method of LIST_READS) {
    const own: unknown = Reflect.get(store, method)
    if (typeof own === 'function')
      wrapped[method] = async (...args: unknown[]): Promise<unknown> => {
        const answer: unknown = await Reflect.apply(own, store, args)
        return counted(answer)
      }
  }
  return { ...store, ...wrapped }
}

let worker: WorkerStore
let services: AppServices
beforeAll(async () => {
  worker = await openStoreInWorker(join(dir, 'portfolio.db'))
  await putAccountAsync(worker, 'acct', lists, T1)
  services = await createAppServices({
    userDataDir: mkdtempSync(join(tmpdir(), 'stored-parts-ipc-')),
    allowedOrigins: [APP],
    keychain: async () => new SessionSecretStore(),
    store: spied(worker),
  })
})
afterAll(async () => {
  await services.close()
  await worker.close()
})

describe('a stored list carried in parts', () => {
  it('is the whole list cut in parts, taken into main one part at a time; a list never read is null', async () => {
    const call = services.router.client(sender)
    const whole = await worker.readList('acct', 'domains.list', {})
    if (!whole) throw new Error('the domain list was not kept')
    expect(whole.items).toHaveLength(DOMAINS)

    crossed.most = 0
    const parts = []
    for (let part = 0; part < 3; part++) {
      const r = await call('store.list', { accountId: 'acct', name: 'domains.list', params: {}, part })
      if (!r.ok || !r.value) throw new Error(`part ${part} did not come`)
      parts.push(r.value)
    }
    // A small first part (what the first paint draws from), then parts of STORED_PART_SIZE.
    const ends = [STORED_FIRST_PART_SIZE, STORED_FIRST_PART_SIZE + STORED_PART_SIZE, DOMAINS]
    expect(parts.map((p) => p.items.length)).toEqual([
      STORED_FIRST_PART_SIZE,
      STORED_PART_SIZE,
      DOMAINS - STORED_FIRST_PART_SIZE - STORED_PART_SIZE,
    ])
    for (const [i, p] of parts.entries()) {
      expect(p).toMatchObject({ part: i, parts: 3, readAt: T1, complete: true, skipped: 0 })
      expect(p.items).toEqual(whole.items.slice(i === 0 ? 0 : ends[i - 1], ends[i]))
    }
    // What crossed from the worker into main: a part, never the whole list.
    expect(crossed.most).toBe(STORED_PART_SIZE)

    const neverPart = await call('store.list', { accountId: 'nobody', name: 'domains.list', params: {}, part: 0 })
    expect(neverPart).toEqual({ ok: true, value: null })

    // The whole list asked for at once is still the whole list.
    const once = await call('store.list', { accountId: 'acct', name: 'domains.list', params: {} })
    expect(once.ok && once.value).toMatchObject({ part: 0, parts: 1, readAt: T1 })
    expect(once.ok && once.value?.items).toEqual(whole.items)
  })

  it('is of one list from first part to last; a part of the list kept again after says so by its readAt', async () => {
    const call = services.router.client(sender)
    const ask = async (part: number) => {
      const r = await call('store.list', { accountId: 'acct', name: 'domains.list', params: {}, part })
      if (!r.ok || !r.value) throw new Error(`part ${part} did not come`)
      return r.value
    }
    expect((await ask(0)).readAt).toBe(T1)
    await putAccountAsync(worker, 'acct', lists, T2)
    // The carriage begun goes on with the list its first part was of.
    expect((await ask(1)).readAt).toBe(T1)
    expect((await ask(2)).readAt).toBe(T1)
    // Its last part given, the list is kept no more: a part asked now is of the list kept since, and says so.
    expect((await ask(1)).readAt).toBe(T2)
  })

  it('the store on this thread answers the same parts', async () => {
    const local = inThread(openPortfolioStore(join(dir, 'local.db')))
    try {
      await putAccountAsync(local, 'acct', lists, T1)
      for (const part of [0, 1, 2]) {
        const mine = await local.readListPart('acct', 'domains.list', {}, part)
        const theirs = await worker.readListPart('acct', 'domains.list', {}, part)
        expect({ ...mine, readAt: T1 }).toEqual({ ...theirs, readAt: T1 })
      }
      expect(await local.readListPart('nobody', 'domains.whois.list', {}, 0)).toBeUndefined()
    } finally {
      await local.close()
    }
  })
})
