/**
 * The main-process side of the Team section of "Accounts & settings" (issue 37 point 1): test a
 * connection, connect (the schema created or migrated, the password into the OS keychain, the rest
 * into team.json), say the status (schema version, this workstation, the workstations connected),
 * disconnect. Returns data and TeamError codes; the window words them. The password crosses
 * here once, from the form to the keychain, and is never written to a file. The form always names
 * its encryption (the window offers TLS first: issue 50); the connection's failures come with its
 * names (connection.ts).
 */
import { rm } from 'node:fs/promises'
import type { SecretStore } from '../accounts/secret-store'
import type { TeamSslMode } from '@shared/team'
import { openTeamPool, sslModeOf, type TeamConnection } from './connection'
import { ensureSchema, schemaStatus, SCHEMA_VERSION } from './schema'
import { registerWorkstation, teamWorkstations, type TeamWorkstation } from './team-directory'
import { TeamError, teamErrorOf } from './team-error'
import {
  readTeamSettings,
  teamPasswordKey,
  teamSettingsFileOf,
  teamSettingsSchema,
  writeTeamSettings,
  type TeamSettings,
} from './team-settings'

export type TeamStatus =
  | { configured: false }
  | {
      configured: true
      member: string
      workstation: string
      where: string
      sslmode: TeamSslMode
      version: number
      workstations: TeamWorkstation[]
    }

const whereOf = (c: TeamConnection) => `${c.database}@${c.host}:${c.port}`

export class TeamSettingsService {
  constructor(
    private readonly dataDir: string,
    /** The OS keychain under TEAM_KEYCHAIN_SERVICE. */
    private readonly keychain: () => Promise<SecretStore>,
  ) {}

  /** Whether the database answers with these settings and what schema it has; nothing is written. */
  async test(
    settings: TeamSettings,
    password: string | undefined,
  ): Promise<{ schema: 'absent' | 'current' | 'older' | 'newer'; version?: number }> {
    const s = teamSettingsSchema.parse(settings)
    const pool = openTeamPool(s.connection, { password, max: 1 })
    try {
      const st = await schemaStatus(pool)
      return st.state === 'absent' ? { schema: 'absent' } : { schema: st.state, version: st.version }
    } finally {
      await pool.end().catch(() => undefined)
    }
  }

  /** Connects this workstation: schema ensured (a newer one refused), then the password kept in the keychain and the settings in team.json. */
  async connect(settings: TeamSettings, password: string | undefined): Promise<TeamStatus> {
    const s = teamSettingsSchema.parse(settings)
    const pool = openTeamPool(s.connection, { password, max: 1 })
    try {
      await ensureSchema(pool, { create: true })
      await registerWorkstation(pool, s.member, s.workstation)
    } finally {
      await pool.end().catch(() => undefined)
    }
    const store = await this.keychain()
    if (password !== undefined && password !== '') await store.set(teamPasswordKey(s.connection), password)
    await writeTeamSettings(this.dataDir, s)
    return this.status()
  }

  async status(): Promise<TeamStatus> {
    const s = await readTeamSettings(this.dataDir)
    if (!s) return { configured: false }
    const password = await (await this.keychain()).get(teamPasswordKey(s.connection))
    const pool = openTeamPool(s.connection, { password, max: 1 })
    try {
      const st = await schemaStatus(pool)
      if (st.state === 'absent') throw new TeamError('team.notInitialised')
      if (st.state === 'newer')
        throw new TeamError('team.schemaNewer', { found: st.version, supported: SCHEMA_VERSION })
      return {
        configured: true,
        member: s.member,
        workstation: s.workstation,
        where: whereOf(s.connection),
        sslmode: sslModeOf(s.connection),
        version: st.version,
        workstations: await teamWorkstations(pool),
      }
    } catch (err) {
      throw teamErrorOf(err)
    } finally {
      await pool.end().catch(() => undefined)
    }
  }

  /** Team mode off for this workstation: settings and keychain entry removed; the team's data stays in the database. */
  async disconnect(): Promise<void> {
    const s = await readTeamSettings(this.dataDir)
    if (!s) return
    await (await this.keychain()).delete(teamPasswordKey(s.connection))
    await rm(teamSettingsFileOf(this.dataDir), { force: true })
  }
}
