/**
 * Ten times the portfolio (issue 54 point 3): one account of 100,000 domains beside the ten
 * accounts of 10,000 of ten-accounts.ts, against the same store with that account at 10,000, each
 * figure printed with its target and its ratio to the 10,000 case. The cost should grow no faster
 * than the number of domains (ratio <= 10x), and a first paint not at all (its own target).
 *
 * - the store: the account's lists filled (and the longest single write: how long the store's
 *   thread is held), the store reopened and the domain list read back, the palette's search, the
 *   file's size;
 * - the built main bundle on that store (the electron double): the window's first paint after app
 *   ready (an instant start, <= 300 ms, with the store open), main's answer to the window's stored
 *   list, to the domain list's stored WHOIS privacy flags and to the palette's search, main's memory;
 * - the window in Chromium (the test bridge) on that store, the service never answering: the
 *   stored list's first paint (data -> painted; window loaded -> painted), filter, sort, a
 *   1,000-frame scroll at 600 px a frame, the window's JS heap, and the longest task on the
 *   window's main thread through all of it (target: none over 50 ms);
 * - a full refresh of the account from a sandbox under the live rate limit's shape (a quota a
 *   window, then an 18 s block, no Retry-After), its durations at a tenth as in the other
 *   rate-limited benches and its quota five times the live 60: 50 requests a second, so that the
 *   9,000 requests of 100,000 domains take 3 minutes, not 15 at a tenth (two and a half hours at
 *   the live rate). A hundredth of the durations instead (600 ms windows) measured the timers'
 *   jitter under load more than the pacing. Its target is the issue's: within 1.15x of
 *   requests / rate.
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { z } from 'zod'
import { DEMO_ACCOUNT_ID } from '@shared/accounts'
import { openPortfolioStore, portfolioFileOf, type PortfolioStore } from '../src/main/store'
import { SessionSecretStore } from '../src/main/accounts/secret-store'
import { accountLists, putAccount, type AccountLists } from '../support/portfolio-data'
import { startBuiltShell } from '../support/built-shell'
import { installBridge, startHarness, type Harness, type WindowCall } from '../support/harness'
import { ipcChannel } from '@shared/ipc/channels'
import { launchBenchChromium } from './bench-chromium'
import type { BenchResult } from './report'
import { collectGarbage, median } from './stats'
import {
  longestPageTasks,
  longPageTasksBetween,
  SCROLL_END_MARK,
  SCROLL_START_MARK,
  SCROLL_TRACE_CATEGORIES,
  type LongestPageTasks,
} from './scroll-tasks'
import { startTimes } from './startup'
import { openStoreInWorker } from '../src/main/store/store-worker'
import { LIVE_RATE_LIMIT, scaledRateLimit } from '../src/sandbox'
import { startRemoteSandbox } from './remote-sandbox'
import { refreshOne } from './ten-accounts-refresh'

const SMALL = 10_000
const LARGE = 100_000
const OTHER_ACCOUNTS = 10
/** Grows no faster than the number of domains. */
const GROWTH_TARGET = LARGE / SMALL
const START_PAINT_MS = 300
const LONG_TASK_MS = 50
const SCROLL_PX = 600
const SCROLL_FRAMES = 1000
const RUNS = 5
/** Loads of the window whose first paints' median is its figure (see windowFigures). */
const PAINT_LOADS = 3
const SEARCHES = ['aurora', 'jade.com', 'zen', 'ns1.']
const FILTER_TERMS = ['aurora', 'ze', 'jade.com', 'x', '']
const SORT_LABELS = ['Sort by Expiration date', 'Sort by Expiration date', 'Sort by Domain', 'Sort by Domain']
/** The live rate limit's durations at a tenth, its quota five times: 50 requests a second (see above). */
const RATE_SCALE = 0.1
const QUOTA_SCALE = 5
const RATE_LIMIT = { ...scaledRateLimit(LIVE_RATE_LIMIT, RATE_SCALE), limit: LIVE_RATE_LIMIT.limit * QUOTA_SCALE }
const PER_SECOND = (RATE_LIMIT.limit * 1000) / RATE_LIMIT.windowMs
/** The client's first back-off (300 ms) and a round trip to the live service (200 ms), scaled like the durations. */
const FIRST_BACKOFF_MS = 300 * RATE_SCALE
const LATENCY_MS = 100 * RATE_SCALE
const REFRESH_TARGET = 1.15
/** After the first block, a request takes no longer in the large case than in the small one (within 5 %). */
const PACE_GROWTH_TARGET = 1.05

interface Figures {
  fillMs: number
  longestWriteMs: number
  reopenMs: number
  readMs: number
  /** The same, each read from a collected heap: what the read costs on its own, not the garbage of the one before. */
  readCollectedMs: number
  searchMs: number
  fileMB: number
  startPaintMs: number
  servicesMs: number
  mainListMs: number
  /** Every part of the stored list asked in turn, as the window carries it (stored-parts.ts). */
  mainPartsMs: number
  /** Every part of the stored WHOIS privacy flags asked in turn, as the domain list's column carries them. */
  mainFlagsMs: number
  mainSearchMs: number
  mainRssMB: number
  mainHeapMB: number
  paintMs: number
  loadedToPaintMs: number
  loadedToWholeMs: number
  filterMs: number
  sortMs: number
  scrollLong: number
  /** Of the test bridge's carriages, apart (see bridgeTaskMs). */
  scrollLongBridge: number
  /** The window's own tasks over the line by its thread's CPU time: what is the window's, the machine's load left out. */
  scrollLongByCpu: number
  longestTaskMs: number
  longestTaskCpuMs: number
  /** The test bridge's carriage of an answer's text (the DevTools protocol's, not Electron's): apart. */
  bridgeTaskMs: number
  bridgeTaskCpuMs: number
  windowHeapMB: number
  refreshMs: number
  /** Requests the service answered (not 429) during the refresh. */
  refreshRequests: number
  refreshRefused: number
  refreshFailed: number
  /** The refresh after its first block (NaN when it met none): the part at the learned pace. */
  refreshPacedMs: number
  refreshPacedRequests: number
}

async function fileSize(file: string): Promise<number> {
  let total = 0
  for (const f of [file, `${file}-wal`])
    total += await stat(f).then(
      (s) => s.size,
      () => 0,
    )
  return total
}

const timedMs = (fn: () => unknown): number => {
  const t0 = performance.now()
  fn()
  return performance.now() - t0
}

/** The store's figures (storeFigures). */
type StoreFigures = Pick<
  Figures,
  'fillMs' | 'longestWriteMs' | 'reopenMs' | 'readMs' | 'readCollectedMs' | 'searchMs' | 'fileMB'
>
type MainFigures = Pick<
  Figures,
  | 'startPaintMs'
  | 'servicesMs'
  | 'mainListMs'
  | 'mainPartsMs'
  | 'mainFlagsMs'
  | 'mainSearchMs'
  | 'mainRssMB'
  | 'mainHeapMB'
>
type WindowFigures = Pick<
  Figures,
  | 'paintMs'
  | 'loadedToPaintMs'
  | 'loadedToWholeMs'
  | 'filterMs'
  | 'sortMs'
  | 'scrollLong'
  | 'scrollLongBridge'
  | 'scrollLongByCpu'
  | 'longestTaskMs'
  | 'longestTaskCpuMs'
  | 'bridgeTaskMs'
  | 'bridgeTaskCpuMs'
  | 'windowHeapMB'
>

/**
 * The store's figures: the data folder filled, the active (demo) account being the lists `makeLists` makes. They are
 * made and let go within the fill, so the reads after are timed without the bench's own generated account live
 * beside them: held through the reads, the 100,000 case's (its lists and the sandbox state they came from) made the
 * heap the collector marks in the middle of a read ten times the 10,000 case's, and the 100,000-domain read took
 * 14-46 % longer (three pairs of processes, retained or not, alternately), the 10,000-domain read no longer.
 */
async function storeFigures(dir: string, others: AccountLists, makeLists: () => AccountLists): Promise<StoreFigures> {
  const file = portfolioFileOf(dir)
  const readAt = new Date().toISOString()
  let store: PortfolioStore = openPortfolioStore(file)
  for (let n = 0; n < OTHER_ACCOUNTS; n++) putAccount(store, `account-${n}`, others, readAt)
  let longestWriteMs = 0
  const timed: PortfolioStore = {
    ...store,
    putList: (...args) => {
      const t0 = performance.now()
      const r = store.putList(...args)
      longestWriteMs = Math.max(longestWriteMs, performance.now() - t0)
      return r
    },
  }
  const fill = (): { ms: number; domains: number } => {
    const lists = makeLists()
    // Made, the lists leave the garbage of their making behind (the seeded state, the wire shapes, the decoding).
    // Collected inside the timed fill, that is the bench's own cost, ten times the 10,000 case's in the 100,000 case,
    // billed to the store: in a scratch run the fill was 8.8-10.6x the 10,000 case's in four pairs, and 8.5-9.2x in
    // three pairs with this collection first. So the fill is timed from a collected heap, its input live.
    collectGarbage()
    return { ms: timedMs(() => putAccount(timed, DEMO_ACCOUNT_ID, lists, readAt)), domains: lists.domains.length }
  }
  const { ms: fillMs, domains } = fill()
  store.close()
  const reopenMs = timedMs(() => (store = openPortfolioStore(file)))
  try {
    const readBack = () => {
      const list = store.getList(DEMO_ACCOUNT_ID, 'domains.list', {})
      if (list?.items.length !== domains) throw new Error('the stored list came back short')
    }
    const reads: number[] = []
    for (let i = 0; i < RUNS; i++) reads.push(timedMs(readBack))
    const readsCollected: number[] = []
    for (let i = 0; i < RUNS; i++) {
      collectGarbage()
      readsCollected.push(timedMs(readBack))
    }
    const searches = SEARCHES.map((q) => timedMs(() => store.search(q)))
    const fileMB = (await fileSize(file)) / 1e6
    return {
      fillMs,
      longestWriteMs,
      reopenMs,
      readMs: median(reads),
      readCollectedMs: median(readsCollected),
      searchMs: median(searches),
      fileMB,
    }
  } finally {
    store.close()
  }
}

/** The built main bundle on the folder: an instant start, main's answers, main's memory. */
/** What a part's answer must say for the next to be asked: how many parts there are. */
const storedPartAnswer = z.object({ ok: z.literal(true), value: z.object({ parts: z.number().int().min(1) }) })

async function mainFigures(dir: string): Promise<MainFigures> {
  const shell = await startBuiltShell({ userDataDir: dir, exposeGc: true, answerTimeoutMs: 180_000 })
  try {
    const { paintMs, answeredMs } = await startTimes(shell)
    const lists: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now()
      const payload = { accountId: DEMO_ACCOUNT_ID, name: 'domains.list', params: {} }
      const r = await shell.invoke(ipcChannel('store.list'), payload)
      if (!r?.ok) throw new Error('main did not answer the stored list')
      lists.push(performance.now() - t0)
    }
    // The window never asks for the whole list: it asks part after part (src/renderer/src/data/stored-parts.ts).
    const carriages: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now()
      let parts = 1
      for (let part = 0; part < parts; part++) {
        const payload = { accountId: DEMO_ACCOUNT_ID, name: 'domains.list', params: {}, part }
        const answer = storedPartAnswer.safeParse(await shell.invoke(ipcChannel('store.list'), payload))
        if (!answer.success) throw new Error(`main did not answer part ${part} of the stored list`)
        parts = answer.data.value.parts
      }
      carriages.push(performance.now() - t0)
    }
    // The domain list's WHOIS privacy column: the stored flags in parts (src/renderer/src/data/stored-whois-privacy.ts).
    const flags: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now()
      let parts = 1
      for (let part = 0; part < parts; part++) {
        const payload = { accountId: DEMO_ACCOUNT_ID, callId: `bench-flags-${i}-${part}`, from: 'store', part }
        const answer = storedPartAnswer.safeParse(await shell.invoke(ipcChannel('details.whoisPrivacy'), payload))
        if (!answer.success) throw new Error(`main did not answer part ${part} of the stored WHOIS flags`)
        parts = answer.data.value.parts
      }
      flags.push(performance.now() - t0)
    }
    const searches: number[] = []
    for (const query of SEARCHES) {
      const t0 = performance.now()
      await shell.invoke(ipcChannel('store.search'), { query })
      searches.push(performance.now() - t0)
    }
    const memory = await shell.memory()
    return {
      startPaintMs: paintMs,
      servicesMs: answeredMs,
      mainListMs: median(lists),
      mainPartsMs: median(carriages),
      mainFlagsMs: median(flags),
      mainSearchMs: median(searches),
      mainRssMB: memory.rss / 1e6,
      mainHeapMB: memory.heapUsed / 1e6,
    }
  } finally {
    await shell.quit()
  }
}

/**
 * Runs an action in the page and times it until the table shows its result (a table working in
 * slices says so with aria-busy) and the next frame has been drawn.
 */
async function timedInPage(page: Page, fn: string): Promise<number> {
  const ms = await page.evaluate(`(async () => {
    const t0 = performance.now()
    ;(() => { ${fn} })()
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
    await frame()
    for (let i = 0; i < 100000 && document.querySelector('.table-scroll[aria-busy="true"]'); i++) await frame()
    return performance.now() - t0
  })()`)
  if (typeof ms !== 'number') throw new Error('a timed action answered no time')
  return ms
}

/** The stored list's first paint of the page's load: from its data, and from the page loaded. */
async function firstPaint(page: Page): Promise<{ paintMs: number; loadedToPaintMs: number }> {
  const isPainted = () => performance.getEntriesByName('domains:painted').length > 0
  await page.waitForFunction(isPainted, undefined, { timeout: 120_000 })
  return page.evaluate(() => {
    const at = performance.getEntriesByName('domains:painted')[0]!.startTime
    const nav = performance.getEntriesByType('navigation')[0]
    const loaded = nav instanceof PerformanceNavigationTiming ? nav.loadEventEnd : 0
    return { paintMs: at - performance.getEntriesByName('domains:data')[0]!.startTime, loadedToPaintMs: at - loaded }
  })
}

/**
 * Waits for the whole stored list shown (the first paint is of its first part; the whole once its last part came) and
 * nothing busy; answers the time from the page loaded.
 */
async function wholeShown(page: Page, domains: number): Promise<number> {
  const whole = await page.waitForFunction(
    (text) => {
      const shown = Array.from(document.querySelectorAll('.count')).some((e) => e.textContent?.trim() === text)
      const busy = document.querySelector('.table-scroll[aria-busy="true"]')
      if (!shown || busy) return false
      const nav = performance.getEntriesByType('navigation')[0]
      return performance.now() - (nav instanceof PerformanceNavigationTiming ? nav.loadEventEnd : 0)
    },
    `Showing ${domains} of ${domains}`,
    { timeout: 180_000 },
  )
  const ms = await whole.jsonValue()
  if (typeof ms !== 'number') throw new Error(`the window did not show the ${domains} stored domains`)
  return ms
}

/**
 * Whether a call of the window reads the store: asked from the store, or a later part of a list main keeps (part 0 of a
 * list read afresh goes to the service, which never answers here, and is not waited for).
 */
function readsStore(call: WindowCall): boolean {
  const { payload } = call
  if (typeof payload !== 'object' || payload === null) return false
  const part: unknown = Reflect.get(payload, 'part')
  return Reflect.get(payload, 'from') === 'store' || (typeof part === 'number' && part > 0)
}

/** How long the window must have asked nothing new, its reads of the store answered, for main to be taken as done. */
const QUIET_MS = 500

/**
 * Waits (at most a minute) until main has answered every call of the window that reads the store, and the window has
 * asked nothing for QUIET_MS: the detail lists are asked for only once the whole list is shown and the window idle.
 */
async function storeReadsAnswered(harness: Harness): Promise<void> {
  const until = performance.now() + 60_000
  let calls = -1
  let since = performance.now()
  for (;;) {
    const open = harness.windowCalls.filter((c) => readsStore(c) && !c.answered)
    if (harness.windowCalls.length !== calls || open.length > 0) {
      calls = harness.windowCalls.length
      since = performance.now()
    } else if (performance.now() - since >= QUIET_MS) return
    if (performance.now() > until) {
      throw new Error(`main did not answer the window's reads of the store in a minute: ${open.map((c) => c.channel)}`)
    }
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** A browser of its own with the domain list open in it, traced from before the page loads. */
interface ListWindow {
  browser: Browser
  page: Page
}

async function openListWindow(harness: Harness): Promise<ListWindow> {
  const browser = await launchBenchChromium()
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    // Each answer handed to the app in a task after its carriage's: the DevTools protocol's parse of a part's
    // text (up to 60 ms of CPU for 2,000 rows) is then a task apart, the bridge's, which an Electron window never has.
    await installBridge(page, harness, undefined, { answerInOwnTask: true })
    await page.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
    // The window's tasks as Chromium traces them, each with its thread's own CPU time (on a shared
    // machine a task's wall time counts the time its thread waited for a core), from before it loads.
    // Kept for a look (PORTFOLIO_100K_TRACES), with what ran in each task: the timeline's categories cost the
    // figures some of the tracing's own time.
    const categories = process.env.PORTFOLIO_100K_TRACES
      ? SCROLL_TRACE_CATEGORIES
      : ['toplevel', '__metadata', 'blink.user_timing']
    await browser.startTracing(page, { categories })
    await page.goto(`${harness.url}#/domains`)
    return { browser, page }
  } catch (err) {
    await browser.close()
    throw err
  }
}

/**
 * A window's trace, kept as `<domains>-<n>.json` (the n-th window, from 1) in the folder PORTFOLIO_100K_TRACES names,
 * for a look at what its long tasks were (Perfetto opens it; the last window's holds the scroll between its marks).
 */
async function keptTrace(trace: Buffer, domains: number, load: number): Promise<Buffer> {
  const dir = process.env.PORTFOLIO_100K_TRACES
  if (dir) await writeFile(join(dir, `${domains}-${load}.json`), trace)
  return trace
}

/** The window in Chromium on the folder, the service never answering: everything it shows is the store's. */
async function windowFigures(dir: string, domains: number): Promise<WindowFigures> {
  const harness = await startHarness({ userDataDir: dir, keychain: new SessionSecretStore(), demo: { domains: 10 } })
  let shown: ListWindow | undefined
  try {
    ;(await harness.demo()).faults.inject('*', { hang: true })
    // The first paint is one frame of about 15 ms, of which the wait for the display's next frame is anywhere from
    // 0 to 16.7 ms: one window's figure says more about where that frame fell than about the code (17 ms and 30 ms in
    // two runs of one build). The list is opened PAINT_LOADS times, each time in a browser of its own, as the first
    // was: a reload left the last page's 70 MB to the same heap's collector, which then ran in the next page's tasks,
    // and a second page of one browser had its scripts compiled again to make their code cache (a 56 ms task). Its
    // first paint is their median; the rest of the figures are of the last window, the long tasks of them all.
    const paints: { paintMs: number; loadedToPaintMs: number; loadedToWholeMs: number }[] = []
    const traced: LongestPageTasks[] = []
    for (let load = 0; load < PAINT_LOADS; load++) {
      if (shown) {
        // Not before main has answered every read of the store the last window asked: the domain list's detail lists
        // are read after it is shown (2 s of the store's thread at 100,000), and the next list waited behind them.
        await storeReadsAnswered(harness)
        traced.push(longestPageTasks(await keptTrace(await shown.browser.stopTracing(), domains, load)))
        await shown.browser.close()
        shown = undefined
        // The harness keeps each call with main's answer for the tests that look at them: at 100,000 domains a
        // window's list and flags, in this process's heap, which is main's. Not kept past their window.
        harness.windowCalls.length = 0
      }
      shown = await openListWindow(harness)
      const painted = await firstPaint(shown.page)
      paints.push({ ...painted, loadedToWholeMs: await wholeShown(shown.page, domains) })
    }
    if (!shown) throw new Error('the domain list was not opened')
    const { page, browser } = shown
    const filters: number[] = []
    for (const term of FILTER_TERMS) {
      const typed = `const i = document.querySelector('input[type=search]'); i.value = ${JSON.stringify(term)}`
      filters.push(await timedInPage(page, `${typed}; i.dispatchEvent(new Event('input'))`))
    }
    const sorts: number[] = []
    for (const label of SORT_LABELS) {
      const button = `document.querySelector('button[aria-label=${JSON.stringify(label)}]')`
      sorts.push(await timedInPage(page, `${button}.click()`))
    }
    await page.evaluate(
      async ({ step, frames, marks }) => {
        performance.mark(marks.start)
        const body = document.querySelector<HTMLElement>('.table-scroll')!
        for (let i = 0; i < frames && body.scrollTop + body.clientHeight < body.scrollHeight; i++) {
          body.scrollTop += step
          await new Promise((r) => requestAnimationFrame(() => r(undefined)))
        }
        await new Promise((r) => setTimeout(r, 100))
        performance.mark(marks.end)
      },
      { step: SCROLL_PX, frames: SCROLL_FRAMES, marks: { start: SCROLL_START_MARK, end: SCROLL_END_MARK } },
    )
    const lastTrace = await keptTrace(await browser.stopTracing(), domains, PAINT_LOADS)
    const scrolled = longPageTasksBetween(lastTrace, SCROLL_START_MARK, SCROLL_END_MARK, LONG_TASK_MS)
    traced.push(longestPageTasks(lastTrace))
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('HeapProfiler.collectGarbage')
    const heap = await cdp.send('Runtime.getHeapUsage')
    await page.close()
    const windowHeapMB = heap.usedSize / 1e6
    return {
      paintMs: median(paints.map((p) => p.paintMs)),
      loadedToPaintMs: median(paints.map((p) => p.loadedToPaintMs)),
      loadedToWholeMs: median(paints.map((p) => p.loadedToWholeMs)),
      filterMs: median(filters),
      sortMs: median(sorts),
      scrollLong: scrolled.window,
      scrollLongBridge: scrolled.bridge,
      scrollLongByCpu: scrolled.windowByCpu,
      longestTaskMs: Math.max(...traced.map((t) => t.window.wallMs)),
      longestTaskCpuMs: Math.max(...traced.map((t) => t.window.cpuMs)),
      bridgeTaskMs: Math.max(...traced.map((t) => t.bridge.wallMs)),
      bridgeTaskCpuMs: Math.max(...traced.map((t) => t.bridge.cpuMs)),
      windowHeapMB,
    }
  } finally {
    await shown?.browser.close()
    await harness.close()
  }
}

type RefreshFigures = Pick<
  Figures,
  'refreshMs' | 'refreshRequests' | 'refreshRefused' | 'refreshFailed' | 'refreshPacedMs' | 'refreshPacedRequests'
>

/**
 * A full refresh of an account of `domains` from a sandbox under the scaled rate limit, into a
 * store in its worker, with a client and pacer as the app makes an account's.
 */
async function refreshFigures(domains: number): Promise<RefreshFigures> {
  const sb = await startRemoteSandbox({ domains, latencyMs: LATENCY_MS, service: { rateLimit: RATE_LIMIT } })
  const dir = await mkdtemp(join(tmpdir(), `portfolio-100k-refresh-${domains}-`))
  const store = await openStoreInWorker(portfolioFileOf(dir))
  try {
    const run = await refreshOne(sb, store, DEMO_ACCOUNT_ID, { firstBackoffMs: FIRST_BACKOFF_MS })
    return {
      refreshMs: run.elapsedMs,
      refreshRequests: run.answered,
      refreshRefused: run.refused,
      refreshFailed: run.failed,
      refreshPacedMs: run.paced?.ms ?? Number.NaN,
      refreshPacedRequests: run.paced?.answered ?? Number.NaN,
    }
  } finally {
    await store.close()
    await sb.close()
    await rm(dir, { recursive: true, force: true })
  }
}

/** The refresh beside its bound: the time its answered requests take at the key's rate. */
const refreshRatio = (f: Figures) => f.refreshMs / ((f.refreshRequests / PER_SECOND) * 1000)
/**
 * The same of the refresh after its first block. The first window's quota goes at once, and the
 * block after it lasts the same in both cases: a fixed part that beats the bound (the 10,000
 * case's whole refresh is under 1x) and makes the ratio of the two refreshes' times larger than
 * that of their requests. Beside its bound, the rest says whether the pace holds as the account grows.
 */
const pacedRatio = (f: Figures) => f.refreshPacedMs / ((f.refreshPacedRequests / PER_SECOND) * 1000)

/** The parts left out when their figures are not being looked at (PORTFOLIO_100K_SKIP=window,refresh): NaN. */
const NO_WINDOW: WindowFigures = {
  paintMs: Number.NaN,
  loadedToPaintMs: Number.NaN,
  loadedToWholeMs: Number.NaN,
  filterMs: Number.NaN,
  sortMs: Number.NaN,
  scrollLong: Number.NaN,
  scrollLongBridge: Number.NaN,
  scrollLongByCpu: Number.NaN,
  longestTaskMs: Number.NaN,
  longestTaskCpuMs: Number.NaN,
  bridgeTaskMs: Number.NaN,
  bridgeTaskCpuMs: Number.NaN,
  windowHeapMB: Number.NaN,
}
const NO_REFRESH: RefreshFigures = {
  refreshMs: Number.NaN,
  refreshRequests: Number.NaN,
  refreshRefused: Number.NaN,
  refreshFailed: Number.NaN,
  refreshPacedMs: Number.NaN,
  refreshPacedRequests: Number.NaN,
}

export async function benchPortfolio100k(): Promise<BenchResult> {
  // The window and the refresh take most of the bench's ten minutes: left out, the store's and
  // main's figures come in a few (the store fills the folder the others read, so it always runs).
  const skip = new Set((process.env.PORTFOLIO_100K_SKIP ?? '').split(',').filter(Boolean))
  const others = accountLists({ seed: 21, domains: SMALL })
  const results: Figures[] = []
  for (const [n, domains] of [SMALL, LARGE].entries()) {
    const dir = await mkdtemp(join(tmpdir(), `portfolio-100k-${domains}-`))
    try {
      const store = await storeFigures(dir, others, () => accountLists({ seed: 31 + n, domains }))
      const main = await mainFigures(dir)
      const shown = skip.has('window') ? NO_WINDOW : await windowFigures(dir, domains)
      const refresh = skip.has('refresh') ? NO_REFRESH : await refreshFigures(domains)
      results.push({ ...store, ...main, ...shown, ...refresh })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }
  const [small, large] = results
  if (!small || !large) throw new Error('a case did not run')
  let ok = true
  /** A line: the large case's figure, its target, its ratio to the small case's. */
  type Target = { max?: number; growth?: number }
  const line = (label: string, pick: (f: Figures) => number, unit: string, target: Target) => {
    const v = pick(large)
    const ratio = pick(small) > 0 ? v / pick(small) : Number.NaN
    const maxMet = target.max === undefined || v <= target.max
    const growthMet = target.growth === undefined || ratio <= target.growth
    ok &&= maxMet && growthMet
    const targets = [
      target.max !== undefined ? `<= ${target.max} ${unit}` : '',
      target.growth !== undefined ? `ratio <= ${target.growth}x` : '',
    ]
    const digits = unit === 'MB' ? 1 : unit === 'x' ? 2 : 0
    const beside = `${SMALL}: ${pick(small).toFixed(digits)} ${unit}, ratio ${ratio.toFixed(2)}x`
    const named = targets.filter(Boolean).join(', ')
    return `${label}: ${v.toFixed(digits)} ${unit}  (${named ? `target ${named}; ` : ''}${beside})`
  }
  const G = { growth: GROWTH_TARGET }
  return {
    name:
      `${LARGE} domains in one account (beside ${OTHER_ACCOUNTS} of ${SMALL}), against the same at ${SMALL}` +
      (skip.size > 0 ? ` (left out: ${[...skip].join(', ')})` : ''),
    lines: [
      line('store: the account filled', (f) => f.fillMs, 'ms', G),
      line('store: longest single write', (f) => f.longestWriteMs, 'ms', G),
      line('store: reopened', (f) => f.reopenMs, 'ms', G),
      line('store: domain list read back (median of 5)', (f) => f.readMs, 'ms', G),
      // Not held: read back to back, the 10,000-item reads leave their collections to after the five, the 100,000-item
      // ones pay theirs within them; from a collected heap each read pays for what it allocates itself.
      line('  the same, each read from a collected heap (median of 5)', (f) => f.readCollectedMs, 'ms', {}),
      line("store: the palette's search (median of 4)", (f) => f.searchMs, 'ms', G),
      line('store: file size', (f) => f.fileMB, 'MB', G),
      line('instant start: app ready -> first paint', (f) => f.startPaintMs, 'ms', { max: START_PAINT_MS }),
      line('  services answered the first call', (f) => f.servicesMs, 'ms', G),
      line('main: the stored list carried in parts, as the window asks (median of 5)', (f) => f.mainPartsMs, 'ms', G),
      line('main: the stored WHOIS privacy flags carried in parts (median of 5)', (f) => f.mainFlagsMs, 'ms', G),
      // No caller asks for the whole list since the window carries it in parts: printed as before, not held.
      line('main: the stored list answered whole, no caller asks so (median of 5)', (f) => f.mainListMs, 'ms', {}),
      line("main: the palette's search answered (median of 4)", (f) => f.mainSearchMs, 'ms', G),
      line('main: memory (rss)', (f) => f.mainRssMB, 'MB', G),
      line('main: JS heap', (f) => f.mainHeapMB, 'MB', G),
      line(`window: data -> first paint (median of ${PAINT_LOADS} loads)`, (f) => f.paintMs, 'ms', { growth: 1.3 }),
      line(
        `window: loaded -> stored list painted (test bridge, median of ${PAINT_LOADS})`,
        (f) => f.loadedToPaintMs,
        'ms',
        G,
      ),
      line(
        `window: loaded -> whole stored list shown (test bridge, median of ${PAINT_LOADS})`,
        (f) => f.loadedToWholeMs,
        'ms',
        G,
      ),
      line('window: filter (median of 5)', (f) => f.filterMs, 'ms', G),
      line('window: sort (median of 4)', (f) => f.sortMs, 'ms', G),
      line(`window: tasks over ${LONG_TASK_MS} ms scrolling ${SCROLL_FRAMES} frames`, (f) => f.scrollLong, 'tasks', {
        max: 0,
      }),
      line(
        '  of the test bridge carrying an answer (DevTools, not Electron: apart)',
        (f) => f.scrollLongBridge,
        'tasks',
        {},
      ),
      line(
        `  the window's own over ${LONG_TASK_MS} ms of its thread's CPU time (the machine's load left out)`,
        (f) => f.scrollLongByCpu,
        'tasks',
        {},
      ),
      line('window: longest task on its main thread, start to end', (f) => f.longestTaskMs, 'ms', {
        max: LONG_TASK_MS,
      }),
      line("  the same by its thread's CPU time (the machine's load left out)", (f) => f.longestTaskCpuMs, 'ms', {
        max: LONG_TASK_MS,
      }),
      line("  the test bridge's longest carriage of an answer (apart), start to end", (f) => f.bridgeTaskMs, 'ms', {}),
      line('    by CPU time', (f) => f.bridgeTaskCpuMs, 'ms', {}),
      line('window: JS heap', (f) => f.windowHeapMB, 'MB', G),
      `refresh under the live rate limit's shape: window ${RATE_LIMIT.windowMs} ms, block ${RATE_LIMIT.blockMs} ms, ` +
        `${RATE_LIMIT.limit} a window (${PER_SECOND} requests/s), latency ${LATENCY_MS} ms`,
      // Not held to the growth target: the first window's quota goes at once in both cases, a fixed
      // free part that is a third of the 10,000 case's requests and a thirtieth of this one's, so
      // the whole times grow faster than the requests however well the pace holds. The pace's own
      // growth is the last figure below.
      line('refresh: the whole account read and kept', (f) => f.refreshMs, 'ms', {}),
      line('  requests answered', (f) => f.refreshRequests, 'requests', G),
      line('  requests refused (429)', (f) => f.refreshRefused, 'requests', {}),
      line('  lists failed', (f) => f.refreshFailed, 'lists', { max: 0 }),
      line('  time / (requests / rate)', refreshRatio, 'x', { max: REFRESH_TARGET }),
      line('  after its first block (at the learned pace)', (f) => f.refreshPacedMs, 'ms', {}),
      line('    requests answered after it', (f) => f.refreshPacedRequests, 'requests', {}),
      line('    its time / (its requests / rate): the pace held as the account grew', pacedRatio, 'x', {
        max: REFRESH_TARGET,
        growth: PACE_GROWTH_TARGET,
      }),
      `  at the live rate: ${((large.refreshRequests * LIVE_RATE_LIMIT.windowMs) / LIVE_RATE_LIMIT.limit / 3_600_000).toFixed(1)} h of requests for ${LARGE} domains`,
    ],
    ok,
  }
}
