/**
 * Ten accounts refreshed at once (issue 26, point 3): each account a service of its own (a
 * sandbox in its own thread, with its own key and the live rate limit of 60 requests a minute
 * per key, at a tenth of its durations as in list-all-rate-limited.ts), each with its own client
 * and pacer as the app makes them, all writing into the one store in its worker. One account
 * refreshed alone first, then all ten side by side. Each account's refresh is set beside its
 * own bound (its answered requests at its key's rate); the ten together beside the slowest
 * one's bound: paced each on its own, ten accounts take about as long as one, not ten times.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApiClient } from '../src/main/http'
import { Pacer, type Slot } from '../src/main/http/pacer'
import { refreshAccount } from '../src/main/reads/refresh-account'
import { REFRESHED_LISTS } from '../src/main/store/lists'
import { openStoreInWorker } from '../src/main/store/store-worker'
import type { PortfolioStoreAsync } from '../src/main/store/store-async'
import { LIVE_RATE_LIMIT, scaledRateLimit } from '../src/sandbox'
import { startRemoteSandbox, type RemoteSandbox } from './remote-sandbox'
import type { BenchResult } from './report'

const ACCOUNTS = 10
const DOMAINS = 1_000
const PAGE_SIZE = 100
const SCALE = 0.1
const LIMIT = scaledRateLimit(LIVE_RATE_LIMIT, SCALE)
const FIRST_BACKOFF_MS = 300 * SCALE
const LATENCY_MS = 100 * SCALE
const TARGET = 1.15
const PER_SECOND = (LIMIT.limit * 1000) / LIMIT.windowMs
const RUN_OPTIONS = { firstBackoffMs: FIRST_BACKOFF_MS, pageSize: PAGE_SIZE }

interface AccountRun {
  elapsedMs: number
  answered: number
  refused: number
  failed: number
  read: number
  /**
   * The refresh after its first block ended (from the probe that ended it), when one did: the
   * part paced at what the pacer learned, without the first window's quota, which goes at once.
   */
  paced: { ms: number; answered: number } | undefined
}

/** An account's pacer that notes when its first block ended and the answers from then on. */
class FirstBlockPacer extends Pacer {
  firstBlockEndAt: number | undefined
  answeredSince = 0

  override passed(slot: Slot): void {
    super.passed(slot)
    if (this.firstBlockEndAt !== undefined) this.answeredSince++
    else if (this.stats.blocks > 0) [this.firstBlockEndAt, this.answeredSince] = [slot.sentAt, 1]
  }
}

const sum = (o: Record<string, number>, refused: boolean) =>
  Object.entries(o).reduce((n, [k, v]) => n + (k.endsWith(' 429') === refused ? v : 0), 0)

/**
 * One account's refresh from its sandbox, with the requests its service answered and refused
 * meanwhile (also the 100,000-domain bench's refresh figure).
 */
export async function refreshOne(
  sb: RemoteSandbox,
  store: PortfolioStoreAsync,
  accountId: string,
  opts: { firstBackoffMs: number; pageSize?: number },
): Promise<AccountRun> {
  // As the accounts service makes an account's client: its own pacer, learning its own key's pace.
  const pacer = new FirstBlockPacer({ firstProbeMs: opts.firstBackoffMs })
  const client = createApiClient({
    baseUrl: sb.url,
    apiKey: sb.keys.full,
    serverPaths: sb.serverPaths,
    pacer,
    retry: { attempts: 2, baseDelayMs: opts.firstBackoffMs },
  })
  const before = await sb.answers()
  const t = performance.now()
  const r = await refreshAccount(client, store, accountId, opts.pageSize ? { pageSize: opts.pageSize } : {})
  const end = performance.now()
  const elapsedMs = end - t
  const after = await sb.answers()
  return {
    elapsedMs,
    answered: sum(after, false) - sum(before, false),
    refused: sum(after, true) - sum(before, true),
    failed: r.failed.length,
    read: r.read,
    paced:
      pacer.firstBlockEndAt === undefined
        ? undefined
        : { ms: end - pacer.firstBlockEndAt, answered: pacer.answeredSince },
  }
}

const boundOf = (r: AccountRun) => (r.answered / PER_SECOND) * 1000

export async function benchTenAccountsRefresh(): Promise<BenchResult> {
  const sandboxes = await Promise.all(
    Array.from({ length: ACCOUNTS + 1 }, () =>
      startRemoteSandbox({ domains: DOMAINS, latencyMs: LATENCY_MS, service: { rateLimit: LIMIT } }),
    ),
  )
  const dir = await mkdtemp(join(tmpdir(), 'ten-accounts-refresh-'))
  const store = await openStoreInWorker(join(dir, 'portfolio.db'))
  try {
    const alone = await refreshOne(sandboxes[ACCOUNTS]!, store, 'alone', RUN_OPTIONS)
    const t = performance.now()
    const runs = await Promise.all(
      sandboxes.slice(0, ACCOUNTS).map((sb, i) => refreshOne(sb, store, `account-${i + 1}`, RUN_OPTIONS)),
    )
    const wallMs = performance.now() - t
    const ratios = runs.map((r) => r.elapsedMs / boundOf(r))
    const slowestBound = Math.max(...runs.map(boundOf))
    const failed = runs.reduce((n, r) => n + r.failed, 0) + alone.failed
    const lists = runs.reduce((n, r) => n + r.read, 0)
    const worst = Math.max(...ratios)
    const together = wallMs / slowestBound
    return {
      name: `${ACCOUNTS} accounts of ${DOMAINS} domains refreshed at once, each under its own key's rate limit (${LIVE_RATE_LIMIT.limit} a minute), time scale ${SCALE}`,
      lines: [
        `time scale ${SCALE}: window ${LIMIT.windowMs} ms, block ${LIMIT.blockMs} ms (${PER_SECOND} requests/s per key); latency ${LATENCY_MS} ms; ${REFRESHED_LISTS.length} lists an account, ${PAGE_SIZE} a page`,
        `one account alone:       ${alone.elapsedMs.toFixed(0)} ms for ${alone.answered} requests (${alone.refused} answered 429) = ${(alone.elapsedMs / boundOf(alone)).toFixed(2)}x its bound`,
        `${ACCOUNTS} accounts at once:     ${wallMs.toFixed(0)} ms in all, ${lists} of ${ACCOUNTS * REFRESHED_LISTS.length} lists kept, ${failed} failed`,
        `  each beside its bound:  median ${[...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!.toFixed(2)}x, worst ${worst.toFixed(2)}x  (target <= ${TARGET}x, as one account's listAll)`,
        `  429s answered:          ${runs.map((r) => r.refused).join(', ')}`,
        `  all ten / slowest bound: ${together.toFixed(2)}x  (target <= ${TARGET}x: in parallel; one after another would be about ${ACCOUNTS}x)`,
        `  all ten / one alone:    ${(wallMs / alone.elapsedMs).toFixed(2)}x  (the bound counts a steady ${PER_SECOND} a second; a key's first window lets ${LIMIT.limit} through at once, so a short refresh beats it)`,
        `  at the live speed:      ${(wallMs / SCALE / 1000).toFixed(0)} s for all ten accounts`,
      ],
      ok: failed === 0 && worst <= TARGET && together <= TARGET && alone.elapsedMs / boundOf(alone) <= TARGET,
    }
  } finally {
    await store.close()
    await Promise.all(sandboxes.map((sb) => sb.close()))
    await rm(dir, { recursive: true, force: true })
  }
}
