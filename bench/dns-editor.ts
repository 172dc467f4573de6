/**
 * The DNS records editor on a 5,000-record zone in real Chromium: time to open the zone,
 * and the time of an edit, a filter and the plan review, each until the next frame.
 * Targets: each interaction (edit, filter, page turn, undo, plan review, a keystroke in raw
 * text) <= 100 ms with no task over 100 ms ("stays responsive"); switching between table
 * and raw text, which lays out or re-parses the whole zone, <= 500 ms like opening it.
 * Beside the times, the page's main-thread CPU time of the edit and of both switches (Chromium's
 * TaskDuration in thread time): on a loaded machine the times are mostly waiting for a core, and
 * `--against` read them as a slow-down (1.1x to 1.3x) where the CPU time was the same.
 */
import { installBridge, startHarness } from '../support/harness'
import { SessionSecretStore } from '../src/main/accounts/secret-store'
import { launchBenchChromium } from './bench-chromium'
import type { BenchResult } from './report'
import { median } from './stats'

const RECORDS = 5000

declare global {
  interface Window {
    /** The page's long tasks (ms) since the last reset, gathered by the observer this benchmark installs. */
    __long?: number[]
  }
}

export async function benchDnsEditor(): Promise<BenchResult> {
  const harness = await startHarness({ keychain: new SessionSecretStore() })
  const browser = await launchBenchChromium()
  try {
    const sb = await harness.demo()
    const d = sb.state.domains.find((x) => x.ns[0] === 'ns1.svc1.example.net')!
    d.dns.svc1.records = Array.from(
      { length: RECORDS },
      (_, i) => `a host${i} 192.0.${(i >> 8) & 255}.${i & 255}`,
    ).join('\n')
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const cdp = await page.context().newCDPSession(page)
    // Thread time: the main thread's own running, not the time it waited for a core.
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' })
    /** The page's main-thread CPU time so far (ms). */
    const mainThreadMs = async () =>
      ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN) * 1000
    await installBridge(page, harness)
    await page.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
    await page.goto(`${harness.url}#/accounts`)
    await page.getByRole('heading', { level: 1 }).waitFor()
    await page.evaluate(() => {
      window.__long = []
      new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long?.push(e.duration))).observe({
        type: 'longtask',
      })
    })
    // Timed in the page, to the frame the first row is in: waited for from here, Playwright's polls (20, 50, then 100 ms
    // apart) rounded the figure up to the next poll, so it came in two bands (about 195 and 250-285 ms) on either side
    // of a comparison, and which band a round fell in moved the median.
    const open = await page.evaluate(async (name) => {
      const t0 = performance.now()
      location.hash = `#/dns/${encodeURIComponent(name)}`
      // A loop of anonymous callbacks: a named function here would be wrapped by the bench's TypeScript loader in a
      // helper (__name) that the page does not have.
      while (document.querySelector('[aria-label="Value of row 1"]') === null) {
        if (performance.now() - t0 > 60_000) throw new Error('the zone did not open within 60 s')
        await new Promise((r) => requestAnimationFrame(() => r(undefined)))
      }
      return Math.round(performance.now() - t0)
    }, d.domainname)

    // The step is page code written as text (it names the page's own elements); the whole
    // timing runs in the page as one expression, whose answer is checked to be a number.
    /** The main-thread CPU time of each timed step, in order. */
    const stepsCpu: number[] = []
    const timed = async (body: string): Promise<number> => {
      const cpuBefore = await mainThreadMs()
      const ms = await page.evaluate(`(async () => {
        const start = performance.now()
        await (async () => { ${body} })()
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
        return performance.now() - start
      })()`)
      if (typeof ms !== 'number') throw new Error('a timed step answered no time')
      stepsCpu.push((await mainThreadMs()) - cpuBefore)
      return ms
    }
    const lastCpu = () => stepsCpu.at(-1) ?? NaN
    // Long tasks are counted from here on: opening a 5,000-record zone is allowed one.
    await page.evaluate(() => (window.__long = []))
    const edits: number[] = []
    const editsCpu: number[] = []
    for (const [n, v] of [
      [1, '198.51.100.9'],
      [2, '198.51.100.10'],
      [3, '198.51.100.11'],
    ] as const) {
      edits.push(
        await timed(
          `const i = document.querySelector('[aria-label="Value of row ${n}"]'); i.value = '${v}'; i.dispatchEvent(new Event('change'))`,
        ),
      )
      editsCpu.push(lastCpu())
    }
    const filters: number[] = []
    for (const term of ['host49', 'host4', '198.51', 'a host1', '']) {
      filters.push(
        await timed(
          `const i = document.querySelector('.records-editor input[type=search]'); i.value = ${JSON.stringify(term)}; i.dispatchEvent(new Event('input'))`,
        ),
      )
    }
    // Five turns, the median: one turn (13-19 ms) moved by a few ms from run to run, and against 898b2ac that read as
    // 1.51x with no other figure of the table moving.
    const pageTurns: number[] = []
    const pageTurnsCpu: number[] = []
    for (let turn = 0; turn < 5; turn++) {
      pageTurns.push(
        await timed(
          `[...document.querySelectorAll('.records-editor button')].find((b) => b.textContent.trim() === 'Next page').click()`,
        ),
      )
      pageTurnsCpu.push(lastCpu())
    }
    const pageTurn = median(pageTurns)
    const click = (label: string) =>
      `[...document.querySelectorAll('.records-editor button')].find((b) => b.textContent.trim() === ${JSON.stringify(label)}).click()`
    const undo = await timed(click('Undo'))
    const review = await timed(
      `[...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Review changes…').click()`,
    )
    await page.getByRole('region', { name: 'Plan: what will change' }).waitFor()
    const long = await page.evaluate(() => window.__long ?? [])
    const max = long.length ? Math.max(...long) : 0

    // Raw text mode: switching lays out a 5,000-line textarea, which Chromium alone takes
    // about 200 ms to do here (measured on a bare page), and switching back re-parses and
    // re-validates the whole zone and drops that textarea (most of it Chromium's own work:
    // keeping both views in the DOM saved under 10 ms). Both switches are loads, like
    // opening; typing in the textarea is an interaction again.
    const toRaw = await timed(click('Raw text'))
    const toRawCpu = lastCpu()
    await page.evaluate(() => {
      const box = document.querySelector<HTMLTextAreaElement>('.records-editor textarea')!
      box.focus()
      box.setSelectionRange(0, 0)
    })
    const keys: number[] = []
    for (const ch of ['#', ' ', 'x'])
      keys.push(await timed(`document.execCommand('insertText', false, ${JSON.stringify(ch)})`))
    const toTable = await timed(click('Table'))
    const toTableCpu = lastCpu()
    return {
      name: `DNS editor, ${RECORDS}-record zone, in Chromium`,
      lines: [
        `open the zone (request + parse + first page): ${open} ms`,
        `edit a value (median of 3, max):  ${median(edits).toFixed(1)} ms, ${Math.max(...edits).toFixed(1)} ms  (target <= 100 ms)`,
        `filter (median of 5, max):        ${median(filters).toFixed(1)} ms, ${Math.max(...filters).toFixed(1)} ms  (target <= 100 ms)`,
        `next page (median of 5, max):     ${pageTurn.toFixed(1)} ms, ${Math.max(...pageTurns).toFixed(1)} ms  (target <= 100 ms)`,
        `undo:                             ${undo.toFixed(1)} ms  (target <= 100 ms)`,
        `review the plan:                  ${review.toFixed(1)} ms  (target <= 100 ms)`,
        `tasks over 50 ms in the above:    ${long.length}, longest ${max.toFixed(1)} ms  (target: none over 100 ms)`,
        `raw text: switch to it:           ${toRaw.toFixed(1)} ms  (a load, like opening: target <= 500 ms)`,
        `raw text: a keystroke (max of 3): ${Math.max(...keys).toFixed(1)} ms  (target <= 100 ms)`,
        `back to the table (parse + page): ${toTable.toFixed(1)} ms  (a load: target <= 500 ms)`,
        `main-thread CPU: edit a value (median of 3): ${median(editsCpu).toFixed(1)} ms`,
        `main-thread CPU: next page (median of 5):    ${median(pageTurnsCpu).toFixed(1)} ms`,
        `main-thread CPU: raw text, switch to it:     ${toRawCpu.toFixed(1)} ms`,
        `main-thread CPU: back to the table:          ${toTableCpu.toFixed(1)} ms`,
      ],
      ok:
        Math.max(...edits, ...filters, ...pageTurns, undo, review, max, ...keys) <= 100 &&
        Math.max(toRaw, toTable) <= 500,
    }
  } finally {
    await browser.close()
    await harness.close()
  }
}
