/**
 * The command's start in team mode (issue 54 point 4): the built `hosting-admin team settle` (a
 * command that opens the app's services, the team ledger and its journal included, lists the jobs
 * and, with no write of unknown outcome, ends) as a process of its own, in a data folder in
 * single-workstation mode and in one joined to the team database on a loopback PostgreSQL,
 * alternately, each run timed from its spawn to its exit. Target: team mode's median within 1.2x
 * of single-workstation mode's. Not `accounts`: since issue 52 point 7 it lists the accounts file
 * without the app's services, so it opens no ledger in either mode and measured nothing of team mode.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { TestPostgres } from '../support/postgres'
import { median } from './stats'

const CLI_BIN = resolve('bin/hosting-admin.mjs')
const ROUNDS = 11
/** Opens the session (services, ledger, journal) in either mode and reads the jobs; sends nothing. */
const COMMAND = ['team', 'settle'] as const
const TARGET = 1.2
// No keychain and no password prompt: the loopback cluster trusts its user.
const ENV = { ...process.env, LANG: 'C', LC_ALL: '', DBUS_SESSION_BUS_ADDRESS: '', PGPASSWORD: '' }

/** Runs the command to its end; its wall time in ms (a failed run throws with what it said). */
function timedRun(args: readonly string[]): Promise<number> {
  const t0 = performance.now()
  return new Promise((done, fail) => {
    execFile(process.execPath, [CLI_BIN, ...args], { env: ENV, timeout: 60_000 }, (err, _out, errText) => {
      if (err) fail(new Error(`hosting-admin ${args.join(' ')}: ${errText || err.message}`))
      else done(performance.now() - t0)
    })
  })
}

export async function teamCommandStartFigures(
  db: TestPostgres,
  rounds = ROUNDS,
): Promise<{ lines: string[]; ok: boolean }> {
  const single = mkdtempSync(join(tmpdir(), 'bench-cli-single-'))
  const team = mkdtempSync(join(tmpdir(), 'bench-cli-team-'))
  try {
    const where = ['--host', db.host, '--port', String(db.port), '--database', db.database, '--user', db.user]
    const init = ['team', 'init', ...where, '--member', 'carol', '--workstation', 'carol-host']
    await timedRun(['--data-dir', team, ...init])
    // Warmed once each (the file cache, the cluster's first connection of this user).
    await timedRun(['--data-dir', single, ...COMMAND])
    await timedRun(['--data-dir', team, ...COMMAND])
    const singleMs: number[] = []
    const teamMs: number[] = []
    for (let i = 0; i < rounds; i++) {
      singleMs.push(await timedRun(['--data-dir', single, ...COMMAND]))
      teamMs.push(await timedRun(['--data-dir', team, ...COMMAND]))
    }
    const ratio = median(teamMs) / median(singleMs)
    return {
      lines: [
        `command start, \`hosting-admin ${COMMAND.join(' ')}\` to its exit, team mode to single: ${ratio.toFixed(2)}x` +
          `  (target <= ${TARGET}x; single ${median(singleMs).toFixed(0)} ms,` +
          ` team mode ${median(teamMs).toFixed(0)} ms,` +
          ` median of ${rounds} alternately)`,
      ],
      ok: ratio <= TARGET,
    }
  } finally {
    rmSync(single, { recursive: true, force: true })
    rmSync(team, { recursive: true, force: true })
  }
}
