import { describe, expect, it } from 'vitest'
import type { Progress } from '@shared/ipc/contract'
import { paceProgress, PROGRESS_EVERY_MS, type PacerTimers } from '../../src/main/ipc/progress-pacer'

/** A clock the test moves, and the timers set on it, run when it passes them. */
function testTimers(): PacerTimers & { advance(ms: number): void; pending(): number } {
  let now = 1000
  let timers: { at: number; run: () => void }[] = []
  return {
    now: () => now,
    after(ms, run) {
      const timer = { at: now + ms, run }
      timers.push(timer)
      return { cancel: () => (timers = timers.filter((t) => t !== timer)) }
    },
    advance(ms) {
      now += ms
      const due = timers.filter((t) => t.at <= now)
      timers = timers.filter((t) => t.at > now)
      for (const t of due) t.run()
    },
    pending: () => timers.length,
  }
}

/** A pacer on test timers, and what it sent. */
function pacedOnTestTimers() {
  const timers = testTimers()
  const sent: Progress[] = []
  return { timers, sent, pacer: paceProgress((p) => sent.push(p), timers) }
}

const progress = (callId: string, loadedItems: number): Progress => ({ callId, loadedItems, expectedItems: 1000 })

describe("a read's progress as the page is sent it (issue 54)", () => {
  it('sends the first count at once, holds the ones that follow within the interval, and sends the latest when it ends', () => {
    const { timers, sent, pacer } = pacedOnTestTimers()
    pacer.send(progress('a', 100))
    expect(sent).toEqual([progress('a', 100)])
    timers.advance(10)
    pacer.send(progress('a', 200))
    timers.advance(10)
    pacer.send(progress('a', 300))
    expect(sent).toHaveLength(1)
    timers.advance(PROGRESS_EVERY_MS - 21)
    expect(sent).toHaveLength(1)
    timers.advance(1)
    expect(sent).toEqual([progress('a', 100), progress('a', 300)])
    expect(timers.pending()).toBe(0)
  })

  it('sends at once a count that comes a whole interval after the last one sent', () => {
    const { timers, sent, pacer } = pacedOnTestTimers()
    pacer.send(progress('a', 100))
    timers.advance(PROGRESS_EVERY_MS)
    pacer.send(progress('a', 200))
    expect(sent.map((p) => p.loadedItems)).toEqual([100, 200])
    expect(timers.pending()).toBe(0)
  })

  it('paces each call apart: a second read is not held for the first one', () => {
    const { timers, sent, pacer } = pacedOnTestTimers()
    pacer.send(progress('a', 100))
    pacer.send(progress('b', 5))
    pacer.send(progress('a', 200))
    expect(sent).toEqual([progress('a', 100), progress('b', 5)])
    timers.advance(PROGRESS_EVERY_MS)
    expect(sent).toEqual([progress('a', 100), progress('b', 5), progress('a', 200)])
  })

  it('sends what it holds when the call answers, so the last count comes before the answer and no timer is left', () => {
    const { timers, sent, pacer } = pacedOnTestTimers()
    pacer.send(progress('a', 100))
    pacer.send(progress('a', 1000))
    pacer.flush()
    expect(sent.map((p) => p.loadedItems)).toEqual([100, 1000])
    expect(timers.pending()).toBe(0)
    timers.advance(PROGRESS_EVERY_MS)
    expect(sent).toHaveLength(2)
  })
})
