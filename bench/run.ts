/**
 * npm run bench: every benchmark, printed side by side with its targets.
 * `npm run bench -- <name>` runs one; `npm run bench -- <name> --against <commit>` runs it
 * alternately on this checkout and on that commit and prints each figure side by side with the
 * ratio (bench/against.ts).
 */
import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BenchArgsError, compareCommits, parseBenchArgs, realRunner } from './against'
import { forkPlainNode } from './plain-node'
import type { BenchResult } from './report'

// Each bench loaded only when it runs: a bench run in an older commit's tree (--against) needs
// only the modules of the bench it runs to exist there.
const benches: [string, () => Promise<BenchResult>][] = [
  ['bundle-size', async () => (await import('./bundle-size')).benchBundleSize()],
  ['list-all', async () => (await import('./list-all')).benchListAll()],
  ['list-all-rate-limited', async () => (await import('./list-all-rate-limited')).benchListAllRateLimited()],
  ['save-after-block', async () => (await import('./save-after-block')).benchSaveAfterBlock()],
  ['domain-list', async () => (await import('./domain-list')).benchDomainList()],
  ['dns-model', async () => (await import('./dns-model')).benchDnsModel()],
  ['dns-editor', async () => (await import('./dns-editor')).benchDnsEditor()],
  ['portfolio-store', async () => (await import('./portfolio-store')).benchPortfolioStore()],
  ['store-time', async () => (await import('./store-time')).benchStoreTime()],
  ['portfolio-refresh', async () => (await import('./portfolio-refresh')).benchPortfolioRefresh()],
  ['portfolio-paint', async () => (await import('./portfolio-paint')).benchPortfolioPaint()],
  ['drift', async () => (await import('./drift')).benchDrift()],
  ['startup', async () => (await import('./startup')).benchStartup()],
  ['main-thread', async () => (await import('./main-thread')).benchMainThread()],
  ['ten-accounts', async () => (await import('./ten-accounts')).benchTenAccounts()],
  ['ten-accounts-refresh', async () => (await import('./ten-accounts-refresh')).benchTenAccountsRefresh()],
  ['team', async () => (await import('./team')).benchTeam()],
  ['journal-open', async () => (await import('./journal-open')).benchJournalOpen()],
  ['health', async () => (await import('./health')).benchHealth()],
  ['portfolio-100k', async () => (await import('./portfolio-100k')).benchPortfolio100k()],
  ['cli-start', async () => (await import('./cli-start')).benchCliStart()],
]

let args
try {
  args = parseBenchArgs(
    process.argv.slice(2),
    benches.map(([id]) => id),
  )
} catch (e) {
  if (!(e instanceof BenchArgsError)) throw e
  console.error(
    `npm run bench -- [<name> [--against <commit> [--base <commit>] [--rounds <n>] [--link-modules]]]: ${e.message}`,
  )
  process.exit(2)
}

// The built shell's host is forked as Electron would run main: without this process's loader.
forkPlainNode()

if (args.against !== undefined) {
  const repo = process.cwd()
  const made: string[] = []
  // Interrupted: the temporary worktrees go too (a finally does not run on a signal).
  const leave = (signal: NodeJS.Signals) => {
    for (const parent of made) {
      try {
        execFileSync('git', ['worktree', 'remove', '--force', join(parent, 'tree')], { cwd: repo, stdio: 'ignore' })
      } catch {
        // Not there: pruned below.
      }
      execFileSync('rm', ['-rf', '--', parent])
    }
    execFileSync('git', ['worktree', 'prune'], { cwd: repo })
    process.kill(process.pid, signal)
  }
  process.once('SIGINT', leave)
  process.once('SIGTERM', leave)
  const table = await compareCommits(realRunner, repo, args, made)
  console.log(
    `\n== ${args.name}: this checkout${args.base ? ` (${args.base})` : ''} against ${args.against}, ${args.rounds} rounds, alternately`,
  )
  for (const line of table) console.log(`   ${line}`)
} else {
  for (const [id, run] of benches) {
    if (args.name && args.name !== id) continue
    const r = await run()
    console.log(`\n== ${r.name}`)
    for (const line of r.lines) console.log(`   ${line}`)
    console.log(`   targets ${r.ok ? 'met' : 'NOT met'} in this run`)
    if (args.jsonOut) await writeFile(args.jsonOut, JSON.stringify(r))
  }
}
