/**
 * listAll of 10,000 domains with 20 ms latency per sandbox request, side by side with
 * a sequential page loop and the physical bound ceil(pages / concurrency) x latency.
 */
import { createApiClient, DEFAULT_CONCURRENCY } from '../src/main/http'
import { startRemoteSandbox } from './remote-sandbox'
import type { BenchResult } from './report'
import { median } from './stats'

const DOMAINS = 10_000
const LATENCY_MS = 20
const PAGE_SIZE = 100
const RUNS = 5

export async function benchListAll(): Promise<BenchResult> {
  const sb = await startRemoteSandbox({ domains: DOMAINS, latencyMs: LATENCY_MS })
  try {
    const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    const concurrent: number[] = []
    const sequential: number[] = []
    // One unmeasured run, so JIT warm-up of client and sandbox is not counted against either side.
    await client.listAll('domains.list', {}, { pageSize: PAGE_SIZE })
    for (let run = 0; run < RUNS; run++) {
      let t = performance.now()
      const all = await client.listAll('domains.list', {}, { pageSize: PAGE_SIZE, concurrency: DEFAULT_CONCURRENCY })
      concurrent.push(performance.now() - t)
      if (all.length !== DOMAINS) throw new Error(`listAll returned ${all.length} of ${DOMAINS}`)

      t = performance.now()
      let count = 0
      for (let page = 1; ; page++) {
        const items = await client.call('domains.list', { limit: PAGE_SIZE, page })
        count += items.length
        if (items.length < PAGE_SIZE) break
      }
      sequential.push(performance.now() - t)
      if (count !== DOMAINS) throw new Error(`the sequential loop read ${count} of ${DOMAINS}`)
    }
    const pages = Math.ceil(DOMAINS / PAGE_SIZE)
    const bound = Math.ceil(pages / DEFAULT_CONCURRENCY) * LATENCY_MS
    const c = median(concurrent)
    const s = median(sequential)
    return {
      name: `listAll ${DOMAINS} domains, ${LATENCY_MS} ms latency, ${pages} pages, concurrency ${DEFAULT_CONCURRENCY}`,
      lines: [
        `listAll (median of ${RUNS}):        ${c.toFixed(0)} ms`,
        `sequential page loop:          ${s.toFixed(0)} ms`,
        `bound ceil(pages/conc)*latency: ${bound} ms`,
        `floor with page 1 read first:  ${(1 + Math.ceil((pages - 1) / DEFAULT_CONCURRENCY)) * LATENCY_MS} ms (paging.max is only known after page 1)`,
        `listAll / bound:               ${(c / bound).toFixed(2)}x  (target <= 1.30x)`,
        `sequential / listAll:          ${(s / c).toFixed(2)}x  (target >= 3.00x)`,
      ],
      ok: c / bound <= 1.3 && s / c >= 3,
    }
  } finally {
    await sb.close()
  }
}
