/**
 * Pacing the requests of one API key by what the service's 429s show of its rate limit.
 *
 * The service limits each key, so everything sent with a key (list reads, bulk jobs, single
 * calls) shares one pacer. What the live service was recorded doing (RateLimit in
 * src/sandbox/behaviour.ts): it answers a quota of requests per window, then refuses every
 * request (429, no Retry-After) for a while, and each request sent meanwhile is a 429 more that
 * tells nothing new. So:
 *
 * - Nothing is paced until the first 429.
 * - A 429 starts a block: nothing leaves until the block should be over, then one request goes
 *   alone (a probe) while the others wait for its answer. Until the pacer has seen a block end,
 *   probes go after a doubling wait from when the last one left (`firstProbeMs`, then twice that,
 *   ...); after that, a block is waited out as long as the last one lasted. A Retry-After, if
 *   one comes, says when to probe.
 * - The probe that goes through ends the block, and shows the quota (the requests answered
 *   in the window the refusal ended) and how long that window lasted at least: from its first
 *   request to the block's end. That is the service's window when its blocks last to the end of
 *   the window; when they are shorter, and the quota went in a burst, it is far less. The
 *   recording does not tell the two apart (its block of 18 s ended with its 60 s window), so the
 *   window is taken to be at least WINDOW_PER_BLOCK times the block, as recorded.
 * - From then on requests leave evenly spaced, at SAFETY of quota / window: fewer than the
 *   quota in any window, wherever the service's window begins.
 * - A block while paced means the pace was too fast: the new one is at most DECREASE of it.
 * - A block met, not caused: this pacer saw fewer than MIN_OWN_ANSWERS of the window's requests
 *   answered (none: a new process whose key another one still blocks; a few: a process that sent
 *   a couple just before another used the window up). What it saw is not the quota (two answers
 *   taken as the quota paced a save at one request every 32 s; none taken as one, at one a
 *   minute), and the block began before its first refusal, so it shows neither the quota nor the
 *   block's length: it teaches nothing, and the pace (or none) stays as it was. The probe that
 *   ends it begins a fresh window, which this pacer then sees whole, so the next block, if one
 *   comes, sets the pace.
 *
 * Requests wait their turn instead of failing. The clock is injectable, so tests run the pacer
 * against a model of the service in simulated time.
 */
import { setTimeout as sleepFor } from 'node:timers/promises'

/** The recorded block (18 s) ended with a 60 s window: a window is taken to be at least 60/18 of a block. */
const WINDOW_PER_BLOCK = 60 / 18
/** The quota the recording showed: 60 requests a window. */
const RECORDED_QUOTA = 60
/**
 * A block is this pacer's own (it shows the quota) when it saw at least this many of the window's
 * requests answered: a quarter of the recorded quota, so that up to four processes sending at
 * once on one key still each learn their share of it.
 */
const MIN_OWN_ANSWERS = RECORDED_QUOTA / 4
/** The pace is this share of quota / window: requests arrive with the network's jitter. */
const SAFETY = 0.95
/** After a block while paced, the pace is at most this share of what it was. */
const DECREASE = 0.9
/** The longest wait between two probes, as a multiple of `firstProbeMs`. */
const MAX_PROBE_WAIT_FACTOR = 64
/** Send times kept for counting a quota; more than any window holds at a sustainable pace. */
const MAX_KEPT = 10_000

export interface PacerClock {
  /** Milliseconds on a clock that does not jump. */
  now(): number
  /** Resolves after `ms`; rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

const realClock: PacerClock = {
  now: () => performance.now(),
  sleep: (ms, signal) => sleepFor(ms, undefined, signal ? { signal } : undefined),
}

export interface PacerOptions {
  clock?: PacerClock
  /** The wait before the first probe of a block whose length is not known yet; it doubles at each refused probe. */
  firstProbeMs?: number
}

interface Block {
  /** When the first refused request was sent. */
  from: number
  /** Nothing leaves before then. */
  until: number
  /** A probe is out: the others wait for its answer. */
  probing: boolean
  refusedProbes: number
  /** Whether the pace was set when it began (a block while paced means too fast). */
  paced: boolean
}

/** One request's turn: taken before it is sent, handed back with its answer. */
export interface Slot {
  readonly sentAt: number
  /** The block this request probes, if it is a probe. */
  readonly probeOf: Block | undefined
}

/** What the pacer has seen (for tests and the benchmark). */
export interface PacerStats {
  /** Requests let go. */
  sent: number
  /** Answers other than 429. */
  passed: number
  /** 429s. */
  limited: number
  /** Blocks: runs of 429s ended by a request that went through. */
  blocks: number
}

export class Pacer {
  private readonly clock: PacerClock
  private readonly firstProbeMs: number
  /** Requests per second; Infinity until the first block has ended. */
  private rate = Infinity
  private nextAt = -Infinity
  private block: Block | undefined
  /** Bumped when a block begins: a turn taken before it is void. */
  private generation = 0
  /** Send times of the requests answered since the last block ended. */
  private answered: number[] = []
  private lastBlockEnd = -Infinity
  /** How long the last block lasted, from the first refused request to the probe that went through. */
  private blockMs: number | undefined
  private windowMs: number | undefined
  private readonly waiting = new Set<() => void>()
  private readonly counts: PacerStats = { sent: 0, passed: 0, limited: 0, blocks: 0 }

  constructor(options: PacerOptions = {}) {
    this.clock = options.clock ?? realClock
    this.firstProbeMs = options.firstProbeMs ?? 300
  }

  /** The current pace (Infinity while unpaced). */
  get requestsPerSecond(): number {
    return this.rate
  }

  get stats(): Readonly<PacerStats> {
    return { ...this.counts }
  }

  /**
   * Waits for this request's turn. Hand the slot back with `passed`, `limited` or `abandoned`.
   * `onBlocked` hears each wait out of a block of the service, with about how long it lasts, so
   * a job can say it waits for the rate limit rather than look stuck.
   */
  async take(signal?: AbortSignal, onBlocked?: (waitMs: number) => void): Promise<Slot> {
    for (;;) {
      signal?.throwIfAborted()
      const now = this.clock.now()
      const block = this.block
      if (block) {
        if (block.probing) await this.changed(signal)
        else if (now < block.until) {
          onBlocked?.(block.until - now)
          await this.clock.sleep(block.until - now, signal)
        } else {
          block.probing = true
          return this.let(now, block)
        }
        continue
      }
      const spacing = 1000 / this.rate
      const at = Math.max(now, this.nextAt)
      this.nextAt = at + spacing
      if (at <= now) return this.let(now, undefined)
      const generation = this.generation
      await this.clock.sleep(at - now, signal)
      // A block began while this request waited: its turn went with it.
      if (generation === this.generation && !this.block) return this.let(this.clock.now(), undefined)
    }
  }

  /** The request was answered, with anything but a 429: the service counted it. */
  passed(slot: Slot): void {
    this.counts.passed++
    const block = this.block
    // Sent after the refusal and let through: the block is over.
    if (block && slot.sentAt >= block.from) return this.endBlock(block, slot.sentAt)
    if (slot.sentAt < this.lastBlockEnd) return
    this.answered.push(slot.sentAt)
    if (this.answered.length > MAX_KEPT) this.answered = this.answered.slice(-MAX_KEPT / 2)
  }

  /** A 429: the service did not act on the request. */
  limited(slot: Slot, retryAfterMs?: number): void {
    this.counts.limited++
    const now = this.clock.now()
    const told = retryAfterMs !== undefined ? now + retryAfterMs : undefined
    const block = this.block
    if (!block) {
      // Sent before the last block ended and answered after it: nothing new.
      if (slot.sentAt < this.lastBlockEnd) return
      this.block = {
        from: slot.sentAt,
        until: told ?? slot.sentAt + (this.blockMs ?? this.firstProbeMs),
        probing: false,
        refusedProbes: 0,
        paced: Number.isFinite(this.rate),
      }
      this.generation++
      return
    }
    // Requests in flight when the block began are refused with it: the same block.
    block.from = Math.min(block.from, slot.sentAt)
    if (slot.probeOf === block) {
      block.probing = false
      block.refusedProbes++
      const wait = this.firstProbeMs * Math.min(MAX_PROBE_WAIT_FACTOR, 2 ** block.refusedProbes)
      // From when the refused probe left, not from its answer: the block's length is learned
      // from the probe that goes through, and waits counted from each answer added every
      // probe's round trip to it (six at 0.4 s: 2.4 s more of an 18 s block, the pace a tenth
      // slower). Still one probe at a time, each after its predecessor's answer.
      block.until = told ?? slot.sentAt + wait
      this.notify()
    } else if (told !== undefined) {
      block.until = Math.max(block.until, told)
    }
  }

  /** No answer (the network, a time-out, a cancel): nothing learned; a probe's turn passes on. */
  abandoned(slot: Slot): void {
    const block = this.block
    if (block && slot.probeOf === block) {
      block.probing = false
      this.notify()
    }
  }

  private let(now: number, probeOf: Block | undefined): Slot {
    this.counts.sent++
    return { sentAt: now, probeOf }
  }

  private endBlock(block: Block, at: number): void {
    this.block = undefined
    this.counts.blocks++
    const blockMs = Math.max(1, at - block.from)
    // The window the refusal ended: what was answered in it is the quota.
    const lookBack = Math.max(this.windowMs ?? 0, WINDOW_PER_BLOCK * blockMs)
    const since = Math.max(this.lastBlockEnd, block.from - lookBack)
    const inWindow = this.answered.filter((t) => t >= since && t < block.from)
    // The probe begins a fresh window at the service, whatever this block showed.
    this.lastBlockEnd = at
    this.answered = [at]
    if (inWindow.length < MIN_OWN_ANSWERS) {
      // Met, not caused: the pace (or none) stays as it was, and so does what is known of blocks.
      this.nextAt = Number.isFinite(this.rate) ? at + 1000 / this.rate : -Infinity
      this.notify()
      return
    }
    this.blockMs = blockMs
    const quota = inWindow.length
    const first = inWindow.reduce((a, b) => Math.min(a, b), block.from)
    this.windowMs = Math.max(block.from - first + blockMs, WINDOW_PER_BLOCK * blockMs)
    let rate = (SAFETY * quota * 1000) / this.windowMs
    if (block.paced) rate = Math.min(rate, DECREASE * this.rate)
    this.rate = rate
    // The probe began a fresh window; the next request waits its spacing from it.
    this.nextAt = at + 1000 / rate
    this.notify()
  }

  /** Resolves when the block changes (its probe answered, or it ended). */
  private changed(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      const onAbort = () => {
        this.waiting.delete(done)
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'))
      }
      this.waiting.add(done)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  private notify(): void {
    const waiting = [...this.waiting]
    this.waiting.clear()
    for (const w of waiting) w()
  }
}
