/**
 * listAll against the sandbox over loopback: every size that matters, under both
 * readings of paging.max, plus order, progress, the concurrency bound and cancel.
 */
import { createServer, type ServerResponse } from 'node:http'
import { describe, expect, it, vi } from 'vitest'
import { createApiClient, DEFAULT_CONCURRENCY, listAllPages, type ListAllProgress } from '../../src/main/http'
import { MAX_LIST_BYTES, MAX_LIST_ITEMS } from '../../src/main/http/paging'
import { AppError } from '../../src/main/base/app-error'
import { DEFAULT_SERVER_PATHS, startSandbox, type SandboxOptions } from '../../src/sandbox'
import { listeningPort } from '../../support/listening-port'

const LIMIT = 50

async function withSandbox<T>(
  opts: SandboxOptions,
  fn: (sb: Awaited<ReturnType<typeof startSandbox>>) => Promise<T>,
): Promise<T> {
  const sb = await startSandbox(opts)
  try {
    return await fn(sb)
  } finally {
    await sb.close()
  }
}

describe.each(['total', 'pages'] as const)('listAll when paging.max is the %s', (pagingMax) => {
  it.each([0, 1, LIMIT, LIMIT + 1, 3 * LIMIT - 1, 10_000])(
    'returns all %i domains, in order, without duplicates',
    async (count) => {
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
    },
  )
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
      const p = client.listAll(
        'domains.list',
        {},
        {
          pageSize: 20,
          signal: ac.signal,
          onProgress: (pr) => {
            if (pr.loadedItems >= 200) ac.abort()
          },
        },
      )
      await expect(p).rejects.toMatchObject({ kind: 'cancelled' })
      // Every page it asked for has ended at the sandbox (answered or dropped), and no other came.
      // Pages of 20 ms each on their way: vi.waitFor's 1 s default is short on a loaded machine.
      await vi.waitFor(() => expect(sb.load.inFlight).toBe(0), { timeout: 10_000 })
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
    async (
      page: number,
      limit: number,
    ): Promise<{ results: number[]; paging: { max: number; page: number; limit: number } }> => ({
      results: source.slice((page - 1) * limit, page * limit),
      paging: { max, page, limit },
    })

  it.each([437, 100_000])('loses no item and adds none when max is %i', async (max) => {
    let calls = 0
    const counted = (page: number, limit: number) => {
      calls++
      return fake(max)(page, limit)
    }
    const items = await listAllPages(counted, { pageSize: 40, concurrency: 4 })
    expect(items).toEqual(source)
    // 11 pages hold the items; at most one batch of 4 is started beyond the short page.
    expect(calls).toBeGreaterThanOrEqual(11)
    expect(calls).toBeLessThanOrEqual(11 + 4)
  })

  it.each([1, 0, 9])(
    'refuses the list, rather than read on unbounded or keep part of it, when max (%i) claims fewer pages than it has',
    async (max) => {
      await expect(listAllPages(fake(max), { pageSize: 40, concurrency: 4 })).rejects.toMatchObject({
        code: 'http.pagingPastClaim',
      })
    },
  )

  it('refuses, rather than keep part of it, a list without paging that goes on past the most items a list may have', async () => {
    let calls = 0
    const endless = async (page: number, limit: number) => {
      calls++
      return { results: Array.from({ length: limit }, (_, i) => page * limit + i) }
    }
    await expect(listAllPages(endless, { pageSize: 10, maxItems: 300 })).rejects.toMatchObject({
      code: 'http.listTooLong',
      data: { params: { items: 300, pages: 31 } },
    })
    // The 30 pages the bound holds, and the one that showed the list went on.
    expect(calls).toBe(31)
  })

  it('refuses a page that holds more items than a list may have', async () => {
    const overfull = async (page: number) => ({
      results: Array.from({ length: 2_000 }, (_, i) => i),
      paging: { max: 2_000, page, limit: 100 },
    })
    await expect(listAllPages(overfull, { maxItems: 1_000 })).rejects.toMatchObject({
      code: 'http.listTooLong',
      data: { params: { items: 1_000, pages: 1 } },
    })
  })

  it('ends the list at a page that repeats one already read (a service that ignores `page`)', async () => {
    let calls = 0
    const same = async (_page: number, limit: number) => {
      calls++
      return { results: Array.from({ length: limit }, (_, i) => i), paging: { max: 100_000, page: 1, limit } }
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

  it('reads a list the size of the largest real account (100,000 items of twice a WHOIS item’s bytes) within the default bounds', async () => {
    const total = 100_000
    const whoisSized = async (page: number, limit: number) => {
      const results = Array.from({ length: Math.max(0, Math.min(limit, total - (page - 1) * limit)) }, (_, i) => ({
        domainid: (page - 1) * limit + i,
      }))
      return { results, paging: { max: total, page, limit }, bytes: 2048 * results.length }
    }
    const items = await listAllPages(whoisSized, { pageSize: 100, concurrency: 16 })
    expect(items).toHaveLength(total)
  })

  it('refuses a list whose answers come to more bytes than a list may, counted as received, whatever its claim', async () => {
    let calls = 0
    // A plausible claim (100,000 items), each answer 8 MiB as received.
    const heavy = async (page: number, limit: number) => {
      calls++
      return {
        results: Array.from({ length: limit }, (_, i) => page * limit + i),
        paging: { max: 100_000, page, limit },
        bytes: 8 * 1024 * 1024,
      }
    }
    await expect(listAllPages(heavy, { pageSize: 100 })).rejects.toMatchObject({
      code: 'http.listTooLarge',
      data: { params: { megabytes: MAX_LIST_BYTES / (1024 * 1024) } },
    })
    // 32 answers fill the bound; the 33rd passes it, and at most a batch more was in flight.
    expect(calls).toBeGreaterThanOrEqual(33)
    expect(calls).toBeLessThanOrEqual(33 + DEFAULT_CONCURRENCY)
  })

  it('refuses at its first page a list whose max claims more items than a list may have, reading no other page', async () => {
    let calls = 0
    const claims = async (page: number, limit: number) => {
      calls++
      return {
        results: Array.from({ length: limit }, (_, i) => page * limit + i),
        paging: { max: 1_000_000_000, page, limit },
      }
    }
    await expect(listAllPages(claims)).rejects.toMatchObject({
      code: 'http.listClaimTooLong',
      data: { params: { max: 1_000_000_000, items: MAX_LIST_ITEMS } },
    })
    expect(calls).toBe(1)
  })

  it('refuses a page that is not a list', async () => {
    const broken = async () => ({ results: { not: 'a list' } })
    await expect(listAllPages(broken)).rejects.toBeInstanceOf(AppError)
  })
})

/**
 * A hostile service of the test's own, over loopback: page 1 claims a `paging.max`, and every
 * page after it is full. `answer` makes each page's items; `holdFrom` holds every request from
 * that page on (never answered), so only the listing's own deadline can end it; `padding` goes
 * in every answer beside its results (a member the client reads and drops).
 */
async function withHostile<T>(
  opts: { max: number; answer: (page: number, limit: number) => unknown[]; holdFrom?: number; padding?: string },
  fn: (client: ReturnType<typeof createApiClient>, pagesAsked: () => number) => Promise<T>,
): Promise<T> {
  let asked = 0
  const held: ServerResponse[] = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const page = Number(url.searchParams.get('page') ?? 1)
    const limit = Number(url.searchParams.get('limit') ?? 100)
    asked++
    // The test's own bound: past 60 pages the hostile service ends its list, so a listing without bounds ends too (and fails the counts below).
    if (opts.holdFrom !== undefined && page >= opts.holdFrom && asked <= 60) {
      held.push(res)
      return
    }
    const results = asked > 60 ? [] : opts.answer(page, limit)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({
        results,
        paging: { max: opts.max, page, limit },
        request_id: `hostile-${asked}`,
        ...(opts.padding ? { padding: opts.padding } : {}),
      }),
    )
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = listeningPort(server)
  const client = createApiClient({
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey: 'hostile-test-key-0000',
    serverPaths: DEFAULT_SERVER_PATHS,
    retry: { attempts: 0, baseDelayMs: 1 },
  })
  try {
    return await fn(client, () => asked)
  } finally {
    for (const res of held) res.destroy()
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
  }
}

const domain = (id: number, extra: Record<string, unknown> = {}) => ({
  domainid: id,
  domainname: `d${id}.example`,
  registrar: 'X',
  expirationdate: '2030-01-01',
  autorenew: 0,
  autorenew_all: 0,
  autorenew_domain: 0,
  ...extra,
})

describe('listAll against a hostile service', () => {
  it('refuses a list that goes on past the most pages its first page claimed', async () => {
    // max 3: at most 3 pages (max as a page count) and the page after: then refused, never read to the end.
    await withHostile(
      { max: 3, answer: (page, limit) => Array.from({ length: limit }, (_, i) => domain(page * 1000 + i)) },
      async (client, asked) => {
        await expect(client.listAll('domains.list', {}, { pageSize: 10, concurrency: 1 })).rejects.toMatchObject({
          kind: 'malformed-response',
          code: 'http.pagingPastClaim',
        })
        expect(asked()).toBeLessThanOrEqual(4)
      },
    )
  })

  it('refuses at its first page a paging.max of 10^9, whatever pages would follow (they once read 2,290 pages, 163 MB, in 20 s)', async () => {
    await withHostile(
      { max: 1_000_000_000, answer: (page, limit) => Array.from({ length: limit }, (_, i) => domain(page * 1000 + i)) },
      async (client, asked) => {
        await expect(client.listAll('domains.list', {}, { pageSize: 10 })).rejects.toMatchObject({
          kind: 'malformed-response',
          code: 'http.listClaimTooLong',
          data: { params: { max: 1_000_000_000, items: MAX_LIST_ITEMS } },
        })
        expect(asked()).toBe(1)
      },
    )
  })

  it('refuses a list at the byte bound, counting every byte received (padding beside the results too), however plausible its claim', async () => {
    // Each answer about 256 KB, nearly all of it a member the client drops: 2 MiB is passed at the 9th.
    await withHostile(
      {
        max: 100_000,
        padding: 'x'.repeat(256 * 1024),
        answer: (page, limit) => Array.from({ length: limit }, (_, i) => domain(page * 1000 + i)),
      },
      async (client, asked) => {
        await expect(
          client.listAll('domains.list', {}, { pageSize: 10, concurrency: 2, maxBytes: 2 * 1024 * 1024 }),
        ).rejects.toMatchObject({
          kind: 'malformed-response',
          code: 'http.listTooLarge',
          data: { params: { megabytes: 2 } },
        })
        expect(asked()).toBeLessThanOrEqual(9 + 2)
      },
    )
  })

  it('ends the list at a page of ids already read, whatever else the items say', async () => {
    // Every page the same ten domains, each time with a new expiration date: no page's text repeats.
    await withHostile(
      {
        max: 100_000,
        answer: (page, limit) =>
          Array.from({ length: limit }, (_, i) =>
            domain(i, { expirationdate: `2030-01-${String((page % 28) + 1).padStart(2, '0')}` }),
          ),
      },
      async (client, asked) => {
        const items = await client.listAll('domains.list', {}, { pageSize: 10, concurrency: 2 })
        expect(items.map((d) => d.domainid)).toEqual(Array.from({ length: 10 }, (_, i) => i))
        expect(asked()).toBeLessThanOrEqual(1 + 2)
      },
    )
  })

  it('gives up at its overall deadline, however many pages the service promises', async () => {
    await withHostile(
      {
        max: 100_000,
        holdFrom: 4,
        answer: (page, limit) => Array.from({ length: limit }, (_, i) => domain(page * 1000 + i)),
      },
      async (client) => {
        const listing = client.listAll('domains.list', {}, { pageSize: 10, concurrency: 2, deadlineMs: 300 })
        await expect(listing).rejects.toMatchObject({ kind: 'timeout', code: 'http.listDeadline' })
      },
    )
  })
})
