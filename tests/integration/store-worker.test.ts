/**
 * The portfolio store in its worker thread, as main uses it: the same answers as on main's own
 * thread, errors that keep their codes, main's thread free while a large list is written, a
 * reader in another thread that sees a list whole (the old one or the new one, never a mix)
 * while a writer replaces it, and a store that refuses calls once closed.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openPortfolioStore } from '../../src/main/store'
import { inThread, type PortfolioStoreAsync } from '../../src/main/store/store-async'
import { openStoreInWorker, type WorkerStore } from '../../src/main/store/store-worker'
import type { StoreStatus } from '@shared/portfolio/store-status'
import { accountLists, putAccountAsync } from '../../support/portfolio-data'
import { rawPayload } from '../helpers/raw-payload'

const dir = mkdtempSync(join(tmpdir(), 'store-worker-'))
const open: PortfolioStoreAsync[] = []
afterAll(async () => {
  for (const s of open) await s.close()
})
const T1 = '2030-01-01T00:00:00.000Z'
const T2 = '2030-01-02T00:00:00.000Z'
const lists = accountLists({ domains: 2000, seed: 3 })

/** How many times main's event loop turned while `work` ran (0: it held the thread throughout). */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ turns: number; value: T }> {
  let turns = 0
  let running = true
  const spin = () => {
    if (!running) return
    turns++
    setImmediate(spin)
  }
  setImmediate(spin)
  const value = await work()
  running = false
  return { turns, value }
}

describe('the store in a worker thread', () => {
  it('answers as the store on this thread does, and keeps error codes', async () => {
    const worker = await openStoreInWorker(join(dir, 'same.db'))
    const local = inThread(openPortfolioStore(join(dir, 'same-local.db')))
    open.push(worker, local)
    for (const s of [worker, local]) await putAccountAsync(s, 'acct', lists, T1)
    expect(await worker.getList('acct', 'domains.list', {})).toEqual(await local.getList('acct', 'domains.list', {}))
    const name = lists.domains[7]!.domainname
    expect(await worker.search(name)).toEqual(await local.search(name))
    expect(await worker.exportCsv()).toEqual(await local.exportCsv())
    expect(await worker.history.retentionDays()).toBe(await local.history.retentionDays())
    await expect(worker.putList('Not An Id', 'domains.list', {}, [], T1)).rejects.toMatchObject({
      data: { code: 'store.invalidInput' },
    })
  })

  it('leaves main’s thread free while it writes a large list (the store on this thread holds it)', async () => {
    const worker = await openStoreInWorker(join(dir, 'free.db'))
    const local = inThread(openPortfolioStore(join(dir, 'free-local.db')))
    open.push(worker, local)
    const inWorker = await turnsDuring(() => worker.putList('acct', 'domains.whois.list', {}, lists.whois, T1))
    const onThread = await turnsDuring(() => local.putList('acct', 'domains.whois.list', {}, lists.whois, T1))
    expect(inWorker.value).toEqual(onThread.value)
    expect(inWorker.turns).toBeGreaterThan(0)
    expect(onThread.turns).toBe(0)
  })

  it('a long list sent in parts arrives whole, and every call made meanwhile is taken in the order it was made', async () => {
    const worker = await openStoreInWorker(join(dir, 'parts.db'))
    open.push(worker)
    // 2,000 domains: sent in parts. The calls made while they go wait behind them.
    const { turns, value } = await turnsDuring(async () => {
      const put = worker.putList('acct', 'domains.list', {}, lists.domains, T1)
      const readAfter = worker.getList('acct', 'domains.list', {})
      const short = worker.putList('acct', 'domains.dnssec.list', {}, lists.dnssec.slice(0, 10), T1)
      const replaced = worker.putList('acct', 'domains.list', {}, lists.domains.slice(0, 1500), T2)
      const readLast = worker.getList('acct', 'domains.list', {})
      return Promise.all([put, readAfter, short, replaced, readLast])
    })
    const [, readAfter, , , readLast] = value
    expect(readAfter?.items).toEqual(lists.domains)
    expect(readLast?.readAt).toBe(T2)
    expect(readLast?.items).toEqual(lists.domains.slice(0, 1500))
    expect(turns).toBeGreaterThan(0)
  })

  it('a long answer that comes back in parts arrives whole and in order, and the calls behind it are answered after', async () => {
    const worker = await openStoreInWorker(join(dir, 'answer-parts.db'))
    const local = inThread(openPortfolioStore(join(dir, 'answer-parts-local.db')))
    open.push(worker, local)
    for (const s of [worker, local]) await putAccountAsync(s, 'acct', lists, T1)
    const expected = await local.exportZones()
    // More than one part of 1,000 zone files (store-worker.ts), and a last part that is not full.
    expect(expected.length).toBeGreaterThan(1000)
    expect(expected.length % 1000).not.toBe(0)
    const exporting = worker.exportZones()
    const after = worker.exportCsv()
    expect(await exporting).toEqual(expected)
    expect(await after).toEqual(await local.exportCsv())
    // Twice at once: each call's parts stay its own.
    const [a, b] = await Promise.all([worker.exportZones(), worker.exportZones()])
    expect(a).toEqual(expected)
    expect(b).toEqual(expected)
  })

  it('a stored list of more than one part comes back whole, with its time and whether it was whole', async () => {
    const worker = await openStoreInWorker(join(dir, 'stored-parts.db'))
    const local = inThread(openPortfolioStore(join(dir, 'stored-parts-local.db')))
    open.push(worker, local)
    // 2,000 domains: two parts of 1,000 (store-worker.ts); 500 servers: one answer, as before.
    for (const s of [worker, local]) {
      await s.putList('acct', 'domains.list', {}, lists.domains, T1, { complete: false })
      await s.putList('acct', 'domains.dnssec.list', {}, lists.dnssec.slice(0, 500), T2)
    }
    const [read, got, short] = await Promise.all([
      worker.readList('acct', 'domains.list', {}),
      worker.getList('acct', 'domains.list', {}),
      worker.readList('acct', 'domains.dnssec.list', {}),
    ])
    expect(read).toEqual(await local.readList('acct', 'domains.list', {}))
    expect(read).toMatchObject({ readAt: T1, complete: false, skipped: 0 })
    expect(read?.items).toEqual(lists.domains)
    expect(got).toEqual(read)
    expect(short).toEqual(await local.readList('acct', 'domains.dnssec.list', {}))
    expect(short).toMatchObject({ readAt: T2, complete: true })
  })

  it('a long list that cannot be handed over fails alone; the calls behind it go on', async () => {
    const worker = await openStoreInWorker(join(dir, 'not-sent.db'))
    open.push(worker)
    // A function cannot cross to another thread: its part is refused as it is sent.
    const unclonable: unknown[] = [...lists.domains, () => 'not data']
    const bad = worker.putList('acct', 'domains.list', {}, rawPayload(unclonable), T1)
    const after = worker.putList('acct', 'domains.list', {}, lists.domains.slice(0, 1200), T2)
    await expect(bad).rejects.toMatchObject({ data: { code: 'store.notSent', params: { reason: 'DataCloneError' } } })
    await after
    expect((await worker.getList('acct', 'domains.list', {}))?.items).toHaveLength(1200)
  })

  it('a reader in another thread sees a list whole while a writer replaces it', async () => {
    const file = join(dir, 'shared.db')
    const writer = await openStoreInWorker(file)
    const reader = await openStoreInWorker(file, { integrityCheck: false })
    open.push(writer, reader)
    const first = lists.domains.slice(0, 1500)
    const second = lists.domains.slice(500).map((d) => ({ ...d, expirationdate: '2040-01-01' }))
    await writer.putList('acct', 'domains.list', {}, first, T1)
    const writing = writer.putList('acct', 'domains.list', {}, second, T2)
    const seen: string[] = []
    // Bounded: at most 50 reads, and no more once the write has landed and been seen.
    let landed = false
    void writing.then(() => (landed = true))
    for (let i = 0; i < 50; i++) {
      const l = await reader.getList('acct', 'domains.list', {})
      if (!l) continue
      const whole =
        (l.readAt === T1 &&
          l.items.length === first.length &&
          l.items.every((d) => d.expirationdate !== '2040-01-01')) ||
        (l.readAt === T2 && l.items.length === second.length && l.items.every((d) => d.expirationdate === '2040-01-01'))
      expect(whole, `read ${i}: ${l.readAt}, ${l.items.length} items`).toBe(true)
      seen.push(l.readAt)
      if (landed && l.readAt === T2) break
    }
    await writing
    expect((await reader.getList('acct', 'domains.list', {}))?.readAt).toBe(T2)
  })

  it('refuses calls once closed', async () => {
    const worker = await openStoreInWorker(join(dir, 'closed.db'))
    await worker.close()
    await expect(worker.getList('acct', 'domains.list', {})).rejects.toMatchObject({ data: { code: 'store.closed' } })
  })

  describe('a worker that ends on its own', () => {
    /** A worker held to a small heap, as any may run out of memory: a value larger than it ends it. */
    const SMALL_HEAP = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 }
    /** A list larger than that heap, handed over in parts as every long list is (the worker grows with each part). */
    const overflow = () =>
      Array.from({ length: 400_000 }, (_, i) => ({
        ...lists.domains[0]!,
        domainid: i,
        domainname: `d${i}-${'x'.repeat(200)}.example`,
      }))
    /** The statuses the store reports, and a wait for the next one of a state (an event, no timer). */
    function statusLog() {
      const seen: StoreStatus[] = []
      const waiting: { state: StoreStatus['state']; resolve: (s: StoreStatus) => void }[] = []
      return {
        seen,
        onStatus: (s: StoreStatus) => {
          seen.push(s)
          for (const w of waiting.splice(0))
            if (w.state === s.state) w.resolve(s)
            else waiting.push(w)
        },
        next: (state: StoreStatus['state']) => new Promise<StoreStatus>((resolve) => waiting.push({ state, resolve })),
      }
    }

    it('fails the calls it had, is started again, and answers from the same file after', async () => {
      const log = statusLog()
      const store: WorkerStore = await openStoreInWorker(join(dir, 'restarted.db'), {
        resourceLimits: SMALL_HEAP,
        onStatus: log.onStatus,
      })
      open.push(store)
      await store.putList('acct', 'domains.list', {}, lists.domains.slice(0, 50), T1)
      const up = log.next('up')
      await expect(store.putList('acct', 'domains.list', {}, overflow(), T2)).rejects.toMatchObject({
        data: { code: 'store.workerStopped' },
      })
      expect(log.seen[0]).toMatchObject({ state: 'down' })
      expect(await up).toMatchObject({ state: 'up', restarts: 1 })
      expect(store.status()).toMatchObject({ state: 'up' })
      expect((await store.getList('acct', 'domains.list', {}))?.items).toHaveLength(50)
    })

    it('gives up after its restarts in a row, refuses calls meanwhile, and Retry starts it again', async () => {
      const log = statusLog()
      const store: WorkerStore = await openStoreInWorker(join(dir, 'gave-up.db'), {
        resourceLimits: SMALL_HEAP,
        maxRestarts: 0,
        onStatus: log.onStatus,
      })
      open.push(store)
      await store.putSetting('kept', 'yes')
      const gaveUp = log.next('gaveUp')
      await expect(store.putList('acct', 'domains.list', {}, overflow(), T2)).rejects.toMatchObject({
        data: { code: 'store.workerStopped' },
      })
      expect(await gaveUp).toMatchObject({ state: 'gaveUp', restarts: 0 })
      await expect(store.getSetting('kept')).rejects.toMatchObject({ data: { code: 'store.workerStopped' } })
      expect(await store.restart()).toMatchObject({ state: 'up', restarts: 1 })
      expect(await store.getSetting('kept')).toBe('yes')
    })
  })
})
