/**
 * What the domain list's page waits for between `domains:data` and `domains:painted` (issue 54
 * point 1): the app's list opened as bench/domain-list.ts opens it and the bare table beside it,
 * each traced across Chromium's processes, and for each round every thread's busy time (trace
 * clock and CPU) between the marks, the page's main thread's tasks one by one, the frames'
 * stages (BeginFrame, BeginMainFrame, commit, draw) and the harness's IPC answers meanwhile.
 * `npx tsx bench/first-paint-wait.ts [rounds] [out.json]` after a build. Run under
 * `perf record -e sched:sched_switch,sched:sched_wakeup -a -k mono` the windows it writes
 * (CLOCK_MONOTONIC, as the trace's) tell which processes had the cores meanwhile.
 */
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import type { Page } from '@playwright/test'
import { installBridge, startHarness, type Harness } from '../support/harness'
import { SessionSecretStore } from '../src/main/accounts/secret-store'
import { launchBenchChromium } from './bench-chromium'
import { bareAfterApp } from './domain-list-window'
import { showBare } from './domain-list-baseline'
import { traceEventsOf, type TraceEvent } from './scroll-tasks'

const DOMAINS = 10_000
const ROUNDS = Number(process.argv[2] ?? 3)
const OUT = process.argv[3] ?? '/tmp/first-paint-wait.json'

const CATEGORIES = [
  'toplevel',
  '__metadata',
  'blink.user_timing',
  'devtools.timeline',
  'v8.gc',
  'cc',
  'viz',
  'gpu',
  'benchmark',
  'disabled-by-default-devtools.timeline.frame',
  'v8',
  'disabled-by-default-v8.gc',
  'blink.worker',
  'v8.compile',
  'disabled-by-default-v8.compile',
]

interface Call {
  channel: string
  what: string
  from: number
  to: number
}

/** The harness's answers to the page, each with its start and end on the epoch clock. */
function recordCalls(harness: Harness): { calls: Call[]; stop: () => void } {
  const calls: Call[] = []
  const dispatch = harness.router.dispatch.bind(harness.router)
  harness.router.dispatch = async (channel, payload, sender) => {
    const from = performance.timeOrigin + performance.now()
    const r = await dispatch(channel, payload, sender)
    const p = typeof payload === 'object' && payload !== null ? payload : {}
    const what = ['name', 'part'].map((k) => (k in p ? `${k}=${String(Reflect.get(p, k))}` : '')).join(' ')
    calls.push({ channel, what, from, to: performance.timeOrigin + performance.now() })
    return r
  }
  return { calls, stop: () => (harness.router.dispatch = dispatch) }
}

interface Window {
  side: 'app' | 'bare'
  round: number
  /** CLOCK_MONOTONIC µs, as the trace's ts. */
  from: number
  to: number
  rendererPid: number
  rendererMainTid: number
  threads: Record<number, string>
  /** Between the marks: by the clock, the main thread's CPU, V8's compile tasks on the page's other threads (clock, CPU). */
  wallMs: number
  mainCpuMs: number
  compileMs: number
  compileCpuMs: number
}

function analyse(trace: Buffer, side: 'app' | 'bare', round: number, calls: Call[], epochOfMark?: number): Window {
  const events = traceEventsOf(trace)
  const data = events.find((e) => e.name === 'domains:data' && e.ts !== undefined)!
  const painted = events.find((e) => e.name === 'domains:painted' && e.ts !== undefined)!
  const from = data.ts!
  const to = painted.ts!
  const names = new Map<string, string>()
  const procs = new Map<number, string>()
  for (const e of events) {
    if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?')
    if (e.name === 'process_name') procs.set(e.pid, e.args?.name ?? '?')
  }
  const threadName = (e: { pid: number; tid: number }) =>
    `${procs.get(e.pid) ?? e.pid}/${names.get(`${e.pid}:${e.tid}`) ?? e.tid}`
  console.log(
    `${side} round ${round}: data -> painted ${((to - from) / 1000).toFixed(1)} ms, load ${loadavg()[0]!.toFixed(2)}`,
  )
  // Each thread's outermost complete events between the marks: busy by the clock and by CPU.
  const byThread = new Map<string, { wall: number; cpu: number; top: Map<string, number> }>()
  const sorted = events.filter((e) => e.ph === 'X' && e.dur !== undefined && e.ts !== undefined)
  sorted.sort((a, b) => a.ts! - b.ts!)
  const coveredUntil = new Map<string, number>()
  for (const e of sorted) {
    if (e.ts! + e.dur! <= from || e.ts! >= to) continue
    const key = threadName(e)
    if (e.ts! < (coveredUntil.get(`${e.pid}:${e.tid}`) ?? 0)) continue
    coveredUntil.set(`${e.pid}:${e.tid}`, e.ts! + e.dur!)
    const clipped = Math.min(e.ts! + e.dur!, to) - Math.max(e.ts!, from)
    const t = byThread.get(key) ?? { wall: 0, cpu: 0, top: new Map<string, number>() }
    t.wall += clipped / 1000
    t.cpu += e.tdur !== undefined && e.dur! > 0 ? (e.tdur * clipped) / e.dur! / 1000 : 0
    t.top.set(e.name, (t.top.get(e.name) ?? 0) + clipped / 1000)
    byThread.set(key, t)
  }
  for (const [k, t] of [...byThread.entries()].sort((a, b) => b[1].wall - a[1].wall)) {
    const top = [...t.top.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([n, v]) => `${n} ${v.toFixed(1)}`)
      .join(', ')
    console.log(`  ${k.padEnd(44)} busy ${t.wall.toFixed(1).padStart(6)} cpu ${t.cpu.toFixed(1).padStart(6)}  ${top}`)
  }
  // The page's main thread, task by task, with what ran in it (>= 0.3 ms) and the gaps between.
  const main = (e: TraceEvent) => e.pid === data.pid && e.tid === data.tid
  const onMain = sorted.filter((e) => main(e) && e.ts! + e.dur! > from && e.ts! < to)
  let last = from
  for (const task of onMain.filter((e) => e.name === 'ThreadControllerImpl::RunTask')) {
    const gap = task.ts! - last
    const inner = onMain
      .filter((x) => x !== task && x.ts! >= task.ts! && x.ts! < task.ts! + task.dur! && x.dur! >= 300)
      .map((x) => `${x.name} ${(x.dur! / 1000).toFixed(1)}`)
      .slice(0, 8)
    const src = JSON.stringify(task.args ?? {}).slice(0, 90)
    console.log(
      `    +${((task.ts! - from) / 1000).toFixed(1).padStart(5)} (gap ${(gap / 1000).toFixed(1)}) ` +
        `${(task.dur! / 1000).toFixed(1)} ms cpu ${((task.tdur ?? 0) / 1000).toFixed(1)}: ${inner.join(', ')} ${src}`,
    )
    last = task.ts! + task.dur!
  }
  console.log(`    end +${((to - from) / 1000).toFixed(1)} (gap ${((to - last) / 1000).toFixed(1)})`)
  // What the page's other threads ran (the page's thread pool: V8's GC helpers, raster, compiling).
  const others = new Map<string, number>()
  for (const e of sorted) {
    if (e.pid !== data.pid || e.tid === data.tid || e.ts! + e.dur! <= from || e.ts! >= to) continue
    if (e.name === 'ThreadPool_RunTask' || e.name === 'ThreadControllerImpl::RunTask') continue
    const clipped = Math.min(e.ts! + e.dur!, to) - Math.max(e.ts!, from)
    others.set(e.name, (others.get(e.name) ?? 0) + clipped / 1000)
  }
  const posted = new Map<string, [number, number, number]>()
  for (const e of sorted) {
    if (e.pid !== data.pid || e.tid === data.tid || e.name !== 'ThreadPool_RunTask') continue
    if (e.ts! + e.dur! <= from || e.ts! >= to) continue
    const a = JSON.stringify(e.args ?? {})
    const src = /"src_file":"([^"]*)","src_func":"([^"]*)"/.exec(a)
    const k = src ? `${src[1]!.split('/').slice(-2).join('/')}:${src[2]}` : a.slice(0, 80)
    const clipped = Math.min(e.ts! + e.dur!, to) - Math.max(e.ts!, from)
    const v = posted.get(k) ?? [0, 0, 0]
    posted.set(k, [v[0] + 1, v[1] + clipped / 1000, v[2] + (e.tdur ?? 0) / 1000])
  }
  if (process.env['COMPILED']) {
    const compiled = new Map<string, number>()
    for (const e of sorted) {
      if (e.pid !== data.pid || e.ts! + e.dur! <= from - 5000 || e.ts! >= to) continue
      if (!/Maglev|TurboFan|Optimiz|Baseline|Sparkplug|Compile/i.test(e.name)) continue
      const a = JSON.stringify(e.args ?? {})
      const fn = /"(?:functionName|function)":"([^"]*)"/.exec(a)?.[1] ?? ''
      const k = `${e.tid === data.tid ? 'main' : 'pool'} ${e.name} ${fn}`
      compiled.set(k, (compiled.get(k) ?? 0) + e.dur! / 1000)
    }
    for (const [k, v] of [...compiled.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40))
      console.log(`      compile ${v.toFixed(2)} ${k}`)
  }
  for (const [k, [n, ms, cpu]] of [...posted.entries()].sort((a, b) => b[1][1] - a[1][1]).slice(0, 8))
    console.log(`    pool task ${k}: ${n}x, ${ms.toFixed(1)} ms, cpu ${cpu.toFixed(1)}`)
  console.log(
    '    page threads besides main: ' +
      [...others.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([n, v]) => `${n} ${v.toFixed(1)}`)
        .join(', '),
  )
  // Frame stages on any thread (compositor, viz, GPU) between the marks.
  const frameNames =
    /BeginFrame|BeginMainFrame|Commit|Draw|SubmitCompositorFrame|Display::DrawAndSwap|RasterTask|Activate/
  for (const e of sorted.filter((e) => frameNames.test(e.name) && e.ts! + e.dur! > from && e.ts! < to)) {
    if (e.dur! < 200 && !/BeginMainFrame|DrawAndSwap/.test(e.name)) continue
    console.log(
      `      ${threadName(e).padEnd(40)} +${((e.ts! - from) / 1000).toFixed(1).padStart(5)} ${e.name} ` +
        `${(e.dur! / 1000).toFixed(1)} (cpu ${((e.tdur ?? 0) / 1000).toFixed(1)})`,
    )
  }
  if (epochOfMark !== undefined) {
    // The harness's calls by the page's clock: the mark's epoch time is `from`.
    for (const c of calls) {
      const a = (c.from - epochOfMark) * 1000
      const b = (c.to - epochOfMark) * 1000
      if (b < -200_000 || a > to - from + 50_000) continue
      console.log(
        `      harness ${c.channel} ${c.what}: ${(a / 1000).toFixed(1)} .. ${(b / 1000).toFixed(1)} ms from data`,
      )
    }
  }
  let compileMs = 0
  let compileCpuMs = 0
  for (const e of sorted) {
    if (e.pid !== data.pid || e.tid === data.tid || !/^V8\.(MaglevTask|TurbofanTask)$/.test(e.name)) continue
    const clipped = Math.min(e.ts! + e.dur!, to) - Math.max(e.ts!, from)
    if (clipped <= 0) continue
    compileMs += clipped / 1000
    compileCpuMs += e.tdur !== undefined && e.dur! > 0 ? (e.tdur * clipped) / e.dur! / 1000 : 0
  }
  const mainCpuMs = byThread.get(threadName(data))?.cpu ?? 0
  return {
    wallMs: (to - from) / 1000,
    mainCpuMs,
    compileMs,
    compileCpuMs,
    side,
    round,
    from,
    to,
    rendererPid: data.pid,
    rendererMainTid: data.tid,
    threads: Object.fromEntries(
      [...names.entries()].filter(([k]) => k.startsWith(`${data.pid}:`)).map(([k, v]) => [Number(k.split(':')[1]), v]),
    ),
  }
}

async function openApp(harness: Harness, page: Page): Promise<void> {
  await installBridge(page, harness)
  await page.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
  await page.goto(`${harness.url}#/accounts`)
  await page.getByRole('heading', { level: 1 }).waitFor()
}

async function main() {
  const harness = await startHarness({ keychain: new SessionSecretStore(), demo: { domains: DOMAINS } })
  const browser = await launchBenchChromium()
  const windows: Window[] = []
  const { calls, stop } = recordCalls(harness)
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await openApp(harness, page)
      await browser.startTracing(page, { categories: CATEGORIES })
      await page.goto(`${harness.url}#/domains`)
      await page.waitForFunction(() => performance.getEntriesByName('domains:painted').length > 0, undefined, {
        timeout: 120_000,
      })
      const epoch = await page.evaluate(
        () => performance.timeOrigin + performance.getEntriesByName('domains:data')[0]!.startTime,
      )
      // Tracing for a while after the paint: what the trace holds between the marks is complete.
      await new Promise((r) => setTimeout(r, 300))
      windows.push(analyse(await browser.stopTracing(), 'app', round, calls, epoch))
      const { bare, labels, rows } = await bareAfterApp(browser, harness, page, DOMAINS)
      await browser.startTracing(bare, { categories: CATEGORIES })
      await showBare(bare, labels, rows)
      await new Promise((r) => setTimeout(r, 300))
      windows.push(analyse(await browser.stopTracing(), 'bare', round, []))
      await bare.close()
    }
    for (const side of ['app', 'bare'] as const) {
      const of = windows.filter((w) => w.side === side)
      const each = (pick: (w: Window) => number) => of.map((w) => pick(w).toFixed(1)).join('/')
      console.log(
        `${side}: data -> painted ${each((w) => w.wallMs)} ms, main thread CPU ${each((w) => w.mainCpuMs)} ms, ` +
          `V8 compile tasks beside it ${each((w) => w.compileMs)} ms (CPU ${each((w) => w.compileCpuMs)} ms)`,
      )
    }
  } finally {
    stop()
    writeFileSync(OUT, JSON.stringify(windows))
    await browser.close()
    await harness.close()
  }
}

void main()
