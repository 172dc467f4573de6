/**
 * Where the domain list's "data -> first paint" goes (issue 54 point 1): the app's list of 10,000
 * rows opened as bench/domain-list.ts opens it, traced in the same Chromium with V8's sampling
 * profiler, and the main thread's time between the marks `domains:data` and `domains:painted`
 * summed by what ran (trace events: V8's compiling, style, layout, paint, GC; sampled script by
 * function), with the thread's CPU time there beside the bare table's (bench/bare-list-page.ts).
 * `npx tsx bench/first-paint-profile.ts [rounds]` after a build; TASKS=1 lists each round's tasks.
 * Function names are the bundle's: readable with a renderer build that keeps its identifiers
 * (esbuild's minifyIdentifiers off). Round 1 paints the list read afresh (10,000 rows), later
 * rounds the stored list's first part (STORED_FIRST_PART_SIZE); with the profiler on, V8 compiles code that a
 * later round would otherwise take from Chromium's code cache, so compiling shows in every round.
 */
import { startHarness } from '../support/harness'
import { SessionSecretStore } from '../src/main/accounts/secret-store'
import { launchBenchChromium } from './bench-chromium'
import { printMeans, RoundMeans, traceBreakdown } from './trace-breakdown'
import { bareAfterApp, openTracedDomainList } from './domain-list-window'
import { showBare } from './domain-list-baseline'

const DOMAINS = 10_000
const ROUNDS = Number(process.argv[2] ?? 4)

async function main() {
  const harness = await startHarness({ keychain: new SessionSecretStore(), demo: { domains: DOMAINS } })
  const browser = await launchBenchChromium()
  const app = new RoundMeans(ROUNDS)
  const bareMeans = new RoundMeans(ROUNDS)
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const page = await openTracedDomainList(browser, harness)
      const rows = await page.evaluate(() => document.querySelectorAll('.table-scroll tbody tr').length)
      const trace = await browser.stopTracing()
      const b = traceBreakdown(trace, ['domains:data', 'domains:painted'])
      console.log(
        `round ${round + 1}: data -> painted ${b.ms.toFixed(1)} ms (thread CPU ${b.cpu.toFixed(1)} ms), ` +
          `${b.samples} samples, ${rows} rows drawn, load ${b.load.toFixed(1)}`,
      )
      app.add(b)
      const { bare, labels, rows: bareRows } = await bareAfterApp(browser, harness, page, DOMAINS)
      await browser.startTracing(bare, {
        categories: ['toplevel', 'blink.user_timing', 'devtools.timeline', 'v8', 'disabled-by-default-v8.compile'],
      })
      await showBare(bare, labels, bareRows)
      const bb = traceBreakdown(await browser.stopTracing(), ['domains:data', 'domains:painted'])
      bareMeans.add(bb)
      console.log(`  bare: data -> painted ${bb.ms.toFixed(1)} ms (thread CPU ${bb.cpu.toFixed(1)} ms)`)
      await bare.close()
    }
    printMeans('data -> painted', app, bareMeans)
  } finally {
    await browser.close()
    await harness.close()
  }
}

void main()
