/**
 * The tasks of a page's main thread while it was scrolled, read from a Chromium trace, each by the
 * clock and by its thread's own CPU time, and what it spent its time on (issue 54). On a shared
 * machine a frame of 20 ms of work can last 80 ms by the clock, its thread waiting for a core: the
 * CPU time says which long tasks are the page's own doing and which are the machine's.
 */
import { z } from 'zod'

/** The trace categories `classifyScrollTasks` reads: tasks with their CPU time, and what ran in them. */
export const SCROLL_TRACE_CATEGORIES = ['toplevel', '__metadata', 'devtools.timeline', 'v8.gc', 'blink.user_timing']

/** The user-timing marks a scroll is traced between (performance.mark in the page). */
export const SCROLL_START_MARK = 'bench:scroll-start'
export const SCROLL_END_MARK = 'bench:scroll-end'

/** What a task spent most of its time on. */
export type TaskKind = 'gc' | 'style-layout' | 'paint' | 'script' | 'devtools-message' | 'other'

export interface TracedTask {
  wallMs: number
  cpuMs: number
  kind: TaskKind
}

const traceEvent = z.object({
  name: z.string(),
  cat: z.string().optional(),
  ph: z.string().optional(),
  pid: z.number(),
  tid: z.number(),
  ts: z.number().optional(),
  dur: z.number().optional(),
  tdur: z.number().optional(),
  id: z.string().optional(),
  args: z.object({ name: z.string().optional() }).passthrough().optional(),
})
export type TraceEvent = z.infer<typeof traceEvent>
const traceFile = z.object({ traceEvents: z.array(z.unknown()) })

const KIND_OF: Record<string, TaskKind> = {
  MajorGC: 'gc',
  MinorGC: 'gc',
  'BlinkGC.AtomicPhase': 'gc',
  UpdateLayoutTree: 'style-layout',
  Layout: 'style-layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  Commit: 'paint',
}

/** A DevTools protocol message: the test bridge's carriage of an answer (Electron's IPC carries it otherwise). */
const isDevToolsMessage = (e: TraceEvent) =>
  e.name === 'Receive mojo message' && JSON.stringify(e.args ?? {}).includes('DevToolsSession')

/** A Chromium trace's events, each checked; those of other shapes (metadata of other kinds) left out. */
export function traceEventsOf(trace: Buffer): TraceEvent[] {
  return traceFile.parse(JSON.parse(trace.toString())).traceEvents.flatMap((e) => {
    const parsed = traceEvent.safeParse(e)
    return parsed.success ? [parsed.data] : []
  })
}

/**
 * The tasks of the busiest page main thread (CrRendererMain) between the scroll's two marks.
 * Style, layout, paint and GC are timed by their own events; the rest of a task is script (Vue's
 * patch, the app's handlers) unless it is a DevTools message.
 */
export function classifyScrollTasks(trace: Buffer): TracedTask[] {
  const events = traceEventsOf(trace)
  const mains = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  )
  const perThread = new Map<string, TraceEvent[]>()
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`
    if (!mains.has(thread) || e.ts === undefined) continue
    const list = perThread.get(thread)
    if (list) list.push(e)
    else perThread.set(thread, [e])
  }
  const mark = (name: string) => events.find((e) => e.name === name && e.ts !== undefined)?.ts
  const from = mark(SCROLL_START_MARK)
  const to = mark(SCROLL_END_MARK)
  if (from === undefined || to === undefined) throw new Error('the trace holds no scroll marks')
  const busiest = [...perThread.values()].sort((a, b) => b.length - a.length)[0] ?? []
  const spans = busiest
    .filter((e) => e.ph === 'X' && e.dur !== undefined && e.ts! >= from && e.ts! <= to)
    .sort((a, b) => a.ts! - b.ts!)
  const tasks = spans.filter((e) => e.name === 'ThreadControllerImpl::RunTask')
  return tasks.map((task) => {
    const start = task.ts!
    const end = start + task.dur!
    const inside = spans.filter((e) => e !== task && e.ts! >= start && e.ts! < end)
    const spent = new Map<TaskKind, number>()
    // Outermost events of each kind only: a Layout inside a Layout (or a GC in a GC) is counted once.
    let coveredUntil = new Map<TaskKind, number>()
    for (const e of inside) {
      const kind = KIND_OF[e.name]
      if (!kind || e.ts! < (coveredUntil.get(kind) ?? 0)) continue
      spent.set(kind, (spent.get(kind) ?? 0) + e.dur!)
      coveredUntil = new Map(coveredUntil).set(kind, e.ts! + e.dur!)
    }
    const known = [...spent.values()].reduce((a, b) => a + b, 0)
    const devtools = inside.some(isDevToolsMessage)
    spent.set(devtools ? 'devtools-message' : 'script', Math.max(0, task.dur! - known))
    const kind = [...spent.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'other'
    return { wallMs: task.dur! / 1000, cpuMs: (task.tdur ?? 0) / 1000, kind }
  })
}

/** "3 (gc 1, script 2)": how many tasks, and of which kinds. */
export function countByKind(tasks: readonly TracedTask[]): string {
  const kinds = new Map<TaskKind, number>()
  for (const t of tasks) kinds.set(t.kind, (kinds.get(t.kind) ?? 0) + 1)
  const named = [...kinds.entries()].map(([k, n]) => `${k} ${n}`).join(', ')
  return named ? `${tasks.length} (${named})` : '0'
}

/** A task's length by the clock and by its thread's CPU time, in ms. */
export interface TaskLength {
  wallMs: number
  cpuMs: number
}

/** The longest tasks of a page's main thread: the window's own, and the test bridge's carriage of answers apart. */
export interface LongestPageTasks {
  window: TaskLength
  bridge: TaskLength
}

/**
 * A DevTools message this large carries an answer's text to the page (the test bridge's binding result; the
 * first part of the domain list, 500 rows, is 75 KB). Playwright's own calls, an evaluate of the bench's or a
 * progress pushed to the page, are a few hundred bytes: they run the app's handlers in their task, the window's.
 */
export const CARRIAGE_BYTES = 16 * 1024

const mojoInfo = z.object({
  chrome_mojo_event_info: z.object({ mojo_interface_tag: z.string(), data_num_bytes: z.number() }),
})
const isCarriage = (e: TraceEvent) => {
  if (e.name !== 'Receive mojo message') return false
  const info = mojoInfo.safeParse(e.args)
  return (
    info.success &&
    info.data.chrome_mojo_event_info.mojo_interface_tag === 'blink.mojom.DevToolsSession' &&
    info.data.chrome_mojo_event_info.data_num_bytes >= CARRIAGE_BYTES
  )
}

/**
 * The longest tasks of a web page's main thread in a trace, by the clock and by its thread's CPU time. Only the
 * main threads (CrRendererMain) of processes Chromium names 'Renderer' are a page's: Chromium 156 also starts at
 * launch a 'WebUI Top Renderer' for its own omnibox popup, whose first task (its own pages' scripts, 170 ms of
 * CPU) was counted as the window's when every CrRendererMain was. A task that received an answer's text over the
 * DevTools protocol is the test bridge's carriage, which an Electron window never has (its IPC carries a
 * structured clone): counted apart. The bridge hands the answer to the app in a task of its own when asked to
 * (BridgeOptions.answerInOwnTask), so that such a task holds nothing of the app's.
 */
export function longestPageTasks(trace: Buffer): LongestPageTasks {
  const longest: LongestPageTasks = { window: { wallMs: 0, cpuMs: 0 }, bridge: { wallMs: 0, cpuMs: 0 } }
  for (const task of pageTasks(traceEventsOf(trace))) {
    const whose = task.bridge ? longest.bridge : longest.window
    whose.wallMs = Math.max(whose.wallMs, task.wallMs)
    whose.cpuMs = Math.max(whose.cpuMs, task.cpuMs)
  }
  return longest
}

/**
 * How many tasks of a page's main thread lasted over `overMs` by the clock between two user-timing marks (a
 * scroll's): the window's own and the test bridge's carriages apart, told apart as longestPageTasks does; and how
 * many of the window's own lasted over `overMs` of its thread's CPU time (on a shared 2-core machine a task's clock
 * time counts the time its thread waited for a core, which says more of the machine than of the window).
 */
export function longPageTasksBetween(
  trace: Buffer,
  from: string,
  to: string,
  overMs: number,
): { window: number; bridge: number; windowByCpu: number } {
  const events = traceEventsOf(trace)
  const mark = (name: string) => events.find((e) => e.name === name && e.ts !== undefined)?.ts
  const start = mark(from)
  const end = mark(to)
  if (start === undefined || end === undefined) throw new Error(`the trace holds no marks ${from} and ${to}`)
  const counts = { window: 0, bridge: 0, windowByCpu: 0 }
  for (const task of pageTasks(events)) {
    if (task.ts < start || task.ts > end) continue
    if (!task.bridge && task.cpuMs > overMs) counts.windowByCpu++
    if (task.wallMs <= overMs) continue
    if (task.bridge) counts.bridge++
    else counts.window++
  }
  return counts
}

interface PageTask extends TaskLength {
  ts: number
  /** The test bridge's carriage of an answer's text. */
  bridge: boolean
}

/** The tasks of the pages' main threads (see longestPageTasks), each said to be the bridge's carriage or not. */
function pageTasks(events: readonly TraceEvent[]): PageTask[] {
  const pages = new Set(
    events.filter((e) => e.name === 'process_name' && e.args?.name === 'Renderer').map((e) => e.pid),
  )
  const mains = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && pages.has(e.pid))
      .map((e) => `${e.pid}:${e.tid}`),
  )
  if (mains.size === 0) throw new Error("the trace named no page's main thread")
  const onMain = (e: TraceEvent) => mains.has(`${e.pid}:${e.tid}`) && e.ts !== undefined
  const carriages = events.filter((e) => onMain(e) && isCarriage(e))
  return events.flatMap((e): PageTask[] => {
    if ((e.name !== 'ThreadControllerImpl::RunTask' && e.name !== 'RunTask') || !onMain(e)) return []
    const ts = e.ts ?? 0
    const end = ts + (e.dur ?? 0)
    const bridge = carriages.some((c) => c.pid === e.pid && c.tid === e.tid && c.ts! >= ts && c.ts! < end)
    return [{ ts, wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? 0) / 1000, bridge }]
  })
}

/**
 * The CPU time of the thread that made two user-timing marks, between them: its tasks' thread
 * time (tdur), each task counted for the part of it between the marks. On a shared machine the
 * time by the clock between the marks holds the thread's waits for a core; this does not.
 */
export function cpuBetweenMarks(trace: Buffer, from: string, to: string): number {
  return cpuBetweenMarksOf(traceEventsOf(trace), from, to)
}

/** cpuBetweenMarks of a trace already read. */
export function cpuBetweenMarksOf(events: readonly TraceEvent[], from: string, to: string): number {
  const start = events.find((e) => e.name === from && e.ts !== undefined)
  const end = events.find((e) => e.name === to && e.ts !== undefined)?.ts
  if (!start || end === undefined) throw new Error(`the trace holds no marks ${from} and ${to}`)
  let cpu = 0
  for (const e of events) {
    if (e.pid !== start.pid || e.tid !== start.tid || e.name !== 'ThreadControllerImpl::RunTask') continue
    if (e.ts === undefined || e.dur === undefined || e.tdur === undefined || e.dur <= 0) continue
    const overlap = Math.min(e.ts + e.dur, end) - Math.max(e.ts, start.ts!)
    if (overlap > 0) cpu += (e.tdur * overlap) / e.dur
  }
  return cpu / 1000
}
