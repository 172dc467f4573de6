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
import { startHarness } from '../support/harness'
import { SessionSecretStore } from '../src/main/accounts/secret-store'
import { launchBenchChromium } from './bench-chromium'
import { printMeans, RoundMeans, traceBreakdown } from './trace-breakdown'
import { bareAfterApp, openTracedDomainList } from './domain-list-window'
import { showBare } from './domain-list-baseline'
import { SCROLL_END_MARK, SCROLL_START_MARK } from './scroll-tasks'

const DOMAINS = 10_000
const ROUNDS = Number(process.argv[2] ?? 4)

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
  const browser = await launchBenchChromium()
  const app = new RoundMeans(ROUNDS)
  const bareMeans = new RoundMeans(ROUNDS)
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const page = await openTracedDomainList(browser, harness)
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
      const b = traceBreakdown(trace, MARKS)
      console.log(
        `round ${round + 1}: scroll ${b.ms.toFixed(1)} ms (thread CPU ${b.cpu.toFixed(1)} ms), ` +
          `${b.samples} samples, ${rows} frames, load ${b.load.toFixed(1)}`,
      )
      app.add(b)
      const { bare, labels, rows: bareRows } = await bareAfterApp(browser, harness, page, DOMAINS)
      await showBare(bare, labels, bareRows)
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
      const bb = traceBreakdown(await browser.stopTracing(), MARKS)
      bareMeans.add(bb)
      console.log(`  bare: scroll ${bb.ms.toFixed(1)} ms (thread CPU ${bb.cpu.toFixed(1)} ms)`)
      await bare.close()
    }
    printMeans('over the scroll', app, bareMeans)
  } finally {
    await browser.close()
    await harness.close()
  }
}

void main()
