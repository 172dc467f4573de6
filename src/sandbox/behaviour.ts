/**
 * How the stand-in service behaves where the live one is known to differ from the spec: its own
 * product words for ns_type, what it does to stored DNS (comment lines dropped, a TTL under its
 * minimum raised), and a rate limit per API key. Every behaviour is off, or the spec's, unless a
 * test, a benchmark or the command line turns it on; tests may change it while the sandbox runs.
 */
import type { NsType } from '@shared/service/spec-words'

export interface ServiceBehaviour {
  /** The word the service uses for each DNS flavour in ns_type (the spec writes svc1 / svc11). */
  nsTypeWords: Record<NsType, string>
  /** Comment lines in `records` are not stored (the live service is reported to drop them). */
  dropComments: boolean
  /** A TTL under this is stored as 3600 (the live service is reported to do so under 120). */
  minTtl: number | undefined
  /** Record lines are kept grouped by type (the live service is reported to reorder lines; see records.ts). */
  reorderLines: boolean
  /** The live service's rate limit per API key (see `RateLimit`); undefined for no limit. */
  rateLimit: RateLimit | undefined
}

/**
 * The rate limit as the live service was recorded enforcing it, per API key: `limit` requests
 * in a fixed window of `windowMs` that starts with the window's first request; the request over
 * the limit is refused (429, no Retry-After) and so is every request after it, refused ones
 * included, until `blockMs` after that first refusal; the next request then starts a fresh window.
 *
 * Source: dns-lexicon/dns-lexicon, tests/fixtures/cassettes/valuedomain/IntegrationTests/
 * test_provider_when_calling_list_records_after_setting_ttl.yaml and the other valuedomain
 * cassettes recorded with it on 2021-11-15. A client sending one or two requests a second had
 * 60 requests answered in 44 s; the 61st got 429 with no Retry-After. It waited 1, 2, 4 and 8 s:
 * 429s at +0, +2, +4 and +9 s (the refusals did not lengthen the block), success at +18 s, and
 * the 41 requests of the next 28 s went through without a 429. The first success
 * also falls at the end of a 60 s window begun with the first of the 60 requests, so the
 * recording does not tell a block of 18 s from one lasting to the window's end; the block is
 * modelled as its own 18 s. The refused requests are not in the service's request log.
 */
export interface RateLimit {
  /** Requests answered per window. */
  limit: number
  windowMs: number
  /** How long every request is refused, from the first refusal. */
  blockMs: number
}

/** The live service's limit, as recorded (see `RateLimit`). */
export const LIVE_RATE_LIMIT: RateLimit = { limit: 60, windowMs: 60_000, blockMs: 18_000 }

/**
 * The same limit with its durations multiplied by `scale` (0.1: a window of 6 s, a block of
 * 1.8 s), for benchmarks and tests that cannot wait minutes; the count stays as it is.
 */
export function scaledRateLimit(limit: RateLimit, scale: number): RateLimit {
  return { limit: limit.limit, windowMs: limit.windowMs * scale, blockMs: limit.blockMs * scale }
}

export function defaultBehaviour(): ServiceBehaviour {
  return {
    nsTypeWords: { svc1: 'svc1', svc11: 'svc11' },
    dropComments: false,
    minTtl: undefined,
    reorderLines: false,
    rateLimit: undefined,
  }
}

/**
 * The rate limit's bookkeeping per key (see `RateLimit`): a function telling whether a request
 * of that key, arriving now, may go through. `now` is injectable so tests control time. A key's
 * count starts afresh when the limit it runs under is replaced (tests change it while the
 * sandbox runs).
 */
export function createRateLimiter(now: () => number = Date.now) {
  interface KeyState {
    under: RateLimit
    windowStart: number
    count: number
    /** Refused until then; -Infinity when not blocked. */
    blockedUntil: number
  }
  const keys = new Map<string, KeyState>()
  return (key: string, limit: RateLimit | undefined): boolean => {
    if (!limit) return true
    const t = now()
    let s = keys.get(key)
    if (s && s.under === limit && t < s.blockedUntil) return false
    // A first request, a replaced limit, a block that has ended or a window that has run out:
    // this request starts a fresh window.
    if (!s || s.under !== limit || s.blockedUntil !== -Infinity || t >= s.windowStart + limit.windowMs) {
      s = { under: limit, windowStart: t, count: 0, blockedUntil: -Infinity }
      keys.set(key, s)
    }
    if (s.count >= limit.limit) {
      s.blockedUntil = t + limit.blockMs
      return false
    }
    s.count++
    return true
  }
}
