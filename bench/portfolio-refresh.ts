/**
 * A full refresh of one account into the portfolio store, as the app does it: every stored
 * account-wide list of 10,000 domains read with listAll against the sandbox at 20 ms latency,
 * each kept in the store as it arrives. Printed beside the bound of the reads alone (per list,
 * ceil(pages / concurrency) x latency, one list after another) and the store's own share.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApiClient, DEFAULT_CONCURRENCY } from '../src/main/http'
import { openPortfolioStore } from '../src/main/store'
import { startRemoteSandbox } from './remote-sandbox'
import type { BenchResult } from './report'

const DOMAINS = 10_000
const LATENCY_MS = 20
const PAGE_SIZE = 100
/** What one account's refresh reads: the domain lists behind the list, its columns and the DNS screen. */
const LISTS = [
  'domains.list',
  'domains.expiration.list',
  'domains.autorenew.list',
  'domains.transferlock.list',
  'domains.whois.list',
  'domains.nameserver.list',
  'domains.dnssec.list',
  'domains.dynamicdns.list',
  'domains.dns.list',
] as const

export async function benchPortfolioRefresh(): Promise<BenchResult> {
  const sb = await startRemoteSandbox({ domains: DOMAINS, latencyMs: LATENCY_MS })
  const dir = await mkdtemp(join(tmpdir(), 'portfolio-refresh-'))
  const store = openPortfolioStore(join(dir, 'portfolio.db'))
  try {
    const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    let storeMs = 0
    const t0 = performance.now()
    for (const name of LISTS) {
      const items = await client.listAll(name, {}, { pageSize: PAGE_SIZE, concurrency: DEFAULT_CONCURRENCY })
      const s = performance.now()
      store.keepList('bench', name, {}, items, new Date().toISOString())
      storeMs += performance.now() - s
    }
    const total = performance.now() - t0
    const pages = Math.ceil(DOMAINS / PAGE_SIZE)
    const bound = LISTS.length * Math.ceil(pages / DEFAULT_CONCURRENCY) * LATENCY_MS
    const reads = total - storeMs
    return {
      name: `full refresh of one account: ${LISTS.length} lists of ${DOMAINS} domains, ${LATENCY_MS} ms latency, concurrency ${DEFAULT_CONCURRENCY}`,
      lines: [
        `refresh, reads and store:     ${total.toFixed(0)} ms`,
        `of which the store's writes:  ${storeMs.toFixed(0)} ms`,
        `reads alone / listAll bound:  ${reads.toFixed(0)} / ${bound} ms = ${(reads / bound).toFixed(2)}x  (target <= 1.30x, as listAll)`,
        `whole refresh / bound:        ${(total / bound).toFixed(2)}x`,
      ],
      ok: reads / bound <= 1.3,
    }
  } finally {
    store.close()
    await rm(dir, { recursive: true, force: true })
    await sb.close()
  }
}
