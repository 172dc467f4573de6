/**
 * The live service's rate limit as recorded (60 requests a minute per key, then every request
 * refused for 18 s, no Retry-After: RateLimit in src/sandbox/behaviour.ts), at a tenth of its
 * durations so that the whole run takes seconds: a window of 6 s, a block of 1.8 s, and the
 * client's first back-off and the network's latency scaled the same. Two runs, each starting
 * unpaced as the app does: a bulk renewal of 100 domains through the app's job runner, and
 * listAll of 10,000 domains. Each must end with no failed item, in at most 1.15x of
 * requests / rate (the time the answered requests take at 60 a minute, scaled).
 *
 * A third run is a new process on a key another one has just blocked: a burst of raw requests
 * takes the key's 60 and has its 61st refused, then a fresh client (a fresh pacer, as each
 * command's process has) lists all the domains. Its bound is the rest of the block plus its
 * requests / rate: it must not crawl at the one request a minute a fresh pacer took from a
 * block it had seen none of the window of.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApiClient, DEFAULT_CONCURRENCY, type ApiClient } from '../src/main/http'
import { Pacer } from '../src/main/http/pacer'
import { Journal } from '../src/main/jobs/ledger/journal-file'
import { LocalLedger } from '../src/main/jobs/ledger/local-ledger'
import { acquireDataLock } from '../src/main/base/data-lock'
import { JobRunner } from '../src/main/jobs/runner'
import { LIVE_RATE_LIMIT, scaledRateLimit } from '../src/sandbox'
import { sendAnswered, sendRefused } from './another-process'
import { startRemoteSandbox, type RemoteSandbox } from './remote-sandbox'
import type { BenchResult } from './report'

const SCALE = 0.1
const LIMIT = scaledRateLimit(LIVE_RATE_LIMIT, SCALE)
/** The client's default first back-off (300 ms), scaled like the service. */
const FIRST_BACKOFF_MS = 300 * SCALE
/** A round trip to the live service of some 200 ms, scaled. */
const LATENCY_MS = 100 * SCALE
const RENEWALS = 100
const DOMAINS = 10_000
const PAGE_SIZE = 100
const TARGET = 1.15
/** Items of the job sent at once: the job runner's default. */
const JOB_CONCURRENCY = 3

interface Run {
  elapsedMs: number
  /** Requests the service answered with anything but a 429. */
  answered: number
  refused: number
  blocks: number
  items: number
  failed: number
  pace: number
  /** Renewals the service carried out (answered 200). */
  renewed: number
}

/** What the sandbox answered between two counts. */
function answeredBetween(before: Record<string, number>, after: Record<string, number>) {
  let answered = 0
  let refused = 0
  let renewed = 0
  for (const [key, n] of Object.entries(after)) {
    const added = n - (before[key] ?? 0)
    if (key.endsWith(' 429')) refused += added
    else answered += added
    if (key === 'domains.expiration.renew 200') renewed += added
  }
  return { answered, refused, renewed }
}

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

async function renewal(): Promise<Run> {
  const sb = await startRemoteSandbox({ domains: RENEWALS, latencyMs: LATENCY_MS, service: { rateLimit: LIMIT } })
  const dir = await mkdtemp(join(tmpdir(), 'bench-renewal-'))
  try {
    // The names, read with the read-only key: a key of its own, so its reads cost the full key nothing.
    const reader = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.readOnly, serverPaths: sb.serverPaths })
    const names = (await reader.listAll('domains.list', {})).map((d) => d.domainname)
    const { client, pacer } = pacedClient(sb)
    // A journal is written only by its folder's holder (data-lock.ts).
    const held = await acquireDataLock(dir, 'cli')
    if (!held.ok) throw new Error(`bench folder held by process ${held.heldBy.pid}`)
    const runner = new JobRunner({
      accounts: { client: async () => client, nameOf: () => 'bench', readOnly: () => false },
      ledger: new LocalLedger(new Journal(join(dir, 'journal.jsonl'), held.lock)),
    })
    await runner.init()
    const before = await sb.answers()
    const t = performance.now()
    // Preparing reads the expiration dates for the confirmation: part of the renewal's requests.
    const { job, token } = await runner.prepare({
      accountId: 'bench',
      operation: 'domains.expiration.renew',
      items: names.map((domain) => ({ params: { domain, years: 1 } })),
      concurrency: JOB_CONCURRENCY,
    })
    const done = await runner.start(job.id, token)
    const elapsedMs = performance.now() - t
    const seen = answeredBetween(before, await sb.answers())
    await runner.close()
    await held.lock.release()
    return {
      elapsedMs,
      ...seen,
      blocks: pacer.stats.blocks,
      items: done.items.length,
      failed: done.items.filter((it) => it.state !== 'done').length,
      pace: pacer.requestsPerSecond,
    }
  } finally {
    await sb.close()
    await rm(dir, { recursive: true, force: true })
  }
}

async function listAll(): Promise<Run> {
  const sb = await startRemoteSandbox({ domains: DOMAINS, latencyMs: LATENCY_MS, service: { rateLimit: LIMIT } })
  try {
    const { client, pacer } = pacedClient(sb)
    const before = await sb.answers()
    const t = performance.now()
    let items = 0
    let failed = 0
    try {
      items = (await client.listAll('domains.list', {}, { pageSize: PAGE_SIZE, concurrency: DEFAULT_CONCURRENCY }))
        .length
    } catch {
      failed = 1
    }
    const elapsedMs = performance.now() - t
    const seen = answeredBetween(before, await sb.answers())
    return {
      elapsedMs,
      ...seen,
      blocks: pacer.stats.blocks,
      items,
      failed: failed || DOMAINS - items,
      pace: pacer.requestsPerSecond,
    }
  } finally {
    await sb.close()
  }
}

/** Another process's burst on the key: its limit answered, then one refused; when the block began. */
async function blockKey(sb: RemoteSandbox): Promise<number> {
  await sendAnswered(sb, LIMIT.limit)
  return sendRefused(sb)
}

async function freshOnBlockedKey(): Promise<Run & { remainingBlockMs: number }> {
  const sb = await startRemoteSandbox({ domains: DOMAINS, latencyMs: LATENCY_MS, service: { rateLimit: LIMIT } })
  try {
    const refusedAt = await blockKey(sb)
    const { client, pacer } = pacedClient(sb)
    const before = await sb.answers()
    const t = performance.now()
    const remainingBlockMs = Math.max(0, refusedAt + LIMIT.blockMs - t)
    let items = 0
    let failed = 0
    try {
      items = (await client.listAll('domains.list', {}, { pageSize: PAGE_SIZE, concurrency: DEFAULT_CONCURRENCY }))
        .length
    } catch {
      failed = 1
    }
    const elapsedMs = performance.now() - t
    const seen = answeredBetween(before, await sb.answers())
    return {
      elapsedMs,
      ...seen,
      blocks: pacer.stats.blocks,
      items,
      failed: failed || DOMAINS - items,
      pace: pacer.requestsPerSecond,
      remainingBlockMs,
    }
  } finally {
    await sb.close()
  }
}

export async function benchListAllRateLimited(): Promise<BenchResult> {
  const renewed = await renewal()
  const listed = await listAll()
  const fresh = await freshOnBlockedKey()
  const perSecond = (LIMIT.limit * 1000) / LIMIT.windowMs
  const report = (r: Run, done: string, remainingBlockMs = 0) => {
    const boundMs = (r.answered / perSecond) * 1000 + remainingBlockMs
    const ratio = r.elapsedMs / boundMs
    return {
      ok: r.failed === 0 && ratio <= TARGET,
      lines: [
        `  requests, 429s, blocks:     ${r.answered} answered, ${r.refused} answered 429, ${r.blocks} block${r.blocks === 1 ? '' : 's'}`,
        `  items:                      ${done}`,
        `  elapsed / ${remainingBlockMs > 0 ? 'bound:           ' : 'requests / rate: '} ${r.elapsedMs.toFixed(0)} / ${boundMs.toFixed(0)} ms = ${ratio.toFixed(2)}x  (target <= ${TARGET}x, 0 failed); ${(r.elapsedMs / SCALE / 1000).toFixed(0)} s at the live speed`,
        `  pace learned:               ${Number.isFinite(r.pace) ? `${r.pace.toFixed(1)} requests/s` : 'none (unpaced)'} (the service allows ${perSecond}/s)`,
        ...(remainingBlockMs > 0
          ? [
              `  bound:                      requests / rate + the block's rest when it started (${remainingBlockMs.toFixed(0)} ms)`,
            ]
          : []),
      ],
    }
  }
  const a = report(
    renewed,
    `${renewed.items - renewed.failed} done, ${renewed.failed} failed; ${renewed.renewed} renewals carried out (${renewed.renewed === RENEWALS ? 'one per domain' : `of ${RENEWALS} domains`})`,
  )
  const b = report(listed, `${listed.items} domains, ${listed.failed} failed`)
  const c = report(fresh, `${fresh.items} domains, ${fresh.failed} failed`, fresh.remainingBlockMs)
  return {
    name: `The live rate limit (${LIVE_RATE_LIMIT.limit} a ${LIVE_RATE_LIMIT.windowMs / 1000} s window, then ${LIVE_RATE_LIMIT.blockMs / 1000} s refused, no Retry-After), time scale ${SCALE}`,
    lines: [
      `time scale ${SCALE}:              window ${LIMIT.windowMs} ms, block ${LIMIT.blockMs} ms (${perSecond} requests/s); the client's first back-off ${FIRST_BACKOFF_MS} ms; latency ${LATENCY_MS} ms`,
      `renewal of ${RENEWALS} domains, through the job runner (${JOB_CONCURRENCY} at once), from the reads of its confirmation to its last item:`,
      ...a.lines,
      `listAll of ${DOMAINS} domains (${PAGE_SIZE} a page, ${DEFAULT_CONCURRENCY} at once):`,
      ...b.lines,
      `a fresh process (a fresh client and pacer) on a key another one has just blocked: listAll of ${DOMAINS} domains:`,
      ...c.lines,
    ],
    ok: a.ok && b.ok && c.ok && renewed.renewed === RENEWALS,
  }
}
