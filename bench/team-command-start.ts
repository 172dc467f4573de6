/**
 * The command's start in team mode (issue 54 point 4): the built `hosting-admin team settle` (a
 * command that opens the app's services, the team ledger and its journal included, lists the jobs
 * and, with no write of unknown outcome, ends) as a process of its own, in a data folder in
 * single-workstation mode and in one joined to the team database on a loopback PostgreSQL,
 * alternately, each run timed from its spawn to its exit. Target: team mode's median within 1.2x
 * of single-workstation mode's, both folders without jobs (the team's on a database of its own);
 * beside it, without a target, a folder on the database the renewal benches filled, whose journal
 * the start reads (single-workstation mode's folder has none to read). Not `accounts`: since issue 52 point 7 it lists the accounts file
 * without the app's services, so it opens no ledger in either mode and measured nothing of team mode.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import type { TestPostgres } from '../support/postgres'
import { poolFor } from '../support/team-ledgers'
import { median } from './stats'
import { freshDatabase } from './team-start'

const CLI_BIN = resolve('bin/hosting-admin.mjs')
const ROUNDS = 11
/** Opens the session (services, ledger, journal) in either mode and reads the jobs; sends nothing. */
const COMMAND = ['team', 'settle'] as const
/** The database of a team that has sent nothing yet, beside the benches' own. */
const FRESH = 'command_start'
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

/** How many records the team's journal holds (the jobs the renewal benches left in it). */
async function journalRecords(db: TestPostgres): Promise<number> {
  const pool = poolFor(db)
  try {
    const r = await pool.query('SELECT count(*)::int AS n FROM team_journal')
    return z.object({ n: z.number() }).parse(r.rows[0]).n
  } finally {
    await pool.end()
  }
}

export async function teamCommandStartFigures(
  db: TestPostgres,
  rounds = ROUNDS,
): Promise<{ lines: string[]; ok: boolean }> {
  const single = mkdtempSync(join(tmpdir(), 'bench-cli-single-'))
  const team = mkdtempSync(join(tmpdir(), 'bench-cli-team-'))
  const busyTeam = mkdtempSync(join(tmpdir(), 'bench-cli-team-journal-'))
  try {
    await freshDatabase(db, FRESH)
    const joinTeam = async (dir: string, database: string) => {
      const where = ['--host', db.host, '--port', String(db.port), '--database', database, '--user', db.user]
      await timedRun(['--data-dir', dir, 'team', 'init', ...where, '--member', 'carol', '--workstation', 'carol-host'])
    }
    // Both folders without jobs, as the single folder is: team mode's own cost at a start.
    await joinTeam(team, FRESH)
    // And one on the database the renewal benches filled: the team's journal read at the start grows with it.
    await joinTeam(busyTeam, db.database)
    const records = await journalRecords(db)
    const folders = [single, team, busyTeam]
    // Warmed once each (the file cache, the cluster's first connection of this user).
    for (const dir of folders) await timedRun(['--data-dir', dir, ...COMMAND])
    const ms: number[][] = folders.map(() => [])
    for (let i = 0; i < rounds; i++)
      for (const [f, dir] of folders.entries()) ms[f]?.push(await timedRun(['--data-dir', dir, ...COMMAND]))
    const [singleMs = 0, teamMs = 0, busyMs = 0] = ms.map(median)
    const ratio = teamMs / singleMs
    return {
      lines: [
        `command start, \`hosting-admin ${COMMAND.join(' ')}\` to its exit, team mode to single: ${ratio.toFixed(2)}x` +
          `  (target <= ${TARGET}x; single ${singleMs.toFixed(0)} ms, team mode ${teamMs.toFixed(0)} ms,` +
          ` both without jobs, median of ${rounds} alternately)`,
        `  the same in team mode with the renewals' ${records} journal records in the team database: ` +
          `${busyMs.toFixed(0)} ms, ${(busyMs / singleMs).toFixed(2)}x single without jobs` +
          ` (not held to the target: the single folder's journal is empty; read twice, at the start and by the listing)`,
      ],
      ok: ratio <= TARGET,
    }
  } finally {
    for (const dir of [single, team, busyTeam]) rmSync(dir, { recursive: true, force: true })
  }
}
