/** Who is in the team (issue 37 point 1: each workstation shows its own name and the members connected). */
import type pg from 'pg'
import { z } from 'zod'
import { teamErrorOf } from './team-error'

const workstationRow = z.object({ name: z.string(), member: z.string(), last_seen: z.date() })
export type TeamWorkstation = { workstation: string; member: string; lastSeen: string }

export async function teamWorkstations(pool: pg.Pool): Promise<TeamWorkstation[]> {
  try {
    const rows = (await pool.query('SELECT name, member, last_seen FROM team_workstations ORDER BY last_seen DESC')).rows
    return rows.map((raw) => {
      const r = workstationRow.parse(raw)
      return { workstation: r.name, member: r.member, lastSeen: r.last_seen.toISOString() }
    })
  } catch (err) {
    throw teamErrorOf(err)
  }
}

/** Records this workstation (and its member) as connected now. */
/** This process of a workstation, its pid with it (several processes of one workstation are told apart by it). */
export async function registerProcess(pool: pg.Pool, id: string, workstation: string, pid: number): Promise<void> {
  try {
    await pool.query('INSERT INTO team_processes (id, workstation, pid) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET last_seen = now()', [id, workstation, pid])
  } catch (err) {
    throw teamErrorOf(err)
  }
}

export async function registerWorkstation(pool: pg.Pool, member: string, workstation: string): Promise<void> {
  try {
    await pool.query('INSERT INTO team_members (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [member])
    await pool.query('INSERT INTO team_workstations (name, member) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET member = $2, last_seen = now()', [workstation, member])
  } catch (err) {
    throw teamErrorOf(err)
  }
}
