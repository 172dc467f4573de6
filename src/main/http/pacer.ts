/**
 * Pacing the requests of one API key when the service says "too many" (HTTP 429).
 *
 * The service limits each key, so everything sent with a key (list reads, bulk jobs, single
 * calls) shares one pacer. Nothing is paced until the first 429. Then requests leave evenly
 * spaced, as TCP finds a link's speed: the pace starts a little under what got through in the
 * last second (often just the service's burst), doubles every half second until the next 429 (slow
 * start), and from then on rises slowly (5% a second) while nothing is refused and drops by 10%
 * at each 429 (additive increase, multiplicative decrease). Requests wait their turn instead
 * of failing.
 */
import { setTimeout as sleep } from 'node:timers/promises'

/** After a 429 the pace is this share of what it was. */
const DECREASE = 0.9
/** Per second without a 429, the pace grows by this share of itself (at least MIN_INCREASE). */
const INCREASE = 0.05
const MIN_INCREASE = 0.25
/** Requests per second: the pace never drops below this. */
const FLOOR = 0.2
/** 429s that come within this many of the current spacings of each other are one signal (one burst). */
const SAME_BURST_SPACINGS = 2
const SAME_BURST_MIN_MS = 200
/** Until the second 429, the pace doubles this often. */
const SLOW_START_DOUBLING_MS = 500

export class Pacer {
  /** Requests per second; Infinity until the service first asks to slow down. */
  private rate = Infinity
  private nextAt = 0
  /** When requests got through in the last second (for the first estimate). */
  private readonly recent: number[] = []
  private lastLimitedAt = -Infinity
  private lastRaisedAt = 0
  /** Doubling until the second 429: the first estimate is a floor, not the service's rate. */
  private slowStart = true

  constructor(private readonly now: () => number = Date.now) {}

  /** The current pace (for tests and the benchmark). */
  get requestsPerSecond(): number {
    return this.rate
  }

  /** Waits for this request's slot. */
  async take(signal?: AbortSignal): Promise<void> {
    if (!Number.isFinite(this.rate)) return
    const now = this.now()
    const at = Math.max(now, this.nextAt)
    this.nextAt = at + 1000 / this.rate
    if (at > now) await sleep(at - now, undefined, signal ? { signal } : undefined)
  }

  /** An answer that was not a 429. */
  passed(): void {
    const now = this.now()
    if (!Number.isFinite(this.rate)) {
      this.recent.push(now)
      while ((this.recent[0] ?? now) < now - 1000) this.recent.shift()
      return
    }
    const elapsed = now - this.lastRaisedAt
    if (elapsed <= 0) return
    if (this.slowStart) this.rate *= 2 ** (elapsed / SLOW_START_DOUBLING_MS)
    else this.rate += Math.max(MIN_INCREASE, this.rate * INCREASE) * (elapsed / 1000)
    this.lastRaisedAt = now
  }

  /** A 429: slow down. */
  limited(): void {
    const now = this.now()
    if (!Number.isFinite(this.rate)) {
      // What got through in the last second is the first estimate of what the service allows.
      while ((this.recent[0] ?? now) < now - 1000) this.recent.shift()
      this.rate = Math.max(FLOOR, Math.max(1, this.recent.length) * DECREASE)
      this.recent.length = 0
    } else {
      // Requests in flight together are refused together: their 429s are one signal, not many.
      if (now - this.lastLimitedAt < Math.max(SAME_BURST_MIN_MS, (SAME_BURST_SPACINGS * 1000) / this.rate)) return
      this.rate = Math.max(FLOOR, this.rate * DECREASE)
      this.slowStart = false
    }
    this.lastLimitedAt = now
    this.lastRaisedAt = now
    this.nextAt = Math.max(this.nextAt, now + 1000 / this.rate)
  }
}
