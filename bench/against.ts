/**
 * `npm run bench -- <name> --against <commit>`: the same bench on this checkout and on another
 * commit, alternately, round after round on the same machine, each figure side by side with
 * the ratio. A slow-down that one run on a noisy machine would hide shows as a ratio over 1.
 *
 * The other commit is checked out into a temporary git worktree under the system's temporary
 * folder and built there. The measuring code is this checkout's bench/ folder, copied over the
 * other tree's, so both sides are measured in one way; the app (src, tests/e2e/harness,
 * tests/helpers) is the other commit's own. Its dependencies: a symlink to this checkout's
 * node_modules when its package-lock.json is the same as this one's (or when --link-modules
 * asks for it, at the risk of measuring it with this commit's libraries); otherwise
 * `npm ci --ignore-scripts --prefer-offline` with ELECTRON_SKIP_BINARY_DOWNLOAD=1: no install
 * script runs, so keytar's native module is not built (no bench uses the real keychain) and
 * libsql takes its prebuilt platform package as always. The worktree is removed at the end,
 * also when a step fails or the run is interrupted.
 */
import { spawn } from 'node:child_process'
import { access, cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, posix } from 'node:path'
import { median } from './stats'

export class BenchArgsError extends Error {}

export interface BenchArgs {
  /** The one bench to run; every bench when not given (not allowed with --against). */
  name?: string
  /** The commit to compare with. */
  against?: string
  /** The commit measured as "this" instead of the checkout (for bisecting between two commits). */
  base?: string
  rounds: number
  linkModules: boolean
  /** Where a single run writes its result as JSON (how the comparison reads each side). */
  jsonOut?: string
}

export const DEFAULT_ROUNDS = 3
const MIN_ROUNDS = 3
const MAX_ROUNDS = 20

/** `<name> [--against <commit>] [--base <commit>] [--rounds <n>] [--link-modules] [--json <file>]`. */
export function parseBenchArgs(argv: readonly string[], known: readonly string[]): BenchArgs {
  const args: BenchArgs = { rounds: DEFAULT_ROUNDS, linkModules: false }
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1]
    if (v === undefined || v.startsWith('--')) throw new BenchArgsError(`${flag} needs a value`)
    return v
  }
  let roundsGiven = false
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--against') args.against = value(i++, a)
    else if (a === '--base') args.base = value(i++, a)
    else if (a === '--json') args.jsonOut = value(i++, a)
    else if (a === '--link-modules') args.linkModules = true
    else if (a === '--rounds') {
      const n = Number(value(i++, a))
      if (!Number.isInteger(n) || n < MIN_ROUNDS || n > MAX_ROUNDS)
        throw new BenchArgsError(`--rounds takes a whole number from ${MIN_ROUNDS} to ${MAX_ROUNDS}`)
      args.rounds = n
      roundsGiven = true
    } else if (a.startsWith('--')) throw new BenchArgsError(`unknown option ${a}`)
    else if (args.name === undefined) {
      if (!known.includes(a)) throw new BenchArgsError(`no bench named ${a} (one of: ${known.join(', ')})`)
      args.name = a
    } else throw new BenchArgsError(`one bench at a time (${args.name}, then ${a})`)
  }
  for (const c of [args.against, args.base]) {
    // A revision git can name, never an option smuggled into git's argv.
    if (c !== undefined && !/^[\w./~^@{}-]+$/.test(c)) throw new BenchArgsError(`not a commit: ${c}`)
  }
  if (args.against === undefined && (args.base !== undefined || roundsGiven || args.linkModules)) {
    throw new BenchArgsError('--base, --rounds and --link-modules go with --against')
  }
  if (args.against !== undefined && args.name === undefined)
    throw new BenchArgsError('--against compares one bench: name it')
  return args
}

/** One figure a bench prints: a line's label and the first number after it. */
export interface Figure {
  label: string
  value: number
  unit: string
  /** What the line says the target is, as printed ("target <= 100 ms"). */
  target?: string
}

/** A number on its own, not one inside a word ("p99", "ipv6"), and its unit. */
const NUMBER = '(?<![\\w.])(-?\\d+(?:\\.\\d+)?)\\s*(ms|s|x|×|KB|MB|%|)'
/** A number right at the start of a text, after white space. */
const NUMBER_FIRST = new RegExp(`^\\s*${NUMBER}`)
/** A line's worst case, said after its first figure: "…, max 24 ms", "…, longest 210.0 ms". */
const WORST = new RegExp(`\\b(max|longest) ${NUMBER}`)

/**
 * The figures of a bench's printed lines: "label:   12.3 ms ... (target <= 30 ms)", and its
 * worst case as a figure of its own ("label, max") where the line says one: a p99 and its max
 * are both targets of the event-loop line.
 */
export function figuresOf(lines: readonly string[]): Figure[] {
  const figures: Figure[] = []
  const seen = new Map<string, number>()
  for (const line of lines) {
    const depth = (at: number) => [...line.slice(0, at)].reduce((d, c) => d + (c === '(' ? 1 : c === ')' ? -1 : 0), 0)
    // A label ends at a colon outside parentheses ("... (as before: 43 ms)" is a figure's aside): the
    // first one a number follows at once, else the first ("window: tasks over 50 ms scrolling 1000
    // frames: 0 tasks" is the figure 0, its label's numbers the label's).
    const colons = [...line.matchAll(/:/g)].map((c) => c.index).filter((at) => depth(at) === 0)
    const first = colons.find((at) => NUMBER_FIRST.test(line.slice(at + 1))) ?? colons[0] ?? -1
    if (first <= 0) continue
    // The figure is the first number after that colon outside parentheses (the 3 of "a
    // keystroke (max of 3): 3.0 ms" is the label's), else the first one; the label runs to the
    // last colon before it.
    const numbers = [...line.slice(first + 1).matchAll(new RegExp(NUMBER, 'g'))].map((match) => ({
      at: first + 1 + match.index,
      match,
    }))
    const figure = numbers.find((x) => depth(x.at) === 0) ?? numbers[0]
    if (!figure) continue
    let label = line.slice(0, line.lastIndexOf(':', figure.at)).trim()
    const n = (seen.get(label) ?? 0) + 1
    seen.set(label, n)
    if (n > 1) label = `${label} (${n})`
    const target = /\(target:? ([^)]*)\)/.exec(line)?.[1]
    figures.push({ label, value: Number(figure.match[1]), unit: figure.match[2] ?? '', ...(target ? { target } : {}) })
    const worst = WORST.exec(line.slice(figure.at + figure.match[0].length))
    if (worst) figures.push({ label: `${label}, ${worst[1]}`, value: Number(worst[2]), unit: worst[3] ?? '' })
  }
  return figures
}

export interface SideResult {
  name: string
  lines: string[]
  ok: boolean
}

/** How the comparison runs commands and touches files: the real one spawns; a test's records. */
export interface Runner {
  run(command: string, args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Promise<void>
  readResult(file: string): Promise<SideResult>
  sameFile(a: string, b: string): Promise<boolean>
  makeTempDir(prefix: string): Promise<string>
  remove(path: string): Promise<void>
  copyDir(from: string, to: string): Promise<void>
  /** Writes a file unless it is there; whether it wrote it. */
  writeIfMissing(path: string, text: string): Promise<boolean>
  exists(path: string): Promise<boolean>
  readText(path: string): Promise<string>
  /** The names of a folder's TypeScript modules, without `.ts` (its subfolders left out). */
  listModules(dir: string): Promise<string[]>
  linkModules(from: string, to: string): Promise<void>
  log(line: string): void
}

export interface Side {
  label: string
  commit?: string
  dir: string
}

/**
 * Checks out `commit` into a new worktree of `repo`, installs and builds it; the caller removes
 * it with `removeTree` (in a finally) whether or not this throws after the worktree was added.
 */
export async function prepareTree(
  runner: Runner,
  repo: string,
  commit: string,
  linkModules: boolean,
  made: string[],
): Promise<string> {
  const parent = await runner.makeTempDir('hosting-admin-bench-')
  made.push(parent)
  const dir = join(parent, 'tree')
  await runner.run('git', ['worktree', 'add', '--detach', dir, commit], { cwd: repo })
  // Our measuring code over theirs: both sides measured the same way.
  await runner.copyDir(join(repo, 'bench'), join(dir, 'bench'))
  await bridgeSupport(runner, repo, dir, commit)
  await bridgeWindowFlags(runner, dir, commit)
  await bridgeMovedModules(runner, dir, commit)
  const sameLock = await runner.sameFile(join(repo, 'package-lock.json'), join(dir, 'package-lock.json'))
  if (sameLock || linkModules) {
    runner.log(
      `${commit}: ${sameLock ? 'same package-lock.json' : '--link-modules'}: node_modules linked to this checkout's`,
    )
    await runner.linkModules(join(repo, 'node_modules'), join(dir, 'node_modules'))
  } else {
    runner.log(`${commit}: its package-lock.json differs: npm ci --ignore-scripts (from the npm cache where it can)`)
    try {
      await runner.run('npm', ['ci', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
        cwd: dir,
        env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
      })
    } catch (e) {
      // An older lock npm ci refuses (out of step with its package.json before 7841053): say the way on.
      throw new Error(
        `${commit}: its dependencies could not be installed as locked (${e instanceof Error ? e.message : String(e)}); ` +
          `--link-modules measures it with this checkout's node_modules (compare the two package-lock.json files first)`,
        { cause: e },
      )
    }
  }
  await runner.run('npx', ['electron-vite', 'build'], { cwd: dir })
  return dir
}

/** Both sides run the measuring code with the @shared/* alias mapped to their own src/shared (bench/ is copied). */
const AGAINST_TSCONFIG = 'bench/tsconfig.against.json'

/** Where a tree from before support/ kept what is now a support module (208016f, 67dc050). */
const SUPPORT_ONCE_IN = ['tests/e2e', 'tests/helpers']

/**
 * The benches import their measuring helpers from support/ (since cc5205a). A tree without one
 * gets a one-line module re-exporting its own copy from where it was kept then (the page
 * harness, the portfolio's data, the built shell: the other commit's app measured through its
 * own helpers), or, where that tree never had it, this checkout's (measuring code, as bench/ is).
 * A support module a tree already has is its own and is never written over.
 */
async function bridgeSupport(runner: Runner, repo: string, dir: string, commit: string): Promise<void> {
  for (const name of await runner.listModules(join(repo, 'support'))) {
    const target = join(dir, 'support', `${name}.ts`)
    if (await runner.exists(target)) continue
    let earlier: string | undefined
    for (const folder of SUPPORT_ONCE_IN)
      if (!earlier && (await runner.exists(join(dir, folder, `${name}.ts`)))) earlier = folder
    if (earlier) {
      await runner.writeIfMissing(target, `export * from '../${earlier}/${name}'\n`)
      runner.log(`${commit}: no support/${name}.ts: one that re-exports its ${earlier}/${name}.ts`)
    } else {
      await runner.writeIfMissing(target, await runner.readText(join(repo, 'support', `${name}.ts`)))
      runner.log(`${commit}: no support/${name}.ts anywhere: this checkout's copied`)
    }
  }
}

/** The window's V8 flags, which the page benches' Chromium takes from the tree measured (bench/bench-chromium.ts). */
const WINDOW_FLAGS_MODULE = 'src/main/shell/window-v8.ts'

/**
 * The window's V8 flags are the app's, not measuring code: a tree from before them (af721c8) ran its window on V8's
 * defaults, so it gets a module that gives none, and its own where it has one.
 */
async function bridgeWindowFlags(runner: Runner, dir: string, commit: string): Promise<void> {
  const target = join(dir, WINDOW_FLAGS_MODULE)
  if (await runner.exists(target)) return
  await runner.writeIfMissing(target, "export const WINDOW_JS_FLAGS = ''\n")
  runner.log(`${commit}: no ${WINDOW_FLAGS_MODULE}: its window had V8's defaults, so none are passed`)
}

/**
 * App modules the benches import that moved since (issue 51 gave reads a folder of their own), each where it stands now
 * and where it stood before, with the same exports: a tree from before the move gets a module at the new place that
 * re-exports its own from the old, so its own code is what is measured.
 */
const MOVED_MODULES: readonly { now: string; before: string }[] = [
  { now: 'src/main/reads/refresh-account.ts', before: 'src/main/store/refresh-account.ts' },
]

async function bridgeMovedModules(runner: Runner, dir: string, commit: string): Promise<void> {
  for (const { now, before } of MOVED_MODULES) {
    if ((await runner.exists(join(dir, now))) || !(await runner.exists(join(dir, before)))) continue
    const from = posix.relative(posix.dirname(now), before).replace(/\.ts$/, '')
    await runner.writeIfMissing(join(dir, now), `export * from '${from}'\n`)
    runner.log(`${commit}: no ${now}: one that re-exports its ${before}`)
  }
}

/** Removes what prepareTree made: the worktree (git's record of it too) and its parent folder. */
export async function removeTrees(runner: Runner, repo: string, made: readonly string[]): Promise<void> {
  for (const parent of made) {
    // node_modules first, on its own: a link is unlinked, never followed into this checkout's.
    await runner.remove(join(parent, 'tree', 'node_modules'))
    try {
      await runner.run('git', ['worktree', 'remove', '--force', join(parent, 'tree')], { cwd: repo })
    } catch {
      // Not added, or already gone: the folder goes below and prune forgets the record.
    }
    await runner.remove(parent)
  }
  await runner.run('git', ['worktree', 'prune'], { cwd: repo })
}

/** Each figure: this side's values, the other's, the ratio of the medians, and the target. */
export function compareTable(
  thisLabel: string,
  otherLabel: string,
  ours: readonly SideResult[],
  theirs: readonly SideResult[],
): string[] {
  const ourFigures = ours.map((r) => figuresOf(r.lines))
  const theirFigures = theirs.map((r) => figuresOf(r.lines))
  const labels = [...new Set([...ourFigures.flat(), ...theirFigures.flat()].map((f) => f.label))]
  const out = [`figure | ${thisLabel} | ${otherLabel} | ratio (median ${thisLabel} / median ${otherLabel}) | target`]
  const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1))
  for (const label of labels) {
    const pick = (runs: Figure[][]) =>
      runs.map((fs) => fs.find((f) => f.label === label)).filter((f): f is Figure => f !== undefined)
    const a = pick(ourFigures)
    const b = pick(theirFigures)
    const unit = (a[0] ?? b[0])?.unit ?? ''
    const target = (a[0] ?? b[0])?.target ?? ''
    const ma = median(a.map((f) => f.value))
    const mb = median(b.map((f) => f.value))
    const ratio = a.length && b.length && mb !== 0 ? `${(ma / mb).toFixed(2)}×` : '–'
    const values = (fs: Figure[]) =>
      fs.length ? fs.map((f) => fmt(f.value)).join(', ') + (unit ? ` ${unit}` : '') : '–'
    out.push(`${label} | ${values(a)} | ${values(b)} | ${ratio} | ${target}`)
  }
  out.push(
    `targets met: ${thisLabel} ${ours.filter((r) => r.ok).length}/${ours.length} rounds, ${otherLabel} ${theirs.filter((r) => r.ok).length}/${theirs.length}`,
  )
  return out
}

/**
 * The comparison: both sides prepared, then `rounds` rounds, each running the bench on one side
 * then the other (the first side alternating, so neither always runs on a warmer machine).
 */
export async function compareCommits(
  runner: Runner,
  repo: string,
  args: BenchArgs,
  made: string[] = [],
): Promise<string[]> {
  if (!args.against || !args.name) throw new BenchArgsError('--against compares one bench: name it')
  try {
    // This checkout was built by `npm run bench` before this runs; a --base commit is built here.
    const ours: Side = args.base
      ? { label: args.base, commit: args.base, dir: await prepareTree(runner, repo, args.base, args.linkModules, made) }
      : { label: 'this checkout', dir: repo }
    const theirs: Side = {
      label: args.against,
      commit: args.against,
      dir: await prepareTree(runner, repo, args.against, args.linkModules, made),
    }
    // The results beside the other commit's tree, in the folder removed with it.
    const resultsDir = dirname(theirs.dir)
    const results = new Map<Side, SideResult[]>([
      [ours, []],
      [theirs, []],
    ])
    for (let round = 0; round < args.rounds; round++) {
      const order = round % 2 === 0 ? [ours, theirs] : [theirs, ours]
      for (const side of order) {
        runner.log(`round ${round + 1} of ${args.rounds}: ${args.name} on ${side.label}`)
        const file = join(resultsDir, `${round}-${side === ours ? 'this' : 'other'}.json`)
        await runner.run('npx', ['tsx', '--tsconfig', AGAINST_TSCONFIG, 'bench/run.ts', args.name, '--json', file], {
          cwd: side.dir,
        })
        results.get(side)!.push(await runner.readResult(file))
      }
    }
    return compareTable(ours.label, theirs.label, results.get(ours)!, results.get(theirs)!)
  } finally {
    await removeTrees(runner, repo, made)
  }
}

/** The runner of a real comparison: child processes with their output passed through. */
export const realRunner: Runner = {
  run: (command, args, options) =>
    new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        stdio: ['ignore', 'inherit', 'inherit'],
      })
      child.on('error', reject)
      child.on('exit', (code, signal) =>
        code === 0
          ? resolve()
          : reject(new Error(`${command} ${args.join(' ')} in ${options.cwd}: ${signal ?? `exit ${code}`}`)),
      )
    }),
  readResult: async (file) => {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'))
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'name' in parsed &&
      typeof parsed.name === 'string' &&
      'lines' in parsed &&
      Array.isArray(parsed.lines) &&
      parsed.lines.every((l) => typeof l === 'string') &&
      'ok' in parsed &&
      typeof parsed.ok === 'boolean'
    ) {
      return { name: parsed.name, lines: parsed.lines.filter((l): l is string => typeof l === 'string'), ok: parsed.ok }
    }
    throw new Error(`${file} is not a bench result`)
  },
  sameFile: async (a, b) => {
    try {
      return (await readFile(a, 'utf8')) === (await readFile(b, 'utf8'))
    } catch {
      return false
    }
  },
  makeTempDir: (prefix) => mkdtemp(join(tmpdir(), prefix)),
  remove: (path) => rm(path, { recursive: true, force: true }),
  copyDir: (from, to) => cp(from, to, { recursive: true, force: true }),
  writeIfMissing: async (path, text) => {
    try {
      await mkdir(dirname(path), { recursive: true })
      await writeFile(path, text, { flag: 'wx' })
      return true
    } catch (e) {
      if (e instanceof Error && 'code' in e && e.code === 'EEXIST') return false
      throw e
    }
  },
  exists: async (path) => {
    try {
      await access(path)
      return true
    } catch {
      return false
    }
  },
  readText: (path) => readFile(path, 'utf8'),
  listModules: async (dir) =>
    (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => e.name.slice(0, -3))
      .sort(),
  linkModules: async (from, to) => symlink(await realpath(from), to, 'dir'),
  log: (line) => console.log(`[against] ${line}`),
}
