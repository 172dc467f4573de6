/**
 * Where the domain list's scroll goes (issue 54 point 1): the app's list of 10,000 rows opened as
 * bench/domain-list.ts opens it, scrolled top to bottom 600 px a frame from its first paint (the
 * detail columns loading meanwhile, as in the bench; AFTER=1: once they are in), traced with V8's
 * sampling profiler, and the main thread's time between the scroll's marks summed by what ran
 * (trace events: style, layout, paint, commit, GC; sampled script by function); then the bare
 * table (bench/bare-list-page.ts) with the same rows and shown columns scrolled the same way,
 * its thread's CPU time and breakdown beside the app's.
 * `npx tsx bench/scroll-profile.ts [rounds]` after a build. CSS='rule|rule' adds rules to the
 * app's stylesheet before the scroll (CSSOM: the page's CSP allows no inline style), to try a
 * style change without a build. Function names are the bundle's (see first-paint-profile.ts).
 */
import { chromium } from '@playwright/test'
import { loadavg } from 'node:os'
import { z } from 'zod'
import { installBridge, startHarness } from '../support/harness'
import { SessionSecretStore } from '../src/main/accounts/secret-store'
import { CHROMIUM_PATH } from '../playwright.config'
import { bareCells, openBarePage, showBare } from './domain-list-baseline'
import { SCROLL_END_MARK, SCROLL_START_MARK } from './scroll-tasks'

const DOMAINS = 10_000
const ROUNDS = Number(process.argv[2] ?? 4)

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
  args: z.record(z.string(), z.unknown()).optional(),
})
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

interface Breakdown {
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

function read(trace: Buffer): Breakdown {
  const events = z
    .object({ traceEvents: z.array(z.unknown()) })
    .parse(JSON.parse(trace.toString()))
    .traceEvents.flatMap((e) => {
      const p = traceEvent.safeParse(e)
      return p.success ? [p.data] : []
    })
  const markAt = (name: string) => events.find((e) => e.name === name && e.ts !== undefined)?.ts
  const from = markAt(SCROLL_START_MARK)
  const to = markAt(SCROLL_END_MARK)
  if (from === undefined || to === undefined) throw new Error('no scroll marks in the trace')
  const mark = events.find((e) => e.name === SCROLL_START_MARK)!
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
  let cpu = 0
  for (const e of onMain.filter((e) => e.name === 'ThreadControllerImpl::RunTask')) {
    if (e.ts! + e.dur! <= from || e.ts! >= to || e.tdur === undefined) continue
    const share = (Math.min(e.ts! + e.dur!, to) - Math.max(e.ts!, from)) / e.dur!
    cpu += (e.tdur * share) / 1000
  }
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

const top = (m: Map<string, number>, n: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `    ${v.toFixed(1).padStart(6)}  ${k}`)
    .join('\n')

/** Scrolls the list top to bottom, 600 px a frame, between the two marks. In the page; its number of frames. */
async function scroll([start, end]: [string, string]): Promise<number> {
  const body = document.querySelector<HTMLElement>('.table-scroll')!
  performance.mark(start)
  let frames = 0
  for (let i = 0; i < 1000 && body.scrollTop + body.clientHeight < body.scrollHeight; i++) {
    body.scrollTop += 600
    frames++
    await new Promise((r) => requestAnimationFrame(() => r(undefined)))
  }
  await new Promise((r) => setTimeout(r, 100))
  performance.mark(end)
  return frames
}
const MARKS: [string, string] = [SCROLL_START_MARK, SCROLL_END_MARK]

async function main() {
  const harness = await startHarness({ keychain: new SessionSecretStore(), demo: { domains: DOMAINS } })
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  })
  const events = new Map<string, number>()
  const self = new Map<string, number>()
  const total = new Map<string, number>()
  const cpus: number[] = []
  const bareCpus: number[] = []
  const bareEvents = new Map<string, number>()
  const bareSelf = new Map<string, number>()
  const add = (to: Map<string, number>, from: Map<string, number>) => {
    for (const [k, v] of from) to.set(k, (to.get(k) ?? 0) + v / ROUNDS)
  }
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await installBridge(page, harness)
      await page.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
      await page.goto(`${harness.url}#/accounts`)
      await page.getByRole('heading', { level: 1 }).waitFor()
      await browser.startTracing(page, {
        categories: [
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
        ],
      })
      await page.goto(`${harness.url}#/domains`)
      await page.waitForFunction(() => performance.getEntriesByName('domains:painted').length > 0, undefined, {
        timeout: 120_000,
      })
      if (process.env['AFTER']) {
        await page.getByText(`Showing ${DOMAINS} of ${DOMAINS}`).waitFor({ timeout: 120_000 })
        await page.waitForFunction(() => !document.querySelector('.read-status'), undefined, { timeout: 120_000 })
      }
      const css = process.env['CSS']
      if (css)
        await page.evaluate((rules) => {
          const sheet = document.styleSheets.item(document.styleSheets.length - 1)!
          for (const rule of rules.split('|')) sheet.insertRule(rule, sheet.cssRules.length)
        }, css)
      const rows = await page.evaluate(scroll, MARKS)
      const trace = await browser.stopTracing()
      const b = read(trace)
      console.log(
        `round ${round + 1}: scroll ${b.ms.toFixed(1)} ms (thread CPU ${b.cpu.toFixed(1)} ms), ` +
          `${b.samples} samples, ${rows} frames, load ${b.load.toFixed(1)}`,
      )
      add(events, b.events)
      add(self, b.self)
      add(total, b.total)
      cpus.push(b.cpu)
      const labels = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.table-scroll thead th'))
          .filter((th) => !th.classList.contains('check'))
          .map(
            (th) =>
              th
                .querySelector('button')
                ?.getAttribute('aria-label')
                ?.replace(/^Sort by /, '') ?? '',
          ),
      )
      // The app's list whole first (the stored list's parts, the fresh read): each part marks domains:data again.
      await page.getByText(`Showing ${DOMAINS} of ${DOMAINS}`).waitFor({ timeout: 120_000 })
      await page.close()
      const sandbox = await harness.demo()
      const bare = await openBarePage(browser)
      await showBare(
        bare,
        labels,
        sandbox.state.domains.map((d) => bareCells(labels, d)),
      )
      await browser.startTracing(bare, {
        categories: [
          'toplevel',
          'blink.user_timing',
          'devtools.timeline',
          'v8',
          'v8.execute',
          'disabled-by-default-v8.cpu_profiler',
          'disabled-by-default-devtools.timeline',
        ],
      })
      await bare.evaluate(scroll, MARKS)
      const bb = read(await browser.stopTracing())
      bareCpus.push(bb.cpu)
      add(bareEvents, bb.events)
      add(bareSelf, bb.self)
      console.log(`  bare: scroll ${bb.ms.toFixed(1)} ms (thread CPU ${bb.cpu.toFixed(1)} ms)`)
      await bare.close()
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
    console.log(
      `thread CPU over the scroll, app ${cpus.map((x) => x.toFixed(0)).join('/')} (median ${med(cpus).toFixed(1)}),`,
    )
    console.log(`  bare ${bareCpus.map((x) => x.toFixed(0)).join('/')} (median ${med(bareCpus).toFixed(1)})`)
    console.log('main thread by event, mean per round (outermost of each name, ms):')
    console.log(top(events, 30))
    console.log('bare: main thread by event, mean per round (ms):')
    console.log(top(bareEvents, 16))
    console.log('bare: self time by function, mean per round (ms):')
    console.log(top(bareSelf, 20))
    console.log('self time by function, mean per round (ms):')
    console.log(top(self, 40))
    console.log('total time by function, mean per round (ms):')
    console.log(top(total, 60))
  } finally {
    await browser.close()
    await harness.close()
  }
}

void main()
