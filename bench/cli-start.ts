/**
 * The command's start (issue 52 point 7): the built `hosting-admin --help` and `accounts` on an
 * empty data folder, each side by side with a bare `node -e 0` in the same run. Each round runs
 * the three one after another (a machine busier in one round is busier for all three), and the
 * medians are compared. Targets: --help <= 2x and accounts <= 3x a bare Node's start.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BenchResult } from './report'
import { median } from './stats'

const ROUNDS = 21
const HELP_TARGET = 2
const ACCOUNTS_TARGET = 3

/** Wall time of one run of the built command (or Node alone) to its exit; a run that fails fails the bench. */
function timed(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now()
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 })
  const ms = performance.now() - started
  if (r.status !== 0) throw new Error(`cli-start: node ${args.join(' ')} exited ${r.status}: ${r.stderr.toString()}`)
  return ms
}

export async function benchCliStart(): Promise<BenchResult> {
  const cli = join(process.cwd(), 'out', 'main', 'cli.js')
  const home = mkdtempSync(join(tmpdir(), 'cli-start-'))
  // An empty data folder each round (as a first run finds it), in a home of its own: no keychain, no app.
  const env = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' }
  const times: Record<'node' | 'help' | 'accounts', number[]> = { node: [], help: [], accounts: [] }
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const dataDir = mkdtempSync(join(home, 'data-'))
      times.node.push(timed(['-e', '0'], env))
      times.help.push(timed([cli, '--help'], env))
      times.accounts.push(timed([cli, 'accounts', '--data-dir', dataDir], env))
    }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
  const node = median(times.node)
  const help = median(times.help) / node
  const accounts = median(times.accounts) / node
  const ms = (xs: number[]) => `${median(xs).toFixed(0)} ms`
  return {
    name: `cli-start (median of ${ROUNDS} rounds, each: node -e 0, --help, accounts on an empty folder)`,
    lines: [
      `node -e 0                 ${ms(times.node)}`,
      `hosting-admin --help      ${ms(times.help)}   ${help.toFixed(2)}x node   (target <= ${HELP_TARGET}x)`,
      `hosting-admin accounts    ${ms(times.accounts)}   ${accounts.toFixed(2)}x node   (target <= ${ACCOUNTS_TARGET}x)`,
    ],
    ok: help <= HELP_TARGET && accounts <= ACCOUNTS_TARGET,
  }
}
