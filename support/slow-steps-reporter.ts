/**
 * Says where the time of each failed end-to-end test went: its steps and its window's calls to
 * main that took a second or more, each with when it began in the test. Printed once the run
 * ends, after the list reporter's summary, so it sits in the tail of CI's log, which is all there
 * is of a run there. A test that timed out names the step it was cut in; this says which earlier
 * step held it (a click that waited 40 s for a button, a call main answered late or never).
 */
import type { FullResult, Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter'
import { z } from 'zod'

/** The attachment the e2e fixture leaves on a failed test: its window calls, timed (tests/e2e/fixtures.ts). */
export const WINDOW_CALLS_ATTACHMENT = '_window-calls'

const windowCallsSchema = z.array(
  z.object({ channel: z.string(), calledAt: z.number(), answeredAt: z.number().optional() }),
)

/** A step or a call this long is named. */
const SLOW_MS = 1000

interface Timed {
  /** Milliseconds from the test's start. */
  at: number
  took: number | 'unanswered'
  what: string
}

function stepsOf(steps: readonly TestStep[]): TestStep[] {
  // A fixture's or a hook's step holds the actions it made; a test.step holds the test's own.
  return steps.flatMap((s) =>
    s.category === 'fixture' || s.category === 'hook' || s.category === 'test.step' ? [s, ...stepsOf(s.steps)] : [s],
  )
}

function slowSteps(result: TestResult, start: number): Timed[] {
  return stepsOf(result.steps)
    .filter((s) => s.duration >= SLOW_MS)
    .map((s) => ({
      at: s.startTime.getTime() - start,
      took: s.duration,
      what: `${s.title}${s.location ? ` (line ${s.location.line})` : ''}`,
    }))
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function slowCalls(result: TestResult, start: number, end: number): Timed[] {
  const attached = result.attachments.find((a) => a.name === WINDOW_CALLS_ATTACHMENT)?.body
  if (!attached) return []
  const calls = windowCallsSchema.safeParse(jsonOf(attached.toString('utf8')))
  if (!calls.success) return [{ at: 0, took: 0, what: 'window calls: the attachment did not read' }]
  return calls.data
    .filter((c) => (c.answeredAt ?? end) - c.calledAt >= SLOW_MS)
    .map((c) => ({
      at: c.calledAt - start,
      took: c.answeredAt === undefined ? ('unanswered' as const) : c.answeredAt - c.calledAt,
      what: `window call ${c.channel}`,
    }))
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

export default class SlowStepsReporter implements Reporter {
  private readonly told: string[] = []

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === test.expectedStatus || result.status === 'skipped') return
    const start = result.startTime.getTime()
    const timed = [...slowSteps(result, start), ...slowCalls(result, start, start + result.duration)].sort(
      (a, b) => a.at - b.at,
    )
    this.told.push(`  ${test.titlePath().filter(Boolean).join(' › ')} (${result.status}, ${seconds(result.duration)})`)
    if (timed.length === 0) this.told.push(`    no step or window call took ${seconds(SLOW_MS)} or more`)
    for (const t of timed)
      this.told.push(
        `    at ${seconds(t.at)}: ${t.took === 'unanswered' ? 'never answered' : `took ${seconds(t.took)}`}  ${t.what}`,
      )
  }

  onEnd(_result: FullResult): void {
    if (this.told.length === 0) return
    console.log(`\nWhere the failed tests' time went (steps and window calls of ${seconds(SLOW_MS)} or more):`)
    console.log(this.told.join('\n'))
  }
}
