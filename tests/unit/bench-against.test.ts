/**
 * `npm run bench -- <name> --against <commit>` (bench/against.ts): its arguments, and the
 * temporary worktree's life with a runner that records what would run: made, installed, built,
 * measured alternately, and removed at the end, also when a step fails.
 */
import { describe, expect, it } from 'vitest'
import {
  BenchArgsError,
  compareCommits,
  figuresOf,
  parseBenchArgs,
  type Runner,
  type SideResult,
} from '../../bench/against'

const KNOWN = ['domain-list', 'store-time']

describe('bench arguments', () => {
  it('reads a bench, the commit, the base, the rounds and --link-modules', () => {
    expect(parseBenchArgs(['domain-list', '--against', '208016f'], KNOWN)).toEqual({
      name: 'domain-list',
      against: '208016f',
      rounds: 3,
      linkModules: false,
    })
    expect(
      parseBenchArgs(
        ['--against', 'HEAD~2', 'store-time', '--rounds', '5', '--base', 'abc123', '--link-modules'],
        KNOWN,
      ),
    ).toEqual({
      name: 'store-time',
      against: 'HEAD~2',
      base: 'abc123',
      rounds: 5,
      linkModules: true,
    })
    expect(parseBenchArgs([], KNOWN)).toEqual({ rounds: 3, linkModules: false })
    expect(parseBenchArgs(['store-time', '--json', '/tmp/r.json'], KNOWN)).toEqual({
      name: 'store-time',
      rounds: 3,
      linkModules: false,
      jsonOut: '/tmp/r.json',
    })
  })

  it.each([
    [['nope'], /no bench named nope/],
    [['domain-list', '--against'], /--against needs a value/],
    [['domain-list', '--against', '--rounds'], /--against needs a value/],
    [['--against', '208016f'], /name it/],
    [['domain-list', '--against', '208016f', '--rounds', '2'], /from 3 to 20/],
    [['domain-list', '--against', '208016f', '--rounds', 'x'], /from 3 to 20/],
    [['domain-list', '--rounds', '4'], /go with --against/],
    [['domain-list', '--against', 'a b'], /not a commit/],
    [['domain-list', '--against', '208016f', '--fast'], /unknown option --fast/],
    [['domain-list', 'store-time'], /one bench at a time/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseBenchArgs(argv, KNOWN)).toThrow(BenchArgsError)
    expect(() => parseBenchArgs(argv, KNOWN)).toThrow(message)
  })
})

describe('figures of printed lines', () => {
  it('takes each line’s label, first number, unit and target', () => {
    expect(
      figuresOf([
        'data -> first paint:          79.1 ms  (target <= 100 ms)',
        'scrolling, 600 px a frame:  3 tasks over 50 ms, longest 210.0 ms  (target: none)',
        'no number here: at all',
        'read:  12 ms',
        'read:  14 ms',
        'store in its worker (now):       event-loop delay p99 12.6 ms, max 24 ms  (target: p99 <= 20 ms, max <= 50 ms)',
        'raw text: switch to it:           84.3 ms  (a load, like opening: target <= 500 ms)',
        'raw text: a keystroke (max of 3): 3.5 ms  (target <= 100 ms)',
        "store on main's thread (before): event-loop delay p99 415.2 ms, max 2284 ms (during: export CSV; all the work: 7.5 s)",
        "rows with their row check 19 ms (without it 22 ms), JSON.parse 7 ms (against the service's item schema, as before: 43 ms)",
        'window: tasks over 50 ms scrolling 1000 frames: 0 tasks  (target <= 0 tasks; 10000: 0 tasks, ratio NaNx)',
      ]),
    ).toEqual([
      { label: 'data -> first paint', value: 79.1, unit: 'ms', target: '<= 100 ms' },
      { label: 'scrolling, 600 px a frame', value: 3, unit: '', target: 'none' },
      { label: 'scrolling, 600 px a frame, longest', value: 210, unit: 'ms' },
      { label: 'read', value: 12, unit: 'ms' },
      { label: 'read (2)', value: 14, unit: 'ms' },
      // The 99 of "p99" is a word's, not the figure.
      { label: 'store in its worker (now)', value: 12.6, unit: 'ms', target: 'p99 <= 20 ms, max <= 50 ms' },
      { label: 'store in its worker (now), max', value: 24, unit: 'ms' },
      // The label runs to the colon the figure follows: the 3 of "max of 3" is not the figure.
      { label: 'raw text: switch to it', value: 84.3, unit: 'ms' },
      { label: 'raw text: a keystroke (max of 3)', value: 3.5, unit: 'ms', target: '<= 100 ms' },
      // A colon later in the line, after the figure, is not the label's.
      { label: "store on main's thread (before)", value: 415.2, unit: 'ms' },
      { label: "store on main's thread (before), max", value: 2284, unit: 'ms' },
      // The breakdown line has no label of its own: its only colon is inside parentheses.
      // The figure is the number right after a colon: the label's own numbers (50 ms, 1000 frames) are the label's.
      {
        label: 'window: tasks over 50 ms scrolling 1000 frames',
        value: 0,
        unit: '',
        target: '<= 0 tasks; 10000: 0 tasks, ratio NaNx',
      },
    ])
  })
})

/** A runner that records every step and fails the one it is told to. */
function fakeRunner(failOn?: (command: string, args: readonly string[]) => boolean, sameLock = true) {
  const steps: string[] = []
  let dirs = 0
  const runner: Runner = {
    run: async (command, args, { cwd }) => {
      steps.push(`run ${command} ${args.join(' ')} @${cwd}`)
      if (failOn?.(command, args)) throw new Error(`${command} failed`)
    },
    readResult: async (file): Promise<SideResult> => {
      steps.push(`read ${file}`)
      // This side 80 ms, the other 100 ms, whatever the order.
      const value = file.includes('-this') ? 80 : 100
      return { name: 'x', lines: [`first paint:  ${value} ms  (target <= 90 ms)`], ok: value <= 90 }
    },
    sameFile: async () => sameLock,
    makeTempDir: async (prefix) => `/tmp/${prefix}${++dirs}`,
    remove: async (path) => {
      steps.push(`remove ${path}`)
    },
    copyDir: async (from, to) => {
      steps.push(`copy ${from} -> ${to}`)
    },
    linkModules: async (from, to) => {
      steps.push(`link ${from} -> ${to}`)
    },
    writeIfMissing: async (path, text) => {
      steps.push(`write ${path} if missing: ${text.trim()}`)
      return true
    },
    // A tree from before support/: its page harness in tests/e2e, its portfolio data in tests/helpers.
    exists: async (path) => /\/tree\/tests\/(e2e\/harness|helpers\/portfolio-data)\.ts$/.test(path),
    readText: async (path) => `// this checkout's ${path}`,
    listModules: async () => ['harness', 'listening-port', 'portfolio-data'],
    log: () => undefined,
  }
  return { runner, steps }
}

describe('comparing with another commit', () => {
  it('builds the other commit in a worktree, runs both alternately, prints the ratio, then removes the worktree', async () => {
    const { runner, steps } = fakeRunner()
    const table = await compareCommits(runner, '/repo', {
      name: 'domain-list',
      against: '208016f',
      rounds: 3,
      linkModules: false,
    })
    const tree = '/tmp/hosting-admin-bench-1/tree'
    expect(steps.slice(0, 8)).toEqual([
      `run git worktree add --detach ${tree} 208016f @/repo`,
      `copy /repo/bench -> ${tree}/bench`,
      // A tree from before support/ (208016f's) gets support modules pointing at its own helpers
      // where it had them, and this checkout's measuring code where it never had it.
      `write ${tree}/support/harness.ts if missing: export * from '../tests/e2e/harness'`,
      `write ${tree}/support/listening-port.ts if missing: // this checkout's /repo/support/listening-port.ts`,
      `write ${tree}/support/portfolio-data.ts if missing: export * from '../tests/helpers/portfolio-data'`,
      // A tree from before the window's V8 flags: its window had V8's defaults.
      `write ${tree}/src/main/shell/window-v8.ts if missing: export const WINDOW_JS_FLAGS = ''`,
      `link /repo/node_modules -> ${tree}/node_modules`,
      `run npx electron-vite build @${tree}`,
    ])
    const benchRuns = steps.filter((s) => s.startsWith('run npx tsx')).map((s) => s.split('@')[1])
    expect(benchRuns).toEqual(['/repo', tree, tree, '/repo', '/repo', tree])
    expect(table).toContain('first paint | 80.0, 80.0, 80.0 ms | 100, 100, 100 ms | 0.80× | <= 90 ms')
    expect(table.at(-1)).toBe('targets met: this checkout 3/3 rounds, 208016f 0/3')
    expect(steps.filter((s) => s.startsWith('read ')).map((s) => s.slice(5))).toEqual(
      ['0-this', '0-other', '1-other', '1-this', '2-this', '2-other'].map(
        (f) => `/tmp/hosting-admin-bench-1/${f}.json`,
      ),
    )
    expect(steps.slice(-4)).toEqual([
      `remove ${tree}/node_modules`,
      `run git worktree remove --force ${tree} @/repo`,
      'remove /tmp/hosting-admin-bench-1',
      'run git worktree prune @/repo',
    ])
  })

  it('leaves a tree its own support modules and window flags', async () => {
    const { runner, steps } = fakeRunner()
    runner.exists = async (path) =>
      path.includes('/tree/support/') || path.endsWith('/tree/src/main/shell/window-v8.ts')
    await compareCommits(runner, '/repo', { name: 'domain-list', against: 'cc5205a', rounds: 3, linkModules: false })
    expect(steps.filter((s) => s.startsWith('write '))).toEqual([])
  })

  it('gives a tree from before a module moved one at the new place that re-exports its own', async () => {
    const { runner, steps } = fakeRunner()
    runner.exists = async (path) => path.endsWith('/tree/src/main/store/refresh-account.ts')
    await compareCommits(runner, '/repo', {
      name: 'portfolio-refresh',
      against: '898b2ac',
      rounds: 3,
      linkModules: false,
    })
    const tree = '/tmp/hosting-admin-bench-1/tree'
    expect(steps).toContain(
      `write ${tree}/src/main/reads/refresh-account.ts if missing: export * from '../store/refresh-account'`,
    )
    // A tree that has it where it stands now keeps its own.
    const own = fakeRunner()
    own.runner.exists = async (path) => path.includes('refresh-account.ts')
    await compareCommits(own.runner, '/repo', {
      name: 'portfolio-refresh',
      against: 'abc',
      rounds: 3,
      linkModules: false,
    })
    expect(own.steps.filter((s) => s.includes('refresh-account'))).toEqual([])
  })

  it('installs from the lock when it differs, and removes the worktree when the build fails', async () => {
    const { runner, steps } = fakeRunner((command, args) => command === 'npx' && args[0] === 'electron-vite', false)
    await expect(
      compareCommits(runner, '/repo', { name: 'domain-list', against: 'abc', rounds: 3, linkModules: false }),
    ).rejects.toThrow('npx failed')
    const tree = '/tmp/hosting-admin-bench-1/tree'
    expect(steps).toContain(`run npm ci --ignore-scripts --prefer-offline --no-audit --no-fund @${tree}`)
    expect(steps.some((s) => s.startsWith('link '))).toBe(false)
    expect(steps.some((s) => s.startsWith('run npx tsx'))).toBe(false)
    expect(steps.slice(-4)).toEqual([
      `remove ${tree}/node_modules`,
      `run git worktree remove --force ${tree} @/repo`,
      'remove /tmp/hosting-admin-bench-1',
      'run git worktree prune @/repo',
    ])
  })

  it('removes both worktrees when a bench run fails, and says how to go on when npm ci refuses the lock', async () => {
    const { runner, steps } = fakeRunner((command, args) => command === 'npx' && args[0] === 'tsx')
    await expect(
      compareCommits(runner, '/repo', {
        name: 'domain-list',
        against: 'abc',
        base: 'def',
        rounds: 3,
        linkModules: false,
      }),
    ).rejects.toThrow('npx failed')
    for (const n of [1, 2])
      expect(steps).toContain(`run git worktree remove --force /tmp/hosting-admin-bench-${n}/tree @/repo`)
    expect(steps.at(-1)).toBe('run git worktree prune @/repo')

    const refused = fakeRunner((command) => command === 'npm', false)
    await expect(
      compareCommits(refused.runner, '/repo', { name: 'domain-list', against: 'abc', rounds: 3, linkModules: false }),
    ).rejects.toThrow(/--link-modules/)
    expect(refused.steps).toContain('run git worktree remove --force /tmp/hosting-admin-bench-1/tree @/repo')
  })
})
