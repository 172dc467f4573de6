/**
 * A read's progress as a page is sent it: at most one event a call every PROGRESS_EVERY_MS, the
 * latest always delivered, and before the call's answer. A list read reports every page it reads:
 * the four detail lists of 10,000 domains are 400 pages in some twenty seconds, each a message and
 * a task in the window, which drew the same bar again while the user scrolled the list (issue 54).
 * Ten a second per call is as often as anyone reads a count.
 */
import type { Progress } from '@shared/ipc/contract'

/** The least time between two progress events of one call. */
export const PROGRESS_EVERY_MS = 100

/** A timer as setTimeout sets one: tests give their own. */
export interface PacerTimers {
  now(): number
  after(ms: number, run: () => void): { cancel(): void }
}

const realTimers: PacerTimers = {
  now: () => performance.now(),
  after: (ms, run) => {
    const timer = setTimeout(run, ms)
    return { cancel: () => clearTimeout(timer) }
  },
}

export interface ProgressPacer {
  /** Sends now when the call has had none for PROGRESS_EVERY_MS; otherwise holds it as its call's latest. */
  send(p: Progress): void
  /** Sends every held event now: the call has answered (its last count comes before its answer). */
  flush(): void
}

export function paceProgress(send: (p: Progress) => void, timers: PacerTimers = realTimers): ProgressPacer {
  /** Per call id: when its last event went, and the one held since, with the timer that sends it. */
  const calls = new Map<string, { sentAt: number; held?: Progress; timer?: { cancel(): void } }>()
  const sendHeld = (callId: string) => {
    const call = calls.get(callId)
    if (!call?.held) return
    const held = call.held
    call.timer?.cancel()
    calls.set(callId, { sentAt: timers.now() })
    send(held)
  }
  return {
    send(p) {
      const call = calls.get(p.callId)
      const now = timers.now()
      if (!call || now - call.sentAt >= PROGRESS_EVERY_MS) {
        call?.timer?.cancel()
        calls.set(p.callId, { sentAt: now })
        send(p)
        return
      }
      call.held = p
      call.timer ??= timers.after(PROGRESS_EVERY_MS - (now - call.sentAt), () => sendHeld(p.callId))
    },
    flush() {
      for (const callId of [...calls.keys()]) sendHeld(callId)
      calls.clear()
    },
  }
}
