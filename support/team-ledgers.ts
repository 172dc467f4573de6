/** Team ledgers ("workstations") on a test cluster (postgres.ts), each with its own pool, closed together. */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { openTeamPool } from '../src/main/team/connection'
import { ensureSchema } from '../src/main/team/schema'
import { TeamLedger, type TeamLedgerOptions } from '../src/main/team/team-ledger'
import { writeTeamSettings } from '../src/main/team/team-settings'
import type { TestPostgres } from './postgres'

export function poolFor(
  db: Pick<TestPostgres, 'host' | 'port' | 'user' | 'database'>,
  connectTimeoutMs = 2000,
): pg.Pool {
  return openTeamPool(
    { host: db.host, port: db.port, user: db.user, database: db.database, sslmode: 'disable' },
    { connectTimeoutMs },
  )
}

export async function openWorkstation(
  db: TestPostgres,
  member: string,
  workstation: string,
  more: Partial<Omit<TeamLedgerOptions, 'pool' | 'member' | 'workstation' | 'where'>> = {},
): Promise<TeamLedger> {
  // The team's owner has set it up (team init): the test cluster's superuser is that owner.
  return TeamLedger.open({
    pool: poolFor(db),
    member,
    workstation,
    where: db.database,
    ownsPool: true,
    createSchema: true,
    ...more,
  })
}

/**
 * Lets `ms` pass on the database's clock for a workstation that can no longer act (stopped by
 * SIGSTOP, or killed): its live leases run out that much sooner and its heartbeats are that much
 * older, as if it had stopped that long before. Tests that need a holder's lease to run out use it
 * instead of waiting for a short lease to: every lease can then live long enough that a process
 * starved on a loaded machine never loses one (a lease of 1 s, renewed every 0.33 s, was lost to a
 * stall of 1.5 s). A renewal the workstation sent before it stopped may still land after it: ask
 * again (`until`) for what the test waits for.
 */
export async function ageWorkstation(pool: pg.Pool, workstation: string, ms: number): Promise<void> {
  const by = [workstation, ms]
  await pool.query(
    `UPDATE team_leases SET expires_at = expires_at - $2::bigint * interval '1 millisecond' WHERE workstation = $1 AND state = 'sending'`,
    by,
  )
  await pool.query(
    `UPDATE team_processes SET last_seen = last_seen - $2::bigint * interval '1 millisecond' WHERE workstation = $1`,
    by,
  )
  await pool.query(
    `UPDATE team_workstations SET last_seen = last_seen - $2::bigint * interval '1 millisecond' WHERE name = $1`,
    by,
  )
}

/** Waits for a condition, asking at most `tries` times `everyMs` apart (bounded in count and time). */
export async function until<T>(ask: () => Promise<T>, ok: (v: T) => boolean, tries = 200, everyMs = 50): Promise<T> {
  let last: T = await ask()
  for (let i = 0; i < tries && !ok(last); i++) {
    await new Promise((r) => setTimeout(r, everyMs))
    last = await ask()
  }
  if (!ok(last)) throw new Error(`condition not met after ${tries} tries: ${JSON.stringify(last)}`)
  return last
}

/**
 * Asks until `ok` (as `until`), letting `ms` of `workstation`'s life pass on the database's clock
 * before each ask (ageWorkstation): for a test waiting for the leases of a workstation that cannot
 * act to run out.
 */
export function untilAged<T>(
  pool: pg.Pool,
  workstation: string,
  ms: number,
  ask: () => Promise<T>,
  ok: (v: T) => boolean,
): Promise<T> {
  return until(
    async () => {
      await ageWorkstation(pool, workstation, ms)
      return ask()
    },
    ok,
    100,
    100,
  )
}

/**
 * A workstation's data folder in team mode on the test cluster: a new temporary folder holding
 * its team.json (this member and workstation, the lease's life when a test shortens it). The
 * caller removes it.
 */
export async function teamDataFolder(
  db: Pick<TestPostgres, 'host' | 'port' | 'user' | 'database'>,
  member: string,
  workstation: string,
  opts: { leaseMs?: number } = {},
): Promise<string> {
  // Set up once reachable (a test may make the folder while the database is away on purpose).
  await initTeam(db).catch(() => undefined)
  const dir = mkdtempSync(join(tmpdir(), `team-${member}-`))
  await writeTeamSettings(dir, {
    connection: { host: db.host, port: db.port, user: db.user, database: db.database, sslmode: 'disable' },
    member,
    workstation,
    ...(opts.leaseMs !== undefined ? { leaseMs: opts.leaseMs } : {}),
  })
  return dir
}

/** The team's schema set up on the test cluster, as its owner's `hosting-admin team init` does (the cluster's superuser is the owner). */
async function initTeam(db: Pick<TestPostgres, 'host' | 'port' | 'user' | 'database'>): Promise<void> {
  const pool = poolFor(db)
  try {
    await ensureSchema(pool, { create: true })
  } finally {
    await pool.end()
  }
}
