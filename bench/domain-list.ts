/**
 * The domain list with 10,000 rows in real Chromium: time from data to first paint,
 * filter and sort times, and the longest task while scrolling.
 * Targets (issue 40): first paint <= 100 ms, filter/sort median <= 30 ms, no task over 50 ms while
 * scrolling 600 px a frame with the detail columns loading, painted from the store <= 300 ms after load.
 */
import { chromium } from '@playwright/test'
import { installBridge, startHarness } from '../support/harness'
import { SessionSecretStore } from '../src/main/accounts/secret-store'
import { CHROMIUM_PATH } from '../playwright.config'
import type { BenchResult } from './report'
import { median } from './stats'

const DOMAINS = 10_000
/** How far each frame scrolls (issue 40: a fast scroll of a walkthrough, 600 px a frame). */
const SCROLL_PX = 600
const FIRST_PAINT_MS = 100
const FILTER_SORT_MS = 30
const LONG_TASK_MS = 50
const FROM_STORE_MS = 300

export async function benchDomainList(): Promise<BenchResult> {
  const harness = await startHarness({ keychain: new SessionSecretStore(), demo: { domains: DOMAINS } })
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await installBridge(page, harness)
    // When each answer of over 0.5 MB (a detail list: 0.8 to 1 MB; the WHOIS privacy flags 0.5 MB, the whole WHOIS list 10 MB before issue 40) reached the page: a
    // long task holding that moment is that answer's arrival, whose JSON text the test bridge
    // parses there (Electron's IPC would carry it another way), told apart in the scrolling line.
    await page.addInitScript(() => {
      const invoke = window.__haInvoke
      const arrivals: number[] = []
      Reflect.set(window, '__benchArrivals', arrivals)
      window.__haInvoke = async (channel, payload) => {
        const answer = await invoke(channel, payload)
        if (answer.length > 500_000) arrivals.push(performance.now())
        return answer
      }
    })
    await page.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
    await page.goto(`${harness.url}#/accounts`)
    await page.getByRole('heading', { level: 1 }).waitFor()
    await page.goto(`${harness.url}#/domains`)
    await page.waitForFunction(() => performance.getEntriesByName('domains:painted').length > 0, undefined, { timeout: 120_000 })
    const firstPaint = await page.evaluate(() => {
      const data = performance.getEntriesByName('domains:data')[0]!.startTime
      return performance.getEntriesByName('domains:painted')[0]!.startTime - data
    })
    // Long tasks while scrolling the whole list top to bottom, 600 px a frame, started at the
    // first paint: the detail columns (nameservers, lock, WHOIS privacy, DNSSEC) load meanwhile,
    // as they do when a user scrolls at once.
    const detailsStart = Date.now()
    const longTasks = await page.evaluate(async ({ step, maxFrames }) => {
      const tasks: { start: number; duration: number }[] = []
      const obs = new PerformanceObserver((list) => list.getEntries().forEach((e) => tasks.push({ start: e.startTime, duration: e.duration })))
      obs.observe({ type: 'longtask', buffered: false })
      const body = document.querySelector<HTMLElement>('.table-scroll')!
      const detailsLoading = document.querySelector('.read-status') !== null
      for (let i = 0; i < maxFrames && body.scrollTop + body.clientHeight < body.scrollHeight; i++) {
        body.scrollTop += step
        await new Promise((r) => requestAnimationFrame(() => r(undefined)))
      }
      await new Promise((r) => setTimeout(r, 100))
      obs.disconnect()
      const arrivals: unknown = Reflect.get(window, '__benchArrivals')
      const arrivedAt = Array.isArray(arrivals) ? arrivals.filter((t): t is number => typeof t === 'number') : []
      const long = tasks.filter((t) => t.duration > 50)
      return {
        count: long.length,
        withArrival: long.filter((t) => arrivedAt.some((a) => a >= t.start && a <= t.start + t.duration)).length,
        max: tasks.length ? Math.max(...tasks.map((t) => t.duration)) : 0,
        reachedEnd: body.scrollTop + body.clientHeight >= body.scrollHeight - 2,
        detailsLoading,
      }
    }, { step: SCROLL_PX, maxFrames: Math.ceil((DOMAINS * 40) / SCROLL_PX) })
    if (!longTasks.reachedEnd) throw new Error('scrolling did not reach the end of the list')
    // The interactions below are measured once the detail columns are in, on the full table.
    await page.waitForFunction(() => !document.querySelector('.read-status'), undefined, { timeout: 120_000 })
    const detailsMs = Date.now() - detailsStart
    const rows = await page.getByText(`Showing ${DOMAINS} of ${DOMAINS}`).count()
    if (rows !== 1) throw new Error('the list did not load all 10,000 domains')

    /** Runs an action in the page and times it until the next frame has been drawn. */
    // The action is page code written as text; the whole timing runs in the page as one
    // expression, whose answer is checked to be a number.
    const timed = async (fn: string): Promise<number> => {
      const ms = await page.evaluate(`(async () => {
        const t0 = performance.now()
        ;(() => { ${fn} })()
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
        return performance.now() - t0
      })()`)
      if (typeof ms !== 'number') throw new Error('a timed action answered no time')
      return ms
    }

    const filterTimes: number[] = []
    for (const term of ['aurora', 'ze', 'jade.com', 'x', '']) {
      filterTimes.push(
        await timed(`const i = document.querySelector('input[type=search]'); i.value = ${JSON.stringify(term)}; i.dispatchEvent(new Event('input'))`),
      )
    }
    const sortTimes: number[] = []
    // By the nameservers, not the registrar: a table narrower than 1200 px shows no registrar column (issue 39).
    for (const label of ['Sort by Expiration date', 'Sort by Expiration date', 'Sort by Nameservers', 'Sort by Domain', 'Sort by Domain']) {
      sortTimes.push(await timed(`document.querySelector('button[aria-label=${JSON.stringify(label)}]').click()`))
    }

    // Instant start: the app opened again on the domain list, with the service slowed to 2 s a
    // request, paints the 10,000 rows from the portfolio store. Time since the page began loading.
    const sb = await harness.demo()
    sb.faults.inject('*', { latencyMs: 2000 })
    await page.goto(`${harness.url}#/domains`)
    await page.reload()
    await page.waitForFunction(() => performance.getEntriesByName('domains:painted').length > 0, undefined, { timeout: 30_000 })
    const paintedAt = await page.evaluate(() => {
      const painted = performance.getEntriesByName('domains:painted')[0]!.startTime
      const nav = performance.getEntriesByType('navigation')[0]
      const loaded = nav instanceof PerformanceNavigationTiming ? nav.loadEventEnd : 0
      return { sinceStart: painted, sinceLoad: painted - loaded }
    })
    sb.faults.clear()
    // What the test bridge adds: the stored list's round trip from the page, less main's own
    // time for it, against the V8 serialisation Electron's IPC uses for the same answer. Measured
    // once the reload's detail lists are all in: asked while the page and main still take them
    // in, the round trip waits behind that work (seconds on a busy machine), which is not the
    // bridge's cost but was reported as such before.
    await page.waitForFunction(() => !document.querySelector('.read-status'), undefined, { timeout: 120_000 })
    let mainMs = 0
    const dispatch = harness.router.dispatch.bind(harness.router)
    harness.router.dispatch = async (channel, payload, sender) => {
      const t0 = performance.now()
      const r = await dispatch(channel, payload, sender)
      if (channel === 'store.list') mainMs = performance.now() - t0
      return r
    }
    // Asked through the page's own API (as at every commit --against may measure).
    const bridge = await page.evaluate(async () => {
      const api = window.api
      // An older window.api (208016f) has no flat invoke: no bridge figure there.
      if (typeof api.invoke !== 'function') return undefined
      // The raw transport answers unknown: the active account's id is read with checks.
      const accounts: unknown = await api.invoke('accounts.list', {})
      const value: unknown = typeof accounts === 'object' && accounts !== null && 'ok' in accounts && accounts.ok === true && 'value' in accounts ? accounts.value : undefined
      const activeId: unknown = typeof value === 'object' && value !== null && 'activeId' in value ? value.activeId : undefined
      if (typeof activeId !== 'string') throw new Error('no accounts')
      const t0 = performance.now()
      const r = await api.invoke('store.list', { accountId: activeId, name: 'domains.list', params: {} })
      const roundTrip = performance.now() - t0
      const t1 = performance.now()
      structuredClone(r)
      // The answer's size as the bridge carries it: what would grow if the stored list did.
      return { roundTrip, clone: performance.now() - t1, jsonChars: JSON.stringify(r).length }
    })
    harness.router.dispatch = dispatch
    const bridgeShare = bridge ? Math.max(0, bridge.roundTrip - mainMs) : 0

    const f = median(filterTimes)
    const s = median(sortTimes)
    return {
      name: `domain list, ${DOMAINS} rows, in Chromium`,
      lines: [
        `data -> first paint:          ${firstPaint.toFixed(1)} ms  (target <= ${FIRST_PAINT_MS} ms)`,
        `detail columns loaded:        ${detailsMs} ms after the first paint (4 account-wide lists of ${DOMAINS})`,
        `filter (median of 5, max):    ${f.toFixed(1)} ms, ${Math.max(...filterTimes).toFixed(1)} ms  (target: median <= ${FILTER_SORT_MS} ms)`,
        `sort (median of 5, max):      ${s.toFixed(1)} ms, ${Math.max(...sortTimes).toFixed(1)} ms  (target: median <= ${FILTER_SORT_MS} ms)`,
        `scrolling, ${SCROLL_PX} px a frame:  ${longTasks.count} tasks over ${LONG_TASK_MS} ms (${longTasks.withArrival} of them holding a detail list's arrival through the test bridge), longest ${longTasks.max.toFixed(1)} ms, detail columns ${longTasks.detailsLoading ? 'loading' : 'already in'} when it began  (target: none)`,
        `painted from the store:       ${paintedAt.sinceLoad.toFixed(0)} ms after the window loaded (${paintedAt.sinceStart.toFixed(0)} ms after it began loading), service at 2 s a request  (target <= ${FROM_STORE_MS} ms)`,
        bridge
          ? `  of which the test bridge:   ${bridgeShare.toFixed(0)} ms carrying the stored list of ${(bridge.jsonChars / 1e6).toFixed(2)} MB as JSON, on an idle page (main's own answer: ${mainMs.toFixed(0)} ms, from its parsed copy of the list, made after the last write as at every start; V8 serialisation as Electron's IPC does it: ${bridge.clone.toFixed(0)} ms)`
          : `  of which the test bridge:   not measured (this commit's window.api has no flat invoke)`,
      ],
      ok: firstPaint <= FIRST_PAINT_MS && f <= FILTER_SORT_MS && s <= FILTER_SORT_MS && longTasks.count === 0 && paintedAt.sinceLoad <= FROM_STORE_MS,
    }
  } finally {
    await browser.close()
    await harness.close()
  }
}
