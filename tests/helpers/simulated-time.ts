/**
 * Simulated time for the pacer's tests: a clock whose sleeps are fired in order by the test,
 * and a service that answers as the sandbox's rate limit does, with a network delay each way.
 * Minutes of the live service's limit run in milliseconds, whatever the machine's speed.
 */
import type { PacerClock } from '../../src/main/http/pacer'
import { createRateLimiter, type RateLimit } from '../../src/sandbox/behaviour'

interface Timer {
  at: number
  seq: number
  fire(): void
}

/** Lets every pending promise reaction run (a macrotask comes after all microtasks). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

export class SimulatedClock implements PacerClock {
  t = 0
  private timers: Timer[] = []
  private seq = 0

  now(): number {
    return this.t
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
      const timer: Timer = {
        at: this.t + Math.max(0, ms),
        seq: this.seq++,
        fire: () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        },
      }
      const onAbort = () => {
        this.timers = this.timers.filter((x) => x !== timer)
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'))
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.timers.push(timer)
    })
  }

  /** Fires the sleeps in time order, letting everything run between two, until `work` ends. */
  async run<T>(work: Promise<T>): Promise<T> {
    let done = false
    work.then(
      () => (done = true),
      () => (done = true),
    )
    for (let steps = 0; steps < 5_000_000; steps++) {
      await settle()
      if (done) return work
      let next: Timer | undefined
      for (const x of this.timers) if (!next || x.at < next.at || (x.at === next.at && x.seq < next.seq)) next = x
      if (!next) throw new Error('simulated time: nothing left to wait for, and the work has not ended')
      this.timers = this.timers.filter((x) => x !== next)
      this.t = next.at
      next.fire()
    }
    throw new Error('simulated time: too many steps')
  }
}

/** The same numbers on every run: a small linear congruential generator. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

export interface Arrival {
  at: number
  ok: boolean
}

/** A service limited as the sandbox limits it, reached over a network of `latencyMs` each way (min to max). */
export function simulatedService(
  clock: SimulatedClock,
  limit: () => RateLimit,
  latencyMs: { min: number; max: number },
  seed = 1,
) {
  const allow = createRateLimiter(() => clock.now())
  const random = seeded(seed)
  const arrivals: Arrival[] = []
  const delay = () => latencyMs.min + random() * (latencyMs.max - latencyMs.min)
  return {
    arrivals,
    /** One request: true when it was answered, false for a 429. */
    async send(): Promise<boolean> {
      await clock.sleep(delay())
      const ok = allow('key', limit())
      arrivals.push({ at: clock.now(), ok })
      await clock.sleep(delay())
      return ok
    },
    /** Runs of 429s, each ended by a request let through. */
    blocks(): number {
      let n = 0
      for (let i = 0; i < arrivals.length; i++) if (!arrivals[i]!.ok && (i === 0 || arrivals[i - 1]!.ok)) n++
      return n
    },
    refused(): number {
      return arrivals.filter((a) => !a.ok).length
    },
  }
}
