/**
 * Team mode as a data folder configures it (team.json): the pool with the password from the
 * keychain, the schema checked, and the team ledger whose accounts are matched by the keyed
 * fingerprints of this workstation's own keys. The single place app-services and the command
 * line call once the runner takes a WriteLedger (issue 36): undefined when team mode is off.
 */
import { openTeamPool } from './connection'
import { accountFingerprint } from './fingerprint'
import { ensureSchema } from './schema'
import { TeamLedger, type TeamAccountMap } from './team-ledger'
import { readTeamSettings, teamPasswordKey } from './team-settings'

export interface TeamKeys {
  /** This workstation's accounts (their local ids). */
  accountIds: readonly string[]
  /** An account's API key, from the keychain; used only to compute its fingerprint here. */
  keyOf(accountId: string): Promise<string | undefined>
  /** The team database's password, from the keychain (TEAM_KEYCHAIN_SERVICE). */
  passwordOf(entry: string): Promise<string | undefined>
}

/** Local ids and team fingerprints, both ways; an account without a key here stays local-only. */
async function accountMapOf(keys: Pick<TeamKeys, 'accountIds' | 'keyOf'>, teamId: string): Promise<TeamAccountMap> {
  const toTeam = new Map<string, string>()
  const toLocal = new Map<string, string>()
  for (const id of keys.accountIds) {
    const key = await keys.keyOf(id)
    if (key === undefined) continue
    const fp = accountFingerprint(key, teamId)
    toTeam.set(id, fp)
    toLocal.set(fp, id)
  }
  return {
    // An account without a key cannot write anyway; its id is kept apart from every fingerprint.
    toTeam: (id) => toTeam.get(id) ?? `local:${id}`,
    toLocal: (fp) => toLocal.get(fp),
  }
}

export async function openConfiguredTeamLedger(dataDir: string, keys: TeamKeys): Promise<TeamLedger | undefined> {
  const settings = await readTeamSettings(dataDir)
  if (!settings) return undefined
  const c = settings.connection
  const pool = openTeamPool(c, { password: await keys.passwordOf(teamPasswordKey(c)) })
  try {
    // Created or migrated on first use; a newer schema refused (team.schemaNewer) before anything is written.
    const { teamId } = await ensureSchema(pool, { create: true })
    const accounts = await accountMapOf(keys, teamId)
    return await TeamLedger.open({ pool, member: settings.member, workstation: settings.workstation, where: `${c.database}@${c.host}:${c.port}`, accounts, ownsPool: true })
  } catch (err) {
    await pool.end().catch(() => undefined)
    throw err
  }
}
