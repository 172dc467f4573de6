/**
 * The pacer against the live service's rate limit as recorded (60 a window begun by its first
 * request, then every request refused for 18 s; no Retry-After), in simulated time: the client
 * waits a block out instead of sending into it, then paces itself so that no block follows.
 * Callers below do what the HTTP client does with a request: take a turn, send, hand the turn
 * back with the answer, and send the same request again after a 429.
 */
import { describe, expect, it } from 'vitest'
import { Pacer } from '../../src/main/http/pacer'
import { LIVE_RATE_LIMIT, scaledRateLimit, type RateLimit } from '../../src/sandbox/behaviour'
import { SimulatedClock, simulatedService } from '../helpers/simulated-time'

type Service = ReturnType<typeof simulatedService>

/** One request, sent until it is answered, as the client does. */
async function call(pacer: Pacer, service: Service): Promise<number> {
  for (;;) {
    const slot = await pacer.take()
    if (await service.send()) {
      pacer.passed(slot)
      return slot.sentAt
    }
    pacer.limited(slot)
  }
}

/** `count` requests, `concurrency` at a time (listAll's pages, a job's items), in time the caller runs; when each was sent. */
async function requests(pacer: Pacer, service: Service, count: number, concurrency: number): Promise<number[]> {
  let next = 0
  const sentAt: number[] = []
  const worker = async () => {
    while (next < count) {
      next++
      sentAt.push(await call(pacer, service))
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return sentAt
}

/** The same, run to its end; the time the last one was answered. */
async function run(pacer: Pacer, service: Service, count: number, concurrency: number, clock: SimulatedClock) {
  const sentAt = await clock.run(requests(pacer, service, count, concurrency))
  return { endedAt: clock.now(), sentAt }
}

function setUp(limit: RateLimit = LIVE_RATE_LIMIT, scale = 1) {
  const clock = new SimulatedClock()
  const current = { limit: scaledRateLimit(limit, scale) }
  const service = simulatedService(clock, () => current.limit, { min: 20 * scale, max: 80 * scale })
  const pacer = new Pacer({ clock, firstProbeMs: 300 * scale })
  return { clock, service, pacer, current }
}

/** The time `count` requests take at the service's rate, 60 a minute. */
const atRate = (count: number, limit: RateLimit) => (count * limit.windowMs) / limit.limit

describe('the pacer against the recorded rate limit', () => {
  it('paces nothing until the first 429', async () => {
    const { pacer, clock } = setUp()
    for (let i = 0; i < 500; i++) {
      const slot = await pacer.take()
      pacer.passed(slot)
    }
    expect(clock.now()).toBe(0)
    expect(pacer.requestsPerSecond).toBe(Infinity)
  })

  it('a burst: waits the one block out with a few probes, one at a time, then 1,000 requests at 4 at once with no other block, within 1.15x of requests / rate', async () => {
    const { pacer, service, clock } = setUp()
    const { endedAt } = await run(pacer, service, 1000, 4, clock)
    expect(service.blocks()).toBe(1)
    const refused = service.arrivals.filter((a) => !a.ok)
    // The block's 429s: the requests in flight when it began, and probes at doubling waits
    // (0.3, 0.6, 1.2 ... 9.6 s): at most 7 before the 18 s are over.
    expect(refused.length).toBeLessThanOrEqual(3 + 7)
    // Nothing but probes reached the service during the block: one at a time, further and further apart.
    const probes = refused.slice(refused.findIndex((a, i) => i > 0 && a.at - refused[i - 1]!.at > 250))
    for (let i = 1; i < probes.length; i++)
      expect(probes[i]!.at - probes[i - 1]!.at).toBeGreaterThan(250 * 2 ** (i - 1))
    expect(endedAt).toBeLessThanOrEqual(1.15 * atRate(1000, LIVE_RATE_LIMIT))
    expect(pacer.stats).toMatchObject({ passed: 1000, blocks: 1, limited: refused.length })
    // The pace it keeps: under 60 a minute, not far under.
    expect(pacer.requestsPerSecond).toBeGreaterThan(0.85)
    expect(pacer.requestsPerSecond).toBeLessThan(1)
  })

  it('the recorded client’s way (one request every 0.7 s): the 61st is refused, and once the block is over no other block in 500 more', async () => {
    const { pacer, service, clock } = setUp()
    const work = (async () => {
      for (let i = 0; i < 560; i++) {
        await call(pacer, service)
        await clock.sleep(700)
      }
    })()
    await clock.run(work)
    expect(service.blocks()).toBe(1)
    const firstRefusal = service.arrivals.findIndex((a) => !a.ok)
    expect(service.arrivals.slice(0, firstRefusal).every((a) => a.ok)).toBe(true)
    expect(firstRefusal).toBe(60)
    // Paced a little under 60 a minute after the block, from what it saw: 60 answered in the
    // 48 s this caller took to send them, then 18 s refused (19 by its probes).
    expect(pacer.requestsPerSecond).toBeGreaterThan(0.8)
    expect(pacer.requestsPerSecond).toBeLessThan(1)
  })

  it('a block learned from probes a long round trip away is not lengthened by their round trips', async () => {
    // 200 to 300 ms each way: six probes' round trips were 3 s more of an 18 s block, and the
    // pace learned from it a tenth slower than the block's own length gives.
    const clock = new SimulatedClock()
    const service = simulatedService(clock, () => LIVE_RATE_LIMIT, { min: 200, max: 300 })
    const pacer = new Pacer({ clock, firstProbeMs: 300 })
    await run(pacer, service, 300, 4, clock)
    expect(service.blocks()).toBe(1)
    // The probes go 0.3, 0.6, 1.2 ... s after the last one left: the one that goes through left
    // 18.9 s after the first refused request, 5% over the block, whatever the round trips.
    expect(pacer.requestsPerSecond).toBeGreaterThan(0.88)
    expect(pacer.requestsPerSecond).toBeLessThan(1)
  })

  it('requests leave evenly spaced once paced', async () => {
    const { pacer, service, clock } = setUp()
    const { sentAt } = await run(pacer, service, 300, 4, clock)
    const after = sentAt.sort((a, b) => a - b).slice(70)
    const spacing = 1000 / pacer.requestsPerSecond
    for (let i = 1; i < after.length; i++) expect(after[i]! - after[i - 1]!).toBeGreaterThanOrEqual(spacing - 1e-6)
  })

  it('runs the same at any time scale: a hundredth of the durations, the same blocks and 429s', async () => {
    const live = setUp()
    await run(live.pacer, live.service, 400, 4, live.clock)
    const fast = setUp(LIVE_RATE_LIMIT, 0.01)
    const { endedAt } = await run(fast.pacer, fast.service, 400, 4, fast.clock)
    expect(fast.service.blocks()).toBe(live.service.blocks())
    expect(fast.service.refused()).toBe(live.service.refused())
    expect(endedAt).toBeLessThanOrEqual(1.15 * atRate(400, scaledRateLimit(LIVE_RATE_LIMIT, 0.01)))
  })

  it('a block while paced (the service now allows 30 a window): slower each time, until no block comes', async () => {
    const { pacer, service, clock, current } = setUp()
    await run(pacer, service, 200, 4, clock)
    const paced = pacer.requestsPerSecond
    current.limit = { ...LIVE_RATE_LIMIT, limit: 30 }
    await run(pacer, service, 200, 4, clock)
    expect(pacer.requestsPerSecond).toBeLessThan(0.9 * paced)
    expect(pacer.requestsPerSecond).toBeLessThanOrEqual(0.5)
    const blocksSoFar = service.blocks()
    await run(pacer, service, 200, 4, clock)
    expect(service.blocks()).toBe(blocksSoFar)
  })

  describe('a new process whose key another one has just blocked (its first request is refused)', () => {
    /** Another process's burst: the key's 60 answered, then its 61st refused; the block ends 18 s after that. */
    async function blockedByAnother(service: Service, clock: SimulatedClock): Promise<number> {
      await clock.run(Promise.all(Array.from({ length: 61 }, () => service.send())))
      const refusedAt = service.arrivals.find((a) => !a.ok)!.at
      return refusedAt + LIVE_RATE_LIMIT.blockMs
    }

    it('waits the rest of the block out, then goes on at the service’s pace, not at one request a minute', async () => {
      const { pacer, service, clock } = setUp()
      const blockEnds = await blockedByAnother(service, clock)
      const start = clock.now()
      const { endedAt } = await run(pacer, service, 200, 4, clock)
      const remainingBlock = blockEnds - start
      expect(remainingBlock).toBeGreaterThan(10_000)
      // Its bound: the rest of the block, then its requests at 60 a minute.
      expect(endedAt - start).toBeLessThanOrEqual(remainingBlock + 1.15 * atRate(200, LIVE_RATE_LIMIT))
      expect(pacer.stats.passed).toBe(200)
      // The pace it keeps in the end was learned from a window it saw whole.
      expect(pacer.requestsPerSecond).toBeGreaterThan(0.85)
      expect(pacer.requestsPerSecond).toBeLessThan(1)
    })

    it('a zone save’s few requests, one after another, end within seconds of the block’s end', async () => {
      const { pacer, service, clock } = setUp()
      const blockEnds = await blockedByAnother(service, clock)
      for (let i = 0; i < 5; i++) await clock.run(call(pacer, service))
      // The doubling probes overshoot the block's end by at most the last wait (9.6 s), then four requests.
      expect(clock.now()).toBeLessThanOrEqual(blockEnds + 9_600 + 4 * 200)
      // Nothing learned of the quota from a block it did not cause: it is not paced.
      expect(pacer.requestsPerSecond).toBe(Infinity)
    })
  })

  describe('a process that got two answers just before another one used the key’s window up', () => {
    /** A zone save's five requests, one after another, from when the key was blocked: how long they took. */
    async function save(pacer: Pacer, service: Service, clock: SimulatedClock): Promise<number> {
      const start = clock.now()
      for (let i = 0; i < 5; i++) await clock.run(call(pacer, service))
      return clock.now() - start
    }

    /** The other process's requests until one is refused, one after another. */
    async function burstUntilRefused(service: Service, clock: SimulatedClock): Promise<void> {
      for (let i = 0; i <= LIVE_RATE_LIMIT.limit; i++) if (!(await clock.run(service.send()))) return
      throw new Error('the burst was never refused')
    }

    it('its save ends as soon as a fresh process’s does, not paced at the two answers a window it saw', async () => {
      const fresh = setUp()
      await burstUntilRefused(fresh.service, fresh.clock)
      const freshMs = await save(fresh.pacer, fresh.service, fresh.clock)

      const { pacer, service, clock } = setUp()
      for (let i = 0; i < LIVE_RATE_LIMIT.limit - 2; i++) await clock.run(service.send())
      for (let i = 0; i < 2; i++) await clock.run(call(pacer, service))
      await burstUntilRefused(service, clock)
      const partialMs = await save(pacer, service, clock)

      // Both wait the block out with the same probes; then the partial one's four requests would
      // have left 32 s apart, paced at 0.95 × 2 answers over the 60 s the block implied.
      expect(freshMs).toBeGreaterThan(LIVE_RATE_LIMIT.blockMs / 2)
      expect(partialMs).toBeLessThanOrEqual(1.15 * freshMs)
      expect(pacer.stats).toMatchObject({ passed: 2 + 5, blocks: 1 })
      expect(pacer.requestsPerSecond).toBe(Infinity)
    })

    it('then learns the pace from the next block, one it caused and saw whole', async () => {
      const { pacer, service, clock } = setUp()
      for (let i = 0; i < LIVE_RATE_LIMIT.limit - 2; i++) await clock.run(service.send())
      for (let i = 0; i < 2; i++) await clock.run(call(pacer, service))
      await burstUntilRefused(service, clock)
      const start = clock.now()
      const { endedAt } = await run(pacer, service, 300, 4, clock)
      expect(pacer.stats.blocks).toBe(2)
      expect(pacer.requestsPerSecond).toBeGreaterThan(0.85)
      expect(pacer.requestsPerSecond).toBeLessThan(1)
      // The rest of the block, a window of its own requests, its block, then the rest at the pace.
      expect(endedAt - start).toBeLessThanOrEqual(
        LIVE_RATE_LIMIT.blockMs + 1.15 * atRate(300, LIVE_RATE_LIMIT) + LIVE_RATE_LIMIT.blockMs,
      )
    })
  })

  it('two processes sending at once on one key each see about half the window: each learns its share, and no block follows', async () => {
    const { service, clock } = setUp()
    const pacers = [new Pacer({ clock, firstProbeMs: 300 }), new Pacer({ clock, firstProbeMs: 300 })]
    await clock.run(Promise.all(pacers.map((p) => requests(p, service, 150, 4))))
    const blocksSoFar = service.blocks()
    for (const p of pacers) {
      expect(p.requestsPerSecond).toBeGreaterThan(0.3)
      expect(p.requestsPerSecond).toBeLessThan(0.6)
    }
    await clock.run(Promise.all(pacers.map((p) => requests(p, service, 150, 4))))
    expect(service.blocks()).toBe(blocksSoFar)
  })

  it('a Retry-After says when to try again', async () => {
    const { pacer, clock } = setUp()
    const slot = await pacer.take()
    pacer.limited(slot, 5_000)
    const next = await clock.run(pacer.take())
    expect(next.sentAt).toBe(5_000)
  })

  it('a probe that gets no answer passes its turn on at once; a wait for a turn ends when the caller cancels', async () => {
    const { pacer, clock } = setUp()
    pacer.limited(await pacer.take())
    const probe = await clock.run(pacer.take())
    const cancel = new AbortController()
    const cancelled = pacer.take(cancel.signal)
    const waiting = pacer.take()
    cancel.abort(new Error('cancelled by the caller'))
    await expect(cancelled).rejects.toThrow('cancelled by the caller')
    pacer.abandoned(probe)
    const next = await clock.run(waiting)
    expect(next.sentAt).toBe(probe.sentAt)
    expect(next.probeOf).toBeDefined()
  })
})
