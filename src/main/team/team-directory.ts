/** Who is in the team (issue 37 point 1: each workstation shows its own name and the members connected). */
import type pg from 'pg'
import { z } from 'zod'
import { teamErrorOf } from './team-error'

const workstationRow = z.object({ name: z.string(), member: z.string(), last_seen: z.date() })
export type TeamWorkstation = { workstation: string; member: string; lastSeen: string }

export async function teamWorkstations(pool: pg.Pool): Promise<TeamWorkstation[]> {
  try {
    const rows = (await pool.query('SELECT name, member, last_seen FROM team_workstations ORDER BY last_seen DESC'))
      .rows
    return rows.map((raw) => {
      const r = workstationRow.parse(raw)
      return { workstation: r.name, member: r.member, lastSeen: r.last_seen.toISOString() }
    })
  } catch (err) {
    throw teamErrorOf(err)
  }
}

/**
 * Records this member (as the team knows it: a member's login is its role), workstation and, when
 * given, process (several processes of one workstation are told apart by it) as connected now
 * (team-rights.ts team_register). Returns the member's name as the team knows it.
 */
export async function registerProcess(
  pool: pg.Pool,
  r: { member: string; workstation: string; process?: string | undefined; pid?: number | undefined },
): Promise<string> {
  try {
    const row: unknown = (
      await pool.query('SELECT team_register($1, $2, $3, $4) AS member', [
        r.workstation,
        r.process ?? null,
        r.pid ?? null,
        r.member,
      ])
    ).rows[0]
    return z.object({ member: z.string() }).parse(row).member
  } catch (err) {
    throw teamErrorOf(err)
  }
}

/** Records this workstation (and its member) as connected now. */
export async function registerWorkstation(pool: pg.Pool, member: string, workstation: string): Promise<void> {
  await registerProcess(pool, { member, workstation })
}
