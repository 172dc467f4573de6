import { describe, expect, it } from 'vitest'
import {
  classifyScrollTasks,
  countByKind,
  cpuBetweenMarks,
  CARRIAGE_BYTES,
  longestPageTasks,
  longPageTasksBetween,
  SCROLL_END_MARK,
  SCROLL_START_MARK,
} from '../../bench/scroll-tasks'

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

describe("the CPU time between two marks read from a trace (the domain list's first paint)", () => {
  it("sums the marking thread's tasks' CPU time, each for its part between the marks", () => {
    const cpu = cpuBetweenMarks(
      trace([
        task(0, 10, 10), // before: left out
        task(15, 10, 8), // half of it after the first mark: 4 ms
        mark('a', 20_000),
        task(22, 5, 5),
        task(30, 20, 6), // waiting for a core: 20 ms by the clock, 6 of CPU
        { ...task(30, 20, 20), tid: OTHER }, // another thread: left out
        task(55, 10, 10), // half of it before the second mark: 5 ms
        mark('b', 60_000),
        task(70, 10, 10), // after: left out
      ]),
      'a',
      'b',
    )
    expect(cpu).toBeCloseTo(4 + 5 + 6 + 5, 6)
  })

  it('says so when a mark is missing', () => {
    expect(() => cpuBetweenMarks(trace([mark('a', 1), task(1, 1, 1)]), 'a', 'b')).toThrow(/no marks a and b/)
  })
})

describe("the longest task of a page's main thread read from a trace (the 100,000-domain window)", () => {
  const process = (pid: number, name: string) => ({ name: 'process_name', ph: 'M', pid, tid: 0, args: { name } })
  const WEBUI = 9

  it("takes the longest by CPU of the pages' main threads, not Chromium's own omnibox popup nor another thread", () => {
    const longest = longestPageTasks(
      trace([
        process(PID, 'Renderer'),
        meta(MAIN, 'CrRendererMain'),
        meta(OTHER, 'Compositor'),
        task(0, 90, 30), // waiting for a core: 30 ms of CPU
        task(100, 45, 42),
        { ...task(200, 80, 80), tid: OTHER }, // not the main thread: left out
        process(WEBUI, 'WebUI Top Renderer'),
        { ...meta(MAIN, 'CrRendererMain'), pid: WEBUI },
        { ...task(0, 300, 170), pid: WEBUI }, // the omnibox popup's scripts: left out
      ]),
    )
    expect(longest.window).toEqual({ wallMs: 90, cpuMs: 42 })
  })

  it("counts a task that received an answer's text over the DevTools protocol as the test bridge's, apart", () => {
    const received = (startMs: number, tag: string, bytes: number) =>
      span('Receive mojo message', startMs, 1, {
        args: { chrome_mojo_event_info: { mojo_interface_tag: tag, data_num_bytes: bytes } },
      })
    const longest = longestPageTasks(
      trace([
        process(PID, 'Renderer'),
        meta(MAIN, 'CrRendererMain'),
        task(0, 80, 56), // a 300 KB answer's carriage
        received(1, 'blink.mojom.DevToolsSession', 300_000),
        task(100, 60, 48), // a bench's evaluate, a few hundred bytes: the app's handler ran in it
        received(101, 'blink.mojom.DevToolsSession', 400),
        task(200, 70, 52), // a large message of another interface
        received(201, 'blink.mojom.WidgetInputHandler', CARRIAGE_BYTES * 2),
        task(300, 30, 20),
      ]),
    )
    expect(longest.bridge).toEqual({ wallMs: 80, cpuMs: 56 })
    expect(longest.window).toEqual({ wallMs: 70, cpuMs: 52 })
  })

  it("counts the long tasks between a scroll's marks, the window's and the bridge's carriages apart", () => {
    const carried = (startMs: number) =>
      span('Receive mojo message', startMs, 1, {
        args: {
          chrome_mojo_event_info: { mojo_interface_tag: 'blink.mojom.DevToolsSession', data_num_bytes: 300_000 },
        },
      })
    const tasks = trace([
      process(PID, 'Renderer'),
      meta(MAIN, 'CrRendererMain'),
      task(0, 90, 60), // before the scroll: left out
      mark(SCROLL_START_MARK, 100_000),
      task(100, 70, 40), // a frame over 50 ms by the clock
      task(200, 40, 40), // not over
      task(300, 80, 56),
      carried(301),
      task(350, 48, 48), // not over by the clock, nor by CPU
      mark(SCROLL_END_MARK, 400_000),
      task(500, 90, 60), // after: left out
    ])
    expect(longPageTasksBetween(tasks, SCROLL_START_MARK, SCROLL_END_MARK, 50)).toEqual({
      window: 1,
      bridge: 1,
      windowByCpu: 0,
    })
    // A frame of 70 ms by the clock but 40 of CPU: it waited for a core. One of 60 ms of CPU is the window's own.
    const busy = trace([
      process(PID, 'Renderer'),
      meta(MAIN, 'CrRendererMain'),
      mark(SCROLL_START_MARK, 100_000),
      task(100, 70, 40),
      task(200, 80, 60),
      mark(SCROLL_END_MARK, 400_000),
    ])
    expect(longPageTasksBetween(busy, SCROLL_START_MARK, SCROLL_END_MARK, 50)).toEqual({
      window: 2,
      bridge: 0,
      windowByCpu: 1,
    })
    expect(() => longPageTasksBetween(tasks, SCROLL_START_MARK, 'no such mark', 50)).toThrow(/no marks/)
  })

  it('says so when no page was traced', () => {
    expect(() =>
      longestPageTasks(trace([process(PID, 'WebUI Top Renderer'), meta(MAIN, 'CrRendererMain'), task(0, 1, 1)])),
    ).toThrow(/no page's main thread/)
  })
})
