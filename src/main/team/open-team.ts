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

/**
 * Local ids and team fingerprints, both ways; an account without a key here stays local-only.
 * Accounts added after the ledger opened are learnt on their first write (learn()).
 */
export class TeamAccountFingerprints implements TeamAccountMap {
  private readonly team = new Map<string, string>()
  private readonly local = new Map<string, string>()
  private teamId: string | undefined

  constructor(private readonly keyOf: TeamKeys['keyOf']) {}

  /** The team's id known (from its schema): the accounts given are fingerprinted now. */
  async startTeam(teamId: string, accountIds: readonly string[]): Promise<void> {
    this.teamId = teamId
    for (const id of accountIds) await this.learn(id)
  }

  /** An account's fingerprint computed once from its key (no key here: it stays local-only). */
  async learn(accountId: string): Promise<void> {
    if (this.teamId === undefined || this.team.has(accountId)) return
    const key = await this.keyOf(accountId)
    if (key === undefined) return
    const fp = accountFingerprint(key, this.teamId)
    this.team.set(accountId, fp)
    this.local.set(fp, accountId)
  }

  // An account without a key cannot write anyway; its id is kept apart from every fingerprint.
  toTeam = (id: string): string => this.team.get(id) ?? `local:${id}`
  toLocal = (fp: string): string | undefined => this.local.get(fp)
}

export async function openConfiguredTeamLedger(dataDir: string, keys: TeamKeys, accounts = new TeamAccountFingerprints(keys.keyOf)): Promise<TeamLedger | undefined> {
  const settings = await readTeamSettings(dataDir)
  if (!settings) return undefined
  const c = settings.connection
  const pool = openTeamPool(c, { password: await keys.passwordOf(teamPasswordKey(c)) })
  try {
    // Created or migrated on first use; a newer schema refused (team.schemaNewer) before anything is written.
    const { teamId } = await ensureSchema(pool, { create: true })
    await accounts.startTeam(teamId, keys.accountIds)
    return await TeamLedger.open({ pool, member: settings.member, workstation: settings.workstation, where: `${c.database}@${c.host}:${c.port}`, accounts, ownsPool: true, ...(settings.leaseMs !== undefined ? { leaseMs: settings.leaseMs } : {}) })
  } catch (err) {
    await pool.end().catch(() => undefined)
    throw err
  }
}
