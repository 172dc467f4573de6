/**
 * Which functions V8 compiles between `domains:data` and `domains:painted` (issue 54 point 1): the
 * app's domain list opened as bench/first-paint-wait.ts opens it and the bare table beside it, round
 * by round, each Maglev or TurboFan job (on-stack or not) with its function's name and place in its
 * script, and each deoptimisation. first-paint-wait.ts says how much CPU V8's compile tasks took
 * beside the main thread; its trace does not name their functions, V8's own log does.
 * `npx tsx bench/first-paint-compiles.ts [rounds]` after a build.
 *
 * Chromium runs with V8's --trace-opt and --trace-deopt, whose lines go to the renderer's standard
 * output (a file here: Chromium is started through a script that sends its output there), and with
 * --log-code into a folder of this run's (each code object's function, name and script:line:column,
 * by its shared function info, the address --trace-opt prints). The page's performance marks are
 * printed into the same output by %DebugPrint (--allow-natives-syntax), so the lines between the two
 * marks are the compiles of that span; a function named after the round, compiled in each page, tells
 * which process's log is whose. The times are V8's ("took": the job's phases by the clock, the middle
 * one on the compile thread, so on a loaded machine they include waiting for a core).
 */
import { chmod, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { CHROMIUM_PATH } from '../playwright.config'
import { installBridge, startHarness } from '../support/harness'
import { SessionSecretStore } from '../src/main/accounts/secret-store'
import { bareAfterApp } from './domain-list-window'
import { showBare } from './domain-list-baseline'
import { launchBenchChromium } from './bench-chromium'
import { WINDOW_JS_FLAGS } from '../src/main/shell/window-v8'

const DOMAINS = 10_000
const ROUNDS = Number(process.argv[2] ?? 3)
const MARK_PREFIX = 'FIRST-PAINT-COMPILES'

/** Prints each performance mark into the renderer's output, and names the page's process's log. In the page. */
function printMarks({ prefix, tag }: { prefix: string; tag: string }) {
  // Functions made at run time: %DebugPrint is V8 syntax, which the bench's TypeScript cannot hold.
  const print = new Function('s', '%DebugPrint(s)')
  const named: unknown = Reflect.apply(
    new Function(`return function ${prefix.replaceAll('-', '_')}_${tag}() {}`),
    null,
    [],
  )
  if (typeof named === 'function') Reflect.apply(named, null, [])
  const mark = performance.mark.bind(performance)
  performance.mark = (name, options) => {
    Reflect.apply(print, null, [`${prefix} ${name}`])
    return mark(name, options)
  }
}

interface Job {
  kind: 'compile' | 'deopt'
  /** MAGLEV or TURBOFAN_JS, " OSR" when compiled on the stack; a deoptimisation: the code's tier. */
  tier: string
  /** The job's phases by the clock, ms: on the main thread (prepare and finalise) and on a compile thread. */
  mainMs: number
  threadMs: number
  fn: string
  detail: string
}

interface Span {
  side: 'app' | 'bare'
  round: number
  jobs: Job[]
}

const COMPILED =
  /\[completed compiling 0x[0-9a-f]+ <JSFunction ?.*? \(sfi = (0x[0-9a-f]+)\)> \(target (\w+)\)( OSR)? - took ([\d.]+), ([\d.]+), ([\d.]+) ms\]/
const DEOPT =
  /reason: (.*?)\): begin\. deoptimizing 0x[0-9a-f]+ <JSFunction ?.*? \(sfi = (0x[0-9a-f]+)\)>, 0x[0-9a-f]+ <Code (\w+)>.*?bytecode offset (\d+)/

/** Each log's functions by shared function info (untagged address), keyed by the round's tag found in it. */
async function functionsByTag(dir: string): Promise<Map<string, Map<bigint, string>>> {
  const byTag = new Map<string, Map<bigint, string>>()
  const tagOf = new RegExp(`${MARK_PREFIX.replaceAll('-', '_')}_(\\w+?_\\d+)`)
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.log'))) {
    const functions = new Map<bigint, string>()
    let tag: string | undefined
    for (const line of (await readFile(join(dir, file), 'latin1')).split('\n')) {
      if (tag === undefined && line.startsWith('function,')) tag = tagOf.exec(line)?.[1]
      if (!line.startsWith('code-creation,JS,')) continue
      // code-creation,JS,<kind>,<time>,<address>,<size>,<name and place>,<sfi>,<tier mark>
      const parts = line.split(',')
      const sfi = parts.at(-2)
      if (sfi?.startsWith('0x')) functions.set(BigInt(sfi), parts.slice(6, -2).join(','))
    }
    if (tag !== undefined) byTag.set(tag, functions)
  }
  return byTag
}

/** The compiles and deoptimisations between each page's two marks. */
function spansOf(output: string, byTag: Map<string, Map<bigint, string>>): Span[] {
  const spans: Span[] = []
  let current: { span: Span; functions: Map<bigint, string> } | undefined
  /** Where the page is: before its first `domains:data`, between it and `domains:painted`, or past them. */
  let at: 'before' | 'between' | 'after' = 'after'
  const place = (sfi: string) => {
    const named = current?.functions.get(BigInt(sfi) - 1n) ?? '?'
    // The script's address less its origin: the bundle's file name and line:column are what tell the function.
    return named.replace(/https?:\/\/[^/]+\/(?:assets\/)?/, '')
  }
  const marked = new RegExp(`${MARK_PREFIX} (\\S+?)"`)
  for (const line of output.split('\n')) {
    const mark = marked.exec(line)?.[1]
    if (mark !== undefined) {
      const start = /^start-(app|bare)-(\d+)$/.exec(mark)
      if (start) {
        const span: Span = { side: start[1] === 'app' ? 'app' : 'bare', round: Number(start[2]), jobs: [] }
        spans.push(span)
        current = { span, functions: byTag.get(`${span.side}_${span.round}`) ?? new Map<bigint, string>() }
        at = 'before'
      } else if (mark === 'domains:data' && at === 'before') at = 'between'
      else if (mark === 'domains:painted' && at === 'between') at = 'after'
      continue
    }
    if (!current || at !== 'between') continue
    const c = COMPILED.exec(line)
    if (c) {
      current.span.jobs.push({
        kind: 'compile',
        tier: `${c[2]}${c[3] ?? ''}`,
        mainMs: Number(c[4]) + Number(c[6]),
        threadMs: Number(c[5]),
        fn: place(c[1]!),
        detail: '',
      })
      continue
    }
    const d = DEOPT.exec(line)
    if (d)
      current.span.jobs.push({
        kind: 'deopt',
        tier: d[3]!,
        mainMs: 0,
        threadMs: 0,
        fn: place(d[2]!),
        detail: `at bytecode ${d[4]}: ${d[1]}`,
      })
  }
  return spans
}

async function openApp(page: Page, url: string, round: number): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('hosting-admin.locale', 'en'))
  await page.addInitScript(printMarks, { prefix: MARK_PREFIX, tag: `app_${round}` })
  await page.goto(`${url}#/accounts`)
  await page.getByRole('heading', { level: 1 }).waitFor()
  await page.evaluate((round) => performance.mark(`start-app-${round}`), round)
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'first-paint-compiles-'))
  const output = join(dir, 'renderer-output.txt')
  const launcher = join(dir, 'chromium')
  await writeFile(launcher, `#!/bin/sh\nexec '${CHROMIUM_PATH}' "$@" >>'${output}' 2>/dev/null\n`)
  await chmod(launcher, 0o755)
  const harness = await startHarness({ keychain: new SessionSecretStore(), demo: { domains: DOMAINS } })
  const browser = await launchBenchChromium({
    executablePath: launcher,
    extraArgs: [
      // One --js-flags switch holds them all (Chromium keeps the last): the window's own with the tracing's.
      `--js-flags=${WINDOW_JS_FLAGS} --trace-opt --trace-deopt --allow-natives-syntax --log-code --log-function-events --logfile=${join(dir, 'v8-%p.log')}`,
    ],
  })
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await installBridge(page, harness)
      await openApp(page, harness.url, round)
      await page.goto(`${harness.url}#/domains`)
      await page.waitForFunction(() => performance.getEntriesByName('domains:painted').length > 0, undefined, {
        timeout: 120_000,
      })
      const rows = await page.evaluate(() =>
        document.querySelector('.table-scroll table')?.getAttribute('aria-rowcount'),
      )
      console.log(`app round ${round}: ${Number(rows) - 1} rows at the first paint, load ${loadavg()[0]!.toFixed(2)}`)
      const { bare, labels, rows: bareRows } = await bareAfterApp(browser, harness, page, DOMAINS)
      await bare.evaluate(printMarks, { prefix: MARK_PREFIX, tag: `bare_${round}` })
      await bare.evaluate((round) => performance.mark(`start-bare-${round}`), round)
      await showBare(bare, labels, bareRows)
      await bare.close()
    }
  } finally {
    await browser.close()
    await harness.close()
  }
  const spans = spansOf(await readFile(output, 'latin1'), await functionsByTag(dir))
  for (const span of spans) {
    const compiles = span.jobs.filter((j) => j.kind === 'compile')
    const total = (tier: string) =>
      compiles
        .filter((j) => j.tier.startsWith(tier))
        .reduce((s, j) => s + j.threadMs, 0)
        .toFixed(1)
    console.log(
      `${span.side} round ${span.round}: ${compiles.length} compiles between the marks, on the compile threads ` +
        `Maglev ${total('MAGLEV')} ms, TurboFan ${total('TURBOFAN')} ms (by the clock)`,
    )
    for (const j of [...span.jobs].sort((a, b) => b.threadMs - a.threadMs))
      console.log(
        `  ${j.kind === 'compile' ? j.threadMs.toFixed(2).padStart(6) : 'deopt '.padStart(6)} ${j.tier.padEnd(15)} ${j.fn} ${j.detail}`,
      )
  }
  await rm(dir, { recursive: true, force: true })
}

void main()
