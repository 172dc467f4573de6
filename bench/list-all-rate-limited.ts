/**
 * listAll of 10,000 domains against a sandbox that allows 10 requests per second per key
 * (10 a 1 s window, then 300 ms refused) and answers 429 beyond that, beside the same read
 * without a limit. The client learns the pace from the 429s; no page may fail.
 */
import { createApiClient, DEFAULT_CONCURRENCY } from '../src/main/http'
import { Pacer } from '../src/main/http/pacer'
import { startRemoteSandbox } from './remote-sandbox'
import type { BenchResult } from './report'
import type { RateLimit } from '../src/sandbox'

const DOMAINS = 10_000
const PAGE_SIZE = 100
const PER_SECOND = 10
const RATE_LIMIT: RateLimit = { limit: PER_SECOND, windowMs: 1_000, blockMs: 300 }


async function timedListAll(rateLimit: RateLimit | undefined) {
  const sb = await startRemoteSandbox({ domains: DOMAINS, ...(rateLimit ? { service: { rateLimit } } : {}) })
  try {
    const pacer = new Pacer()
    const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths, pacer })
    const t = performance.now()
    let failed = 0
    let items = 0
    try {
      items = (await client.listAll('domains.list', {}, { pageSize: PAGE_SIZE, concurrency: DEFAULT_CONCURRENCY })).length
    } catch {
      failed = 1
    }
    return { ms: performance.now() - t, items, failed, tooMany: pacer.stats.limited, pace: pacer.requestsPerSecond }
  } finally {
    await sb.close()
  }
}

export async function benchListAllRateLimited(): Promise<BenchResult> {
  const pages = Math.ceil(DOMAINS / PAGE_SIZE)
  const free = await timedListAll(undefined)
  const limited = await timedListAll(RATE_LIMIT)
  const boundMs = (pages / PER_SECOND) * 1000
  const ratio = limited.ms / boundMs
  const complete = (r: { items: number; failed: number }) => r.failed === 0 && r.items === DOMAINS
  return {
    name: `listAll ${DOMAINS} domains, ${pages} pages, concurrency ${DEFAULT_CONCURRENCY}, service limit ${RATE_LIMIT.limit} a ${RATE_LIMIT.windowMs} ms window, ${RATE_LIMIT.blockMs} ms refused past it`,
    lines: [
      `no limit:                     ${free.ms.toFixed(0)} ms, ${free.items} domains, ${free.failed} failed, ${free.tooMany} answers 429`,
      `limited:                      ${limited.ms.toFixed(0)} ms, ${limited.items} domains, ${limited.failed} failed, ${limited.tooMany} answers 429 (re-sent after a wait)`,
      `pace learned at the end:      ${limited.pace.toFixed(1)} requests/s (service allows ${PER_SECOND}/s)`,
      `rate bound pages / rate:      ${boundMs.toFixed(0)} ms`,
      `limited / rate bound:         ${ratio.toFixed(2)}x  (target <= 1.15x, 0 failed)`,
    ],
    ok: complete(free) && complete(limited) && ratio <= 1.15,
  }
}
