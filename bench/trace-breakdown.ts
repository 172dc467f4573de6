/**
 * A Chromium trace of the page's main thread between two user-timing marks, summed by what ran:
 * trace events (outermost of each name: compiling, style, layout, paint, GC…), V8's sampled
 * script by function (self and total), and the thread's own CPU time. Shared by the profilers of
 * the domain list's first paint and of its scroll (first-paint-profile.ts, scroll-profile.ts).
 */
import { loadavg } from 'node:os'
import { z } from 'zod'
import { cpuBetweenMarksOf, traceEventsOf } from './scroll-tasks'
import { median } from './stats'

/** The categories a breakdown reads: user timing, the timeline, V8's execution, GC, compiling and sampling profiler. */
export const PROFILE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'v8',
  'v8.execute',
  'v8.gc',
  'blink.user_timing',
  'disabled-by-default-v8.cpu_profiler',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.compile',
  'v8.compile',
]

const profileChunk = z.object({
  cpuProfile: z
    .object({
      nodes: z
        .array(
          z.object({
            id: z.number(),
            parent: z.number().optional(),
            callFrame: z.object({
              functionName: z.string(),
              url: z.string().optional(),
              lineNumber: z.number().optional(),
              columnNumber: z.number().optional(),
            }),
          }),
        )
        .optional(),
      samples: z.array(z.number()).optional(),
    })
    .optional(),
  timeDeltas: z.array(z.number()).optional(),
})

export interface Breakdown {
  ms: number
  cpu: number
  load: number
  /** Main-thread time between the marks by trace event (outermost of each name). */
  events: Map<string, number>
  /** Sampled self time by function (ms). */
  self: Map<string, number>
  /** Sampled total time (self and callees) by function (ms), counted once per sample. */
  total: Map<string, number>
  samples: number
}

/** The main thread's time between the marks `from` and `to` of the trace, by what ran. */
export function traceBreakdown(trace: Buffer, [fromMark, toMark]: readonly [string, string]): Breakdown {
  const events = traceEventsOf(trace)
  const markAt = (name: string) => events.find((e) => e.name === name && e.ts !== undefined)?.ts
  const from = markAt(fromMark)
  const to = markAt(toMark)
  if (from === undefined || to === undefined) throw new Error(`no marks ${fromMark}, ${toMark} in the trace`)
  const mark = events.find((e) => e.name === fromMark)!
  const main = `${mark.pid}:${mark.tid}`
  const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined)
  const spans = onMain.filter((e) => e.ts! + e.dur! > from && e.ts! < to).sort((a, b) => a.ts! - b.ts!)
  const byName = new Map<string, number>()
  const coveredUntil = new Map<string, number>()
  for (const e of spans) {
    if (e.ts! < (coveredUntil.get(e.name) ?? 0)) continue
    const clipped = Math.min(e.ts! + e.dur!, to) - Math.max(e.ts!, from)
    byName.set(e.name, (byName.get(e.name) ?? 0) + clipped / 1000)
    coveredUntil.set(e.name, e.ts! + e.dur!)
  }
  // The sampling profiler: a Profile event (its start) and ProfileChunks, by profile id, on the page's thread.
  const profiles = events.filter((e) => e.name === 'Profile' && `${e.pid}:${e.tid}` === main)
  const self = new Map<string, number>()
  const total = new Map<string, number>()
  let count = 0
  for (const p of profiles) {
    const data = p.args?.['data']
    const start = typeof data === 'object' && data !== null && 'startTime' in data ? Number(data.startTime) : 0
    const nodes = new Map<number, { name: string; parent?: number }>()
    let t = start
    for (const c of events.filter((e) => e.name === 'ProfileChunk' && e.id === p.id)) {
      const chunk = profileChunk.parse(c.args?.['data'] ?? {})
      for (const n of chunk.cpuProfile?.nodes ?? []) {
        const url = n.callFrame.url?.split('/').pop() ?? ''
        const at = `${n.callFrame.lineNumber ?? ''}:${n.callFrame.columnNumber ?? ''}`
        const name = `${n.callFrame.functionName || '(anon)'} ${url}:${at}`
        nodes.set(n.id, { name, parent: n.parent })
      }
      const samples = chunk.cpuProfile?.samples ?? []
      const deltas = chunk.timeDeltas ?? []
      for (let i = 0; i < samples.length; i++) {
        t += deltas[i] ?? 0
        if (t < from || t > to) continue
        count++
        const dt = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000
        let id: number | undefined = samples[i]
        const seen = new Set<string>()
        const leaf = nodes.get(id!)
        if (leaf) self.set(leaf.name, (self.get(leaf.name) ?? 0) + dt)
        while (id !== undefined) {
          const n = nodes.get(id)
          if (!n) break
          if (!seen.has(n.name)) total.set(n.name, (total.get(n.name) ?? 0) + dt)
          seen.add(n.name)
          id = n.parent
        }
      }
    }
  }
  // The thread's own CPU time in the tasks between the marks (tdur), less sensitive to the machine's load.
  const cpu = cpuBetweenMarksOf(events, fromMark, toMark)
  if (process.env['TASKS']) {
    for (const e of onMain.filter((e) => e.name === 'ThreadControllerImpl::RunTask')) {
      if (e.ts! + e.dur! <= from || e.ts! >= to) continue
      const inner = onMain
        .filter((x) => x !== e && x.ts! >= e.ts! && x.ts! < e.ts! + e.dur! && x.dur! > 500)
        .map((x) => `${x.name} ${(x.dur! / 1000).toFixed(1)}`)
        .slice(0, 6)
      console.log(
        `    task at +${((e.ts! - from) / 1000).toFixed(1)} ms: ${(e.dur! / 1000).toFixed(1)} ms, ` +
          `cpu ${((e.tdur ?? 0) / 1000).toFixed(1)}; ${inner.join(', ')}`,
      )
    }
  }
  return { cpu, ms: (to - from) / 1000, load: loadavg()[0]!, events: byName, self, total, samples: count }
}

/** The n largest of a breakdown's map, a line each. */
const topLines = (m: Map<string, number>, n: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `    ${v.toFixed(1).padStart(6)}  ${k}`)
    .join('\n')

/** Breakdowns of several rounds of one side (the app's, the bare table's): means per round, and each round's CPU time. */
export class RoundMeans {
  readonly events = new Map<string, number>()
  readonly self = new Map<string, number>()
  readonly total = new Map<string, number>()
  readonly cpus: number[] = []
  constructor(private readonly rounds: number) {}
  add(b: Breakdown): void {
    const pairs: [Map<string, number>, Map<string, number>][] = [
      [this.events, b.events],
      [this.self, b.self],
      [this.total, b.total],
    ]
    for (const [to, from] of pairs) for (const [k, v] of from) to.set(k, (to.get(k) ?? 0) + v / this.rounds)
    this.cpus.push(b.cpu)
  }
}

/** The app's rounds beside the bare table's: CPU time of each round and its median, then the breakdowns. */
export function printMeans(window: string, app: RoundMeans, bare: RoundMeans): void {
  const cpus = (m: RoundMeans) => `${m.cpus.map((x) => x.toFixed(0)).join('/')} (median ${median(m.cpus).toFixed(1)})`
  console.log(`thread CPU ${window}, app ${cpus(app)},`)
  console.log(`  bare ${cpus(bare)}`)
  console.log('main thread by event, mean per round (outermost of each name, ms):')
  console.log(topLines(app.events, 30))
  console.log('bare: main thread by event, mean per round (ms):')
  console.log(topLines(bare.events, 16))
  if (bare.self.size > 0) {
    console.log('bare: self time by function, mean per round (ms):')
    console.log(topLines(bare.self, 20))
  }
  console.log('self time by function, mean per round (ms):')
  console.log(topLines(app.self, 40))
  console.log('total time by function, mean per round (ms):')
  console.log(topLines(app.total, 60))
}
