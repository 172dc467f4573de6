/**
 * The team's members as the owner manages them (issue 50 point 1): each a login role of its own in
 * the team's group role (team-rights.ts), so the database knows who wrote every row and refuses
 * what a member may not do. Run with the owner's login (the one that ran `team init`): adding a
 * role needs PostgreSQL's CREATEROLE. A member removed keeps their name on every row they wrote;
 * their login no longer opens.
 */
import type pg from 'pg'
import { z } from 'zod'
import { TeamError, teamErrorOf } from './team-error'
import { quoteIdent } from './team-rights'

/** A member's name is a PostgreSQL role name: letters, digits, `_`, `-` and `.`, 63 at most, starting with a letter. */
export const memberNameSchema = z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,62}$/)

async function groupRole(pool: pg.Pool): Promise<string> {
  const row: unknown = (await pool.query('SELECT group_role FROM team_schema WHERE id = 1')).rows[0]
  const parsed = z.object({ group_role: z.string() }).safeParse(row)
  if (!parsed.success)
    throw new TeamError('team.schemaOlder', { found: 0, supported: 0, command: 'hosting-admin team migrate' })
  return parsed.data.group_role
}

/** A member's login added (or, for one removed before, given back), with this password; their name recorded. */
export async function addMember(pool: pg.Pool, name: string, password: string): Promise<void> {
  const member = memberNameSchema.parse(name)
  try {
    const group = await groupRole(pool)
    const exists = (await pool.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [member])).rows.length > 0
    // A role of the cluster that is not one of the team's members is never taken over (its password changed).
    if (exists && (await pool.query('SELECT 1 FROM team_members WHERE name = $1', [member])).rows.length === 0)
      throw new TeamError('team.failed', { step: 'addMember', reason: 'roleExists' })
    // The password goes as a literal of the statement (PostgreSQL takes no parameter there), quoted by the server's own rule.
    const literal = z
      .object({ q: z.string() })
      .parse((await pool.query('SELECT quote_literal($1) AS q', [password])).rows[0]).q
    await pool.query(`${exists ? 'ALTER' : 'CREATE'} ROLE ${quoteIdent(member)} LOGIN PASSWORD ${literal}`)
    await pool.query(`GRANT ${quoteIdent(group)} TO ${quoteIdent(member)}`)
    await pool.query('INSERT INTO team_members (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [member])
  } catch (err) {
    throw teamErrorOf(err)
  }
}

/** A member's login closed and taken out of the team's group; every row they wrote keeps their name. */
export async function removeMember(pool: pg.Pool, name: string): Promise<void> {
  const member = memberNameSchema.parse(name)
  try {
    const group = await groupRole(pool)
    await pool.query(`REVOKE ${quoteIdent(group)} FROM ${quoteIdent(member)}`)
    await pool.query(`ALTER ROLE ${quoteIdent(member)} NOLOGIN`)
  } catch (err) {
    throw teamErrorOf(err)
  }
}

/** How long settled jobs stay beside the open ones before they move to the archive (the owner's; default 90 days). */
export async function setRetention(pool: pg.Pool, days: number): Promise<void> {
  try {
    await pool.query('UPDATE team_settings SET retention_days = $1 WHERE id = 1', [days])
  } catch (err) {
    throw teamErrorOf(err)
  }
}
