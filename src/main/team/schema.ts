/**
 * The team schema and its version (issue 37 point 1). The version is a row of `team_schema`;
 * each migration takes the schema from one version to the next, in one transaction under an
 * advisory lock, so two workstations connecting at once migrate it once. An app that finds a
 * newer version than it knows reads and writes nothing (team.schemaNewer: update the app).
 *
 * What is here is what the team shares; what is never here: API keys (accounts are matched by a
 * keyed fingerprint, fingerprint.ts), transfer codes, dynamic DNS passwords, contacts beyond what
 * history keeps (journal records are stored as the local journal keeps them, without secrets).
 */
import type pg from 'pg'
import { z } from 'zod'
import { TeamError, teamErrorOf } from './team-error'
import { grantsFor, NOTICES_FUNCTION, RIGHTS_MIGRATION } from './team-rights'

/** One statement list per version: MIGRATIONS[n] takes the schema from version n to n + 1. */
const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE team_members (
       name text PRIMARY KEY,
       first_seen timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE team_workstations (
       name text PRIMARY KEY,
       member text NOT NULL REFERENCES team_members(name),
       last_seen timestamptz NOT NULL DEFAULT now())`,
    // An account's identity, shared without its key: matched by a keyed fingerprint of the key.
    `CREATE TABLE team_accounts (
       fingerprint text PRIMARY KEY,
       label text NOT NULL,
       colour text,
       tag text,
       write_safety text NOT NULL,
       updated_by text NOT NULL,
       updated_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE SEQUENCE team_lease_fence`,
    // One row per send. The partial unique index is the guarantee: whatever the code does, at most
    // one send per target is on its way or of unknown outcome across the team.
    `CREATE TABLE team_leases (
       fence bigint PRIMARY KEY DEFAULT nextval('team_lease_fence'),
       account text NOT NULL,
       operation text NOT NULL,
       target text NOT NULL,
       member text NOT NULL,
       workstation text NOT NULL,
       job_id text NOT NULL,
       idx integer NOT NULL,
       state text NOT NULL CHECK (state IN ('sending', 'unknown', 'free')),
       checked_at timestamptz,
       since timestamptz NOT NULL DEFAULT now(),
       expires_at timestamptz NOT NULL,
       ended_at timestamptz)`,
    `CREATE UNIQUE INDEX team_one_write_per_target ON team_leases (account, operation, target) WHERE state IN ('sending', 'unknown')`,
    `CREATE TABLE team_jobs (
       id text PRIMARY KEY,
       account text NOT NULL,
       operation text NOT NULL,
       member text NOT NULL,
       workstation text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now())`,
    // The journal's records, as the local journal's lines; record_id makes a repeated append (its
    // commit's answer lost with the connection) a no-op.
    `CREATE TABLE team_journal (
       seq bigserial PRIMARY KEY,
       record_id uuid NOT NULL UNIQUE,
       job_id text NOT NULL REFERENCES team_jobs(id) ON DELETE CASCADE,
       member text NOT NULL,
       workstation text NOT NULL,
       at timestamptz NOT NULL DEFAULT now(),
       record jsonb NOT NULL)`,
    `CREATE TABLE team_job_items (
       job_id text NOT NULL REFERENCES team_jobs(id) ON DELETE CASCADE,
       idx integer NOT NULL,
       target text NOT NULL,
       state text NOT NULL,
       PRIMARY KEY (job_id, idx))`,
    `CREATE TABLE team_history (
       id bigserial PRIMARY KEY,
       account text NOT NULL,
       domain text NOT NULL,
       at timestamptz NOT NULL DEFAULT now(),
       member text,
       workstation text,
       change jsonb NOT NULL)`,
    `CREATE INDEX team_history_domain ON team_history (account, domain, at)`,
    `CREATE TABLE team_drift_findings (
       id bigserial PRIMARY KEY,
       account text NOT NULL,
       domain text NOT NULL,
       found_at timestamptz NOT NULL DEFAULT now(),
       found_by text NOT NULL,
       finding jsonb NOT NULL)`,
    // A reminder is shown to everyone and handled once: the first member's handling wins.
    `CREATE TABLE team_reminders (
       key text PRIMARY KEY,
       due_at timestamptz NOT NULL,
       handled text CHECK (handled IN ('acknowledged', 'snoozed', 'calendar')),
       handled_by text,
       handled_on text,
       handled_at timestamptz,
       snoozed_until timestamptz)`,
  ],
  // Version 2: which process runs a job. Two processes of one workstation (the window and the
  // command line on one data folder) are told apart: a job of the other one, alive, is not taken
  // for one a quit cut off (team-ledger.ts load).
  [
    `CREATE TABLE team_processes (
       id uuid PRIMARY KEY,
       workstation text NOT NULL,
       pid integer NOT NULL,
       started_at timestamptz NOT NULL DEFAULT now(),
       last_seen timestamptz NOT NULL DEFAULT now())`,
    `ALTER TABLE team_jobs ADD COLUMN process uuid`,
  ],
  // Version 3 (issue 49): once per intent. Each lease keeps how its send ended (done, failed,
  // unsure: sent again over an unknown outcome) in the order ends happened (end_seq, from a
  // sequence a job's mark is read from), what it was confirmed against (basis) and the request id
  // the service gave it, so that a later send of the target can tell it was already done, and a
  // log check can tell a colleague's request from its own.
  [
    `CREATE SEQUENCE IF NOT EXISTS team_end_seq`,
    `ALTER TABLE team_leases ADD COLUMN IF NOT EXISTS basis text, ADD COLUMN IF NOT EXISTS outcome text CHECK (outcome IN ('done', 'failed', 'unsure')),
       ADD COLUMN IF NOT EXISTS end_seq bigint, ADD COLUMN IF NOT EXISTS request_id text`,
    `CREATE INDEX IF NOT EXISTS team_leases_ended ON team_leases (account, operation, target, end_seq) WHERE outcome IS NOT NULL`,
    `CREATE INDEX IF NOT EXISTS team_leases_target ON team_leases (account, operation, target, since)`,
    // One account, whatever key reaches it (account-identity.ts): each key's fingerprint linked to the
    // account's team id (its first key's fingerprint), and request ids made with its keys, which any
    // key of the same account finds in its own log.
    `CREATE TABLE IF NOT EXISTS team_account_keys (
       fingerprint text PRIMARY KEY,
       account text NOT NULL,
       how text NOT NULL CHECK (how IN ('first', 'log')),
       linked_by text NOT NULL,
       linked_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE IF NOT EXISTS team_account_proofs (
       account text NOT NULL,
       request_id text NOT NULL,
       made_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (account, request_id))`,
  ],
  // Version 4 (issue 50): rights the database enforces. A role per member in the team's group role,
  // no table rights for members, every change through functions that take the member from the login
  // (team-rights.ts); upkeep's archive.
  RIGHTS_MIGRATION,
  // Version 5 (issue 50 point 3): a reminder is notified once for the team. The first workstation whose check
  // finds it due claims its notice (the key is team_reminders' key) and alone shows it on the
  // desktop; the row keeps what the reminder is about, so a workstation started later, before its
  // own store has read the account, still lists it (team-notices.ts).
  [
    `CREATE TABLE IF NOT EXISTS team_reminder_notices (
       key text PRIMARY KEY,
       account text NOT NULL,
       expires text NOT NULL,
       item jsonb NOT NULL,
       member text NOT NULL,
       workstation text NOT NULL,
       notified_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE INDEX IF NOT EXISTS team_reminder_notices_account ON team_reminder_notices (account, expires)`,
    NOTICES_FUNCTION,
  ],
]

/** The schema version this app reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.length

/** Any number, so that two apps' locks never meet another program's. */
const MIGRATION_LOCK = 0x7ea3_0037

const versionRow = z.object({ version: z.number().int().min(0), team_id: z.string().uuid() })
const existsRow = z.object({ present: z.boolean() })

export type SchemaStatus =
  { state: 'absent' } | { state: 'current' | 'older' | 'newer'; version: number; teamId: string }

export async function schemaStatus(db: pg.Pool | pg.PoolClient): Promise<SchemaStatus> {
  try {
    const exists = existsRow.parse((await db.query(`SELECT to_regclass('team_schema') IS NOT NULL AS present`)).rows[0])
    if (!exists.present) return { state: 'absent' }
    const row: unknown = (await db.query('SELECT version, team_id::text AS team_id FROM team_schema WHERE id = 1'))
      .rows[0]
    if (row === undefined) return { state: 'absent' }
    const v = versionRow.parse(row)
    const state = v.version === SCHEMA_VERSION ? 'current' : v.version < SCHEMA_VERSION ? 'older' : 'newer'
    return { state, version: v.version, teamId: v.team_id }
  } catch (err) {
    throw teamErrorOf(err)
  }
}

/**
 * Creates the schema (absent) or migrates it (older) when `create` allows it; returns the team's
 * id. A newer schema is refused (team.schemaNewer), an absent one without `create` too
 * (team.notInitialised).
 */
export async function ensureSchema(
  pool: pg.Pool,
  opts: { create: boolean; renew?: boolean },
): Promise<{ teamId: string; from: number | 'absent'; to: number }> {
  let client: pg.PoolClient
  try {
    client = await pool.connect()
  } catch (err) {
    throw teamErrorOf(err)
  }
  // Heard while checked out: a connection lost mid-migration must not end the process.
  const lost = () => undefined
  client.on('error', lost)
  try {
    const before = await schemaStatus(client)
    if (before.state === 'current') {
      // The owner's team migrate on a current schema (after a restore): rights and the order of ends renewed.
      if (opts.renew) await afterMigration(client)
      return { teamId: before.teamId, from: before.version, to: before.version }
    }
    if (before.state === 'newer')
      throw new TeamError('team.schemaNewer', { found: before.version, supported: SCHEMA_VERSION })
    if (!opts.create)
      throw new TeamError(
        before.state === 'absent' ? 'team.notInitialised' : 'team.schemaNewer',
        before.state === 'absent' ? {} : { found: before.version, supported: SCHEMA_VERSION },
      )
    await client.query('BEGIN')
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
      // Read again under the lock: another workstation may have migrated meanwhile.
      const now = await schemaStatus(client)
      if (now.state === 'newer')
        throw new TeamError('team.schemaNewer', { found: now.version, supported: SCHEMA_VERSION })
      let version = 0
      if (now.state === 'absent') {
        await client.query(`CREATE TABLE IF NOT EXISTS team_schema (
          id smallint PRIMARY KEY CHECK (id = 1),
          version integer NOT NULL,
          team_id uuid NOT NULL DEFAULT gen_random_uuid(),
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now())`)
        await client.query('INSERT INTO team_schema (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING')
      } else version = now.version
      for (let v = version; v < SCHEMA_VERSION; v++)
        for (const statement of MIGRATIONS[v] ?? []) await client.query(statement)
      await client.query('UPDATE team_schema SET version = $1, updated_at = now() WHERE id = 1', [SCHEMA_VERSION])
      await afterMigration(client)
      await client.query('COMMIT')
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw err
    }
    const after = await schemaStatus(client)
    if (after.state !== 'current') throw new TeamError('team.failed', { step: 'migrate' })
    return { teamId: after.teamId, from: before.state === 'absent' ? 'absent' : before.version, to: after.version }
  } catch (err) {
    throw teamErrorOf(err)
  } finally {
    client.off('error', lost)
    client.release()
  }
}

/**
 * What every migration (and the owner's team migrate on a current schema) ends with: the members'
 * rights given again over every table and function (a new one starts with the defaults), and the
 * order of ends moved ahead of the clock in milliseconds, so that after a restore of an older dump
 * no end is numbered below a mark a job prepared before it could hold.
 */
async function afterMigration(client: pg.PoolClient): Promise<void> {
  const group = z
    .object({ group_role: z.string() })
    .parse((await client.query('SELECT group_role FROM team_schema WHERE id = 1')).rows[0]).group_role
  const tables = z
    .array(z.object({ tablename: z.string() }))
    .parse(
      (await client.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'team\\_%'`))
        .rows,
    )
  for (const statement of grantsFor(
    group,
    tables.map((t) => t.tablename),
  ))
    await client.query(statement)
  await client.query(
    `SELECT setval('team_end_seq', greatest((SELECT last_value FROM team_end_seq), (extract(epoch FROM now()) * 1000)::bigint))`,
  )
}
