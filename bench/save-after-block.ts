/**
 * A zone save on a key another process has just blocked (issue 52, point 6), under the live
 * service's rate limit as recorded (60 requests a minute per key, then 18 s refused, no
 * Retry-After), scaled as list-all-rate-limited.ts scales it. Two cases, each on a sandbox of its
 * own, from when another process's request over the limit was refused:
 *
 * - fresh: a fresh client and pacer (a new command's process) saves the zone;
 * - partial: a client that had two requests answered just before the other process used the rest
 *   of the window up saves the zone with the same pacer. It saw only part of the window before a
 *   block it did not cause; taking its two answers as the quota, it paced the save at one request
 *   every 32 s (a one-line `dns apply`: 86 s against the fresh case's 21 s).
 *
 * The save is what a one-line `dns apply` sends, one after another: the zone read for its plan,
 * read again as its guard just before the save, the save, and the read-back. Both wait the same
 * block out; the target is the partial case within 1.15x of the fresh one (medians of rounds run
 * alternately).
 */
import { createApiClient, type ApiClient } from '../src/main/http'
import { Pacer } from '../src/main/http/pacer'
import { LIVE_RATE_LIMIT, scaledRateLimit } from '../src/sandbox'
import { sendAnswered, sendRefused } from './another-process'
import { startRemoteSandbox, type RemoteSandbox } from './remote-sandbox'
import type { BenchResult } from './report'
import { median } from './stats'

const SCALE = 0.1
const LIMIT = scaledRateLimit(LIVE_RATE_LIMIT, SCALE)
/** The client's default first back-off (300 ms), scaled like the service. */
const FIRST_BACKOFF_MS = 300 * SCALE
/** A round trip to the live service of some 200 ms, scaled. */
const LATENCY_MS = 100 * SCALE
/** Requests the saving process had answered just before the other one used the window up. */
const ANSWERED_BEFORE = 2
const ROUNDS = 3
const TARGET = 1.15

interface Save {
  elapsedMs: number
  answered: number
  refused: number
  pace: number
}

const sum = (o: Record<string, number>, refused: boolean) =>
  Object.entries(o).reduce((n, [k, v]) => n + (k.endsWith(' 429') === refused ? v : 0), 0)

function pacedClient(sb: RemoteSandbox): { client: ApiClient; pacer: Pacer } {
  const pacer = new Pacer({ firstProbeMs: FIRST_BACKOFF_MS })
  const client = createApiClient({
    baseUrl: sb.url,
    apiKey: sb.keys.full,
    serverPaths: sb.serverPaths,
    pacer,
    retry: { attempts: 2, baseDelayMs: FIRST_BACKOFF_MS },
  })
  return { client, pacer }
}

/** The requests of a one-line `dns apply`, one after another. */
async function saveOneLine(client: ApiClient, domain: string): Promise<void> {
  const planned = await client.call('domains.dns.get', { domain })
  const guard = await client.call('domains.dns.get', { domain })
  if (guard.records !== planned.records) throw new Error(`the zone ${domain} changed between its plan and its save`)
  const records = `${planned.records}\ntxt bench-after-block "saved"`
  await client.call('domains.dns.set', { domain, records, ns_type: planned.ns_type })
  const kept = await client.call('domains.dns.get', { domain })
  if (!kept.records.includes('bench-after-block')) throw new Error(`the save of ${domain} was not kept`)
}

async function saveAfterBlock(partial: boolean): Promise<Save> {
  const sb = await startRemoteSandbox({ domains: 1, latencyMs: LATENCY_MS, service: { rateLimit: LIMIT } })
  try {
    const [domain] = await sb.domainNames()
    if (domain === undefined) throw new Error('the sandbox holds no domain')
    const { client, pacer } = pacedClient(sb)
    if (partial) {
      await sendAnswered(sb, LIMIT.limit - ANSWERED_BEFORE)
      for (let i = 0; i < ANSWERED_BEFORE; i++) await client.call('domains.dns.get', { domain })
    } else {
      await sendAnswered(sb, LIMIT.limit)
    }
    await sendRefused(sb)
    const before = await sb.answers()
    const t = performance.now()
    await saveOneLine(client, domain)
    const elapsedMs = performance.now() - t
    const after = await sb.answers()
    return {
      elapsedMs,
      answered: sum(after, false) - sum(before, false),
      refused: sum(after, true) - sum(before, true),
      pace: pacer.requestsPerSecond,
    }
  } finally {
    await sb.close()
  }
}

export async function benchSaveAfterBlock(): Promise<BenchResult> {
  const fresh: Save[] = []
  const partial: Save[] = []
  for (let round = 0; round < ROUNDS; round++) {
    fresh.push(await saveAfterBlock(false))
    partial.push(await saveAfterBlock(true))
  }
  const freshMs = median(fresh.map((s) => s.elapsedMs))
  const partialMs = median(partial.map((s) => s.elapsedMs))
  const ratio = partialMs / freshMs
  const perSecond = (LIMIT.limit * 1000) / LIMIT.windowMs
  const line = (label: string, ms: number, runs: Save[]) => {
    const last = runs.at(-1)
    const pace = last && Number.isFinite(last.pace) ? `${last.pace.toFixed(2)} requests/s` : 'none (unpaced)'
    return `${label} ${ms.toFixed(0)} ms (${(ms / SCALE / 1000).toFixed(0)} s at the live speed); ${last?.answered ?? 0} answered, ${last?.refused ?? 0} answered 429; pace after: ${pace}`
  }
  return {
    name: `A zone save on a key another process has just blocked (the live rate limit: ${LIVE_RATE_LIMIT.limit} a ${LIVE_RATE_LIMIT.windowMs / 1000} s window, then ${LIVE_RATE_LIMIT.blockMs / 1000} s refused), time scale ${SCALE}`,
    lines: [
      `time scale ${SCALE}:     window ${LIMIT.windowMs} ms, block ${LIMIT.blockMs} ms (${perSecond} requests/s); the client's first back-off ${FIRST_BACKOFF_MS} ms; latency ${LATENCY_MS} ms; ${ROUNDS} rounds alternately, medians`,
      `the save:           a one-line dns apply's requests (zone read, read again as its guard, saved, read back), from the other process's refused request`,
      line(`fresh process:     `, freshMs, fresh),
      line(`${ANSWERED_BEFORE} answers before:  `, partialMs, partial),
      `partial / fresh:    ${ratio.toFixed(2)}x  (target <= ${TARGET}x)`,
    ],
    ok: ratio <= TARGET,
  }
}
