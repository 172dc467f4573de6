/**
 * listAll against the sandbox over loopback: every size that matters, under both
 * readings of paging.max, plus order, progress, the concurrency bound and cancel.
 */
import { describe, expect, it, vi } from 'vitest'
import { createApiClient, listAllPages, type ListAllProgress } from '../../src/main/http'
import { AppError } from '../../src/main/app/app-error'
import { startSandbox, type SandboxOptions } from '../../src/sandbox'

const LIMIT = 50

async function withSandbox<T>(opts: SandboxOptions, fn: (sb: Awaited<ReturnType<typeof startSandbox>>) => Promise<T>): Promise<T> {
  const sb = await startSandbox(opts)
  try {
    return await fn(sb)
  } finally {
    await sb.close()
  }
}

describe.each(['total', 'pages'] as const)('listAll when paging.max is the %s', (pagingMax) => {
  it.each([0, 1, LIMIT, LIMIT + 1, 3 * LIMIT - 1, 10_000])('returns all %i domains, in order, without duplicates', async (count) => {
    await withSandbox({ domains: count, paging: { pagingMax } }, async (sb) => {
      const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      const progress: ListAllProgress[] = []
      const items = await client.listAll('domains.list', {}, { pageSize: LIMIT, onProgress: (p) => progress.push(p) })
      expect(items.map((d) => d.domainid)).toEqual(sb.state.domains.map((d) => d.domainid))
      // Requests: one per page, plus at most one batch of probing past the end when max is a page count.
      const pages = Math.max(1, Math.ceil(count / LIMIT))
      const listCalls = sb.received.filter((r) => r.endpoint === 'domains.list').length
      expect(listCalls).toBeGreaterThanOrEqual(count % LIMIT === 0 && count > 0 ? pages + 1 : pages)
      expect(listCalls).toBeLessThanOrEqual(pages + 4)
      // Progress grows and ends at the total.
      const loaded = progress.map((p) => p.loadedItems)
      expect(loaded).toEqual([...loaded].sort((a, b) => a - b))
      expect(loaded.at(-1)).toBe(count)
    })
  })
})

describe('listAll details', () => {
  it('keeps at most `concurrency` requests in flight', async () => {
    await withSandbox({ domains: 1000, latencyMs: 15 }, async (sb) => {
      const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      sb.load.reset()
      const items = await client.listAll('domains.list', {}, { pageSize: 50, concurrency: 3 })
      expect(items).toHaveLength(1000)
      expect(sb.load.maxInFlight).toBe(3)
    })
  })

  it('follows the service when it caps the page size below what was asked', async () => {
    await withSandbox({ domains: 230, paging: { maxPageSize: 20 } }, async (sb) => {
      const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      const items = await client.listAll('domains.list', {}, { pageSize: 100 })
      expect(items.map((d) => d.domainid)).toEqual(sb.state.domains.map((d) => d.domainid))
    })
  })

  it('passes the list’s own parameters (order) to every page', async () => {
    await withSandbox({ domains: 120 }, async (sb) => {
      const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      const items = await client.listAll('domains.list', { order: 'DESC' }, { pageSize: 25 })
      expect(items.map((d) => d.domainid)).toEqual(sb.state.domains.map((d) => d.domainid).reverse())
      expect(sb.received.filter((r) => r.endpoint === 'domains.list').every((r) => r.query.order === 'DESC')).toBe(true)
    })
  })

  it('reads a per-domain paged list (private nameservers) and the server lists', async () => {
    await withSandbox({}, async (sb) => {
      const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      const d = sb.state.domains.find((x) => x.privateNs.length > 0)!
      const pns = await client.listAll('domains.privatenameserver.list', { domain: d.domainname })
      expect(pns.map((p) => p.hostname)).toEqual(d.privateNs.map((p) => p.hostname))
      const servers = await client.listAll('servers.list', { kind: 'a' }, { pageSize: 5 })
      expect(servers).toHaveLength(sb.state.servers.a.length)
    })
  })

  it('can be cancelled part way, and stops asking for pages', async () => {
    await withSandbox({ domains: 2000, latencyMs: 20 }, async (sb) => {
      const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      const ac = new AbortController()
      const p = client.listAll('domains.list', {}, {
        pageSize: 20,
        signal: ac.signal,
        onProgress: (pr) => {
          if (pr.loadedItems >= 200) ac.abort()
        },
      })
      await expect(p).rejects.toMatchObject({ kind: 'cancelled' })
      // Every page it asked for has ended at the sandbox (answered or dropped), and no other came.
      await vi.waitFor(() => expect(sb.load.inFlight).toBe(0))
      const sent = sb.received.length
      await new Promise((r) => setImmediate(r))
      expect(sb.received.length).toBe(sent)
      expect(sent).toBeLessThan(100)
    })
  })

  it('a failing page fails the whole listing with that page’s error', async () => {
    await withSandbox({ domains: 500 }, async (sb) => {
      const client = createApiClient({
        baseUrl: sb.url,
        apiKey: sb.keys.full,
        serverPaths: sb.serverPaths,
        retry: { attempts: 0, baseDelayMs: 1 },
      })
      sb.faults.inject('domains.list', { status: 500, times: 1 })
      await expect(client.listAll('domains.list', {}, { pageSize: 50 })).rejects.toMatchObject({ kind: 'server-error' })
    })
  })
})

describe('listAllPages against a service whose paging.max means nothing', () => {
  const source = Array.from({ length: 437 }, (_, i) => i)
  const fake =
    (max: number) =>
    async (page: number, limit: number): Promise<{ results: number[]; paging: { max: number; page: number; limit: number } }> => ({
      results: source.slice((page - 1) * limit, page * limit),
      paging: { max, page, limit },
    })

  it.each([1, 0, 9, 437, 100_000])('loses no item and adds none when max is %i', async (max) => {
    let calls = 0
    const counted = (page: number, limit: number) => {
      calls++
      return fake(max)(page, limit)
    }
    const items = await listAllPages(counted, { pageSize: 40, maxPages: 1000, concurrency: 4 })
    expect(items).toEqual(source)
    // 11 pages hold the items; at most one batch of 4 is started beyond the short page.
    expect(calls).toBeGreaterThanOrEqual(11)
    expect(calls).toBeLessThanOrEqual(11 + 4)
  })

  it('stops at maxPages for a service that never sends a short page', async () => {
    let calls = 0
    const endless = async (page: number, limit: number) => {
      calls++
      return { results: Array.from({ length: limit }, (_, i) => page * limit + i), paging: { max: 1, page, limit } }
    }
    const items = await listAllPages(endless, { pageSize: 10, maxPages: 30 })
    expect(items).toHaveLength(300)
    expect(calls).toBe(30)
  })

  it('ends the list at a page that repeats one already read (a service that ignores `page`)', async () => {
    let calls = 0
    const same = async (_page: number, limit: number) => {
      calls++
      return { results: Array.from({ length: limit }, (_, i) => i), paging: { max: 1_000_000, page: 1, limit } }
    }
    const items = await listAllPages(same, { pageSize: 10, concurrency: 4 })
    expect(items).toEqual(Array.from({ length: 10 }, (_, i) => i))
    // Page 1, then the batch of pages that showed it again.
    expect(calls).toBeLessThanOrEqual(1 + 4)
  })

  it('keeps an item a later page repeats once (a list that shifted while it was read)', async () => {
    const shifted = async (page: number, limit: number) => ({
      results: page === 1 ? [1, 2, 3] : page === 2 ? [3, 4, 5] : [6],
      paging: { max: 7, page, limit },
    })
    expect(await listAllPages(shifted, { pageSize: 3 })).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('refuses a page that is not a list', async () => {
    const broken = async () => ({ results: { not: 'a list' } })
    await expect(listAllPages(broken)).rejects.toBeInstanceOf(AppError)
  })
})
