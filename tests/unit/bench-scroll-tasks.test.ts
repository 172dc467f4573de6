import { describe, expect, it } from 'vitest'
import { classifyScrollTasks, countByKind, SCROLL_END_MARK, SCROLL_START_MARK } from '../../bench/scroll-tasks'

const PID = 7
const MAIN = 1
const OTHER = 2
const meta = (tid: number, name: string) => ({ name: 'thread_name', ph: 'M', pid: PID, tid, args: { name } })
const mark = (name: string, ts: number) => ({ name, ph: 'R', pid: PID, tid: MAIN, ts, cat: 'blink.user_timing' })
/** A complete event: start and length in ms, as Chromium writes them (µs). */
const span = (name: string, startMs: number, ms: number, extra: Record<string, unknown> = {}) => ({
  name,
  ph: 'X',
  pid: PID,
  tid: MAIN,
  ts: startMs * 1000,
  dur: ms * 1000,
  ...extra,
})
const task = (startMs: number, ms: number, cpuMs: number) =>
  span('ThreadControllerImpl::RunTask', startMs, ms, { tdur: cpuMs * 1000 })
const trace = (events: unknown[]) => Buffer.from(JSON.stringify({ traceEvents: events }))

describe("the scroll's tasks read from a trace", () => {
  it('times each task by the clock and by CPU, and names what it spent its time on', () => {
    const tasks = classifyScrollTasks(
      trace([
        meta(MAIN, 'CrRendererMain'),
        meta(OTHER, 'CrRendererMain'),
        task(5, 80, 80), // before the scroll: left out
        mark(SCROLL_START_MARK, 100_000),
        // A frame: 60 ms of style and layout (a Layout inside a Layout counted once), 10 of script.
        task(100, 70, 65),
        span('UpdateLayoutTree', 102, 20),
        span('Layout', 125, 40),
        span('Layout', 130, 10),
        // A frame waiting for a core: 90 ms by the clock, 12 of CPU, most of it a major GC.
        task(200, 90, 12),
        span('MajorGC', 210, 50),
        // The test bridge's answer arriving.
        task(300, 60, 55),
        span('Receive mojo message', 300, 60, {
          args: { chrome_mojo_event_info: { mojo_interface_tag: 'blink.mojom.DevToolsSession' } },
        }),
        task(400, 4, 4),
        mark(SCROLL_END_MARK, 500_000),
        task(600, 80, 80), // after it: left out
        { ...task(100, 99, 99), tid: OTHER }, // a quieter page's thread: left out
      ]),
    )
    expect(tasks).toEqual([
      { wallMs: 70, cpuMs: 65, kind: 'style-layout' },
      { wallMs: 90, cpuMs: 12, kind: 'gc' },
      { wallMs: 60, cpuMs: 55, kind: 'devtools-message' },
      { wallMs: 4, cpuMs: 4, kind: 'script' },
    ])
    expect(countByKind(tasks.filter((t) => t.cpuMs > 50))).toBe('2 (style-layout 1, devtools-message 1)')
    expect(countByKind([])).toBe('0')
  })

  it('says so when the scroll was not marked', () => {
    expect(() => classifyScrollTasks(trace([meta(MAIN, 'CrRendererMain'), task(1, 1, 1)]))).toThrow(/no scroll marks/)
  })
})
