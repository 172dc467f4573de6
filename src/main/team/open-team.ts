/**
 * Team mode as a data folder configures it (team.json): the pool with the password from the
 * keychain, the schema checked, and the team ledger whose accounts are this workstation's own
 * keys' accounts as the team knows them (account-identity.ts: one account whatever key reaches it). The single place app-services and the command
 * line call once the runner takes a WriteLedger (issue 36): undefined when team mode is off.
 */
import { openTeamPool } from './connection'
import { TeamAccountIdentities, type AccountKeys } from './account-identity'
import { schemaStatus } from './schema'
import { TeamError } from './team-error'
import { TeamLedger } from './team-ledger'
import { readTeamSettings, teamPasswordKey } from './team-settings'

export interface TeamKeys extends AccountKeys {
  /** This workstation's accounts (their local ids). */
  accountIds: readonly string[]
  /** The team database's password, from the keychain (TEAM_KEYCHAIN_SERVICE). */
  passwordOf(entry: string): Promise<string | undefined>
}

export async function openConfiguredTeamLedger(
  dataDir: string,
  keys: TeamKeys,
  accounts?: TeamAccountIdentities,
): Promise<TeamLedger | undefined> {
  const settings = await readTeamSettings(dataDir)
  if (!settings) return undefined
  const c = settings.connection
  // The keychain asked once, when the server first asks for a password (never, for a trust or certificate login).
  let password: Promise<string | undefined> | undefined
  const pool = openTeamPool(c, { password: () => (password ??= keys.passwordOf(teamPasswordKey(c))) })
  try {
    // Never changed here (issue 50 point 4): only the owner's `team init` creates it and `team
    // migrate` changes it. A schema of another version is read as far as it can be; no write is sent.
    const schema = await schemaStatus(pool)
    if (schema.state === 'absent') throw new TeamError('team.notInitialised', { command: 'hosting-admin team init' })
    const identities = accounts ?? new TeamAccountIdentities(keys, settings.member)
    if (schema.state === 'current') await identities.startTeam(pool, schema.teamId, keys.accountIds)
    return await TeamLedger.open({
      pool,
      member: settings.member,
      workstation: settings.workstation,
      where: `${c.database}@${c.host}:${c.port}`,
      accounts: identities,
      schema,
      ownsPool: true,
      ...(settings.leaseMs !== undefined ? { leaseMs: settings.leaseMs } : {}),
    })
  } catch (err) {
    await pool.end().catch(() => undefined)
    throw err
  }
}
