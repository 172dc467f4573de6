/**
 * Where a workstation keeps its team connection (issue 37 point 1): `team.json` in its data folder,
 * readable by the user only, with host, port, database, user, TLS and this workstation's names,
 * never the password, which lives in the OS keychain (TEAM_KEYCHAIN_SERVICE, keyed by
 * user@host:port/database) like the API keys.
 */
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { hostname, userInfo } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { teamConnectionSchema, type TeamConnection } from './connection'

export const TEAM_KEYCHAIN_SERVICE = 'hosting-admin.team-database'

export const teamSettingsSchema = z.object({
  connection: teamConnectionSchema,
  /** Who this is in the team's history and leases. */
  member: z.string().min(1),
  workstation: z.string().min(1),
  /**
   * How long a write lease lives without renewal (default 15 s): how soon a crashed or frozen
   * workstation's targets are taken from it. Rarely changed; the tests of crashes shorten it.
   */
  leaseMs: z.number().int().min(500).max(600_000).optional(),
})
export type TeamSettings = z.infer<typeof teamSettingsSchema>

export const teamSettingsFileOf = (dataDir: string) => join(dataDir, 'team.json')

/** The keychain entry of a connection's password. */
export const teamPasswordKey = (c: TeamConnection) => `${c.user}@${c.host}:${c.port}/${c.database}`

/** This machine's defaults: the OS user as member, the host name as workstation. */
export function defaultNames(): { member: string; workstation: string } {
  let member = 'member'
  try {
    member = userInfo().username || member
  } catch {
    // No user name (a container without passwd entry): the placeholder.
  }
  return { member, workstation: hostname() || 'workstation' }
}

/** The settings, or undefined when team mode is not configured (no file). A damaged file is an error. */
export async function readTeamSettings(dataDir: string): Promise<TeamSettings | undefined> {
  let text: string
  try {
    text = await readFile(teamSettingsFileOf(dataDir), 'utf8')
  } catch (err) {
    if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT') return undefined
    throw err
  }
  const json: unknown = JSON.parse(text)
  return teamSettingsSchema.parse(json)
}

export async function writeTeamSettings(dataDir: string, s: TeamSettings): Promise<void> {
  await mkdir(dataDir, { recursive: true })
  const file = teamSettingsFileOf(dataDir)
  const tmp = `${file}.tmp`
  try {
    await writeFile(tmp, `${JSON.stringify(teamSettingsSchema.parse(s), null, 2)}\n`, { mode: 0o600 })
    await chmod(tmp, 0o600)
    await rename(tmp, file)
  } catch (err) {
    // A full disk: team.json stays as it was, with no half copy beside it.
    await rm(tmp, { force: true })
    throw err
  }
}
