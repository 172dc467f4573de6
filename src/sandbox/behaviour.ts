/**
 * How the stand-in service behaves where the live one is known to differ from the spec: its own
 * product words for ns_type, what it does to stored DNS (comment lines dropped, a TTL under its
 * minimum raised), and a rate limit per API key. Every behaviour is off, or the spec's, unless a
 * test, a benchmark or the command line turns it on; tests may change it while the sandbox runs.
 */
import type { NsType } from '../shared/constants'

export interface ServiceBehaviour {
  /** The word the service uses for each DNS flavour in ns_type (the spec writes svc1 / svc11). */
  nsTypeWords: Record<NsType, string>
  /** Comment lines in `records` are not stored (the live service is reported to drop them). */
  dropComments: boolean
  /** A TTL under this is stored as 3600 (the live service is reported to do so under 120). */
  minTtl: number | undefined
  /** Record lines are kept grouped by type (the live service is reported to reorder lines; see records.ts). */
  reorderLines: boolean
  /** Requests per second and burst allowed per API key; undefined for no limit. */
  rateLimit: { perSecond: number; burst: number } | undefined
}

export function defaultBehaviour(): ServiceBehaviour {
  return { nsTypeWords: { svc1: 'svc1', svc11: 'svc11' }, dropComments: false, minTtl: undefined, reorderLines: false, rateLimit: undefined }
}

/** A token bucket per key: true when the request may go through now. */
export function createRateLimiter(now: () => number = Date.now) {
  const buckets = new Map<string, { tokens: number; at: number }>()
  return (key: string, limit: ServiceBehaviour['rateLimit']): boolean => {
    if (!limit) return true
    const t = now()
    const b = buckets.get(key) ?? { tokens: limit.burst, at: t }
    b.tokens = Math.min(limit.burst, b.tokens + ((t - b.at) / 1000) * limit.perSecond)
    b.at = t
    buckets.set(key, b)
    if (b.tokens < 1) return false
    b.tokens -= 1
    return true
  }
}
