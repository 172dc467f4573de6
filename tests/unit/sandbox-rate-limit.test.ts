/**
 * The sandbox's rate limit against what was recorded of the live service (see RateLimit in
 * src/sandbox/behaviour.ts): 60 requests a window begun by its first request, then every
 * request refused for 18 s from the first refusal, then a fresh window. Time is a number the
 * test sets; nothing here waits.
 */
import { describe, expect, it } from 'vitest'
import { createRateLimiter, LIVE_RATE_LIMIT, scaledRateLimit, type RateLimit } from '../../src/sandbox/behaviour'
import { rateLimitRecording } from '../helpers/live-fixtures'

function limiterAt() {
  const clock = { t: 0 }
  const allow = createRateLimiter(() => clock.t)
  return { clock, allow }
}

describe('the sandbox’s rate limit, as recorded', () => {
  it('replays the recording (tests/fixtures/live/rate-limit-burst.json): 60 answered in 44 s, the 61st refused, refused again until +18 s, then 40 more at a normal pace', () => {
    const rec = rateLimitRecording()
    expect(rec['429'].headers).not.toHaveProperty('retry-after')
    const { clock, allow } = limiterAt()
    const spanMs = rec.secondsBeforeFirst429 * 1000
    // The answered requests at one or two a second, the last just before the first refusal.
    for (let i = 0; i < rec.requestsBeforeFirst429; i++) {
      clock.t = Math.round((i * (spanMs - 400)) / (rec.requestsBeforeFirst429 - 1))
      expect(allow('k', LIVE_RATE_LIMIT), `request ${i + 1}`).toBe(true)
    }
    for (const t of rec.triesAfterFirst429) {
      clock.t = spanMs + t.atSeconds * 1000
      expect(allow('k', LIVE_RATE_LIMIT), `+${t.atSeconds} s`).toBe(t.status === 200)
    }
    const answeredAt = clock.t
    for (let i = 1; i <= 40; i++) {
      clock.t = answeredAt + i * 700
      expect(allow('k', LIVE_RATE_LIMIT), `after the block, request ${i + 1}`).toBe(true)
    }
  })

  it('a burst: 60 go through at once, then everything is refused for 18 s and the refusals do not lengthen it; then a fresh window of 60', () => {
    const { clock, allow } = limiterAt()
    const answers = Array.from({ length: 64 }, () => allow('k', LIVE_RATE_LIMIT))
    expect(answers.filter(Boolean)).toHaveLength(60)
    expect(answers.slice(60)).toEqual([false, false, false, false])
    for (let t = 100; t < 18_000; t += 100) {
      clock.t = t
      expect(allow('k', LIVE_RATE_LIMIT), `${t} ms`).toBe(false)
    }
    clock.t = 18_000
    // The window the burst began would run to 60 s; the block ends it, and a new one begins here.
    expect(Array.from({ length: 61 }, () => allow('k', LIVE_RATE_LIMIT)).filter(Boolean)).toHaveLength(60)
    clock.t = 35_999
    expect(allow('k', LIVE_RATE_LIMIT)).toBe(false)
    clock.t = 36_000
    expect(allow('k', LIVE_RATE_LIMIT)).toBe(true)
  })

  it('a window ends 60 s after its first request: 60 a minute, evenly or not, is never refused', () => {
    const { clock, allow } = limiterAt()
    for (let i = 0; i < 600; i++) {
      clock.t = i * 1_000
      expect(allow('k', LIVE_RATE_LIMIT), `request ${i + 1}`).toBe(true)
    }
    // 59 in the first second of a window, one at its last millisecond: the 61st then is refused.
    const { clock: c2, allow: a2 } = limiterAt()
    for (let i = 0; i < 59; i++) expect(a2('k', LIVE_RATE_LIMIT)).toBe(true)
    c2.t = 59_999
    expect(a2('k', LIVE_RATE_LIMIT)).toBe(true)
    expect(a2('k', LIVE_RATE_LIMIT)).toBe(false)
    // A window that ran out without a refusal: the next request begins a new one at once.
    const { clock: c3, allow: a3 } = limiterAt()
    for (let i = 0; i < 60; i++) expect(a3('k', LIVE_RATE_LIMIT)).toBe(true)
    c3.t = 60_000
    expect(a3('k', LIVE_RATE_LIMIT)).toBe(true)
  })

  it('counts each key on its own', () => {
    const { allow } = limiterAt()
    for (let i = 0; i < 60; i++) allow('a', LIVE_RATE_LIMIT)
    expect(allow('a', LIVE_RATE_LIMIT)).toBe(false)
    expect(allow('b', LIVE_RATE_LIMIT)).toBe(true)
  })

  it('scaled: the same counts, every duration times the scale', () => {
    const fast = scaledRateLimit(LIVE_RATE_LIMIT, 0.01)
    expect(fast).toEqual({ limit: 60, windowMs: 600, blockMs: 180 })
    const { clock, allow } = limiterAt()
    expect(Array.from({ length: 61 }, () => allow('k', fast)).filter(Boolean)).toHaveLength(60)
    clock.t = 179
    expect(allow('k', fast)).toBe(false)
    clock.t = 180
    expect(allow('k', fast)).toBe(true)
  })

  it('no limit lets everything through; a limit replaced while running starts its count afresh', () => {
    const { allow } = limiterAt()
    expect(Array.from({ length: 1000 }, () => allow('k', undefined)).every(Boolean)).toBe(true)
    const small: RateLimit = { limit: 2, windowMs: 1_000, blockMs: 1_000 }
    expect([allow('k', small), allow('k', small), allow('k', small)]).toEqual([true, true, false])
    const other: RateLimit = { ...small }
    expect(allow('k', other)).toBe(true)
  })
})
