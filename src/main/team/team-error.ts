/**
 * Why a team database step failed, as a code the screens and the command line translate
 * (team.* in the catalogues). Never the connection string or the password.
 */
import { LedgerUnavailable } from '../jobs/ledger/ledger-error'

export const TEAM_ERROR_CODES = [
  /** The database cannot be reached (down, refused, timed out, connection lost): nothing is sent in team mode. */
  'team.unreachable',
  /** The database refused the login or the TLS check. */
  'team.refused',
  /** The schema was made by a newer app: this one reads what it can and writes nothing until updated. */
  'team.schemaNewer',
  /** The schema is older than this app's: it reads what it can and writes nothing until the owner runs `hosting-admin team migrate`. */
  'team.schemaOlder',
  /** No team schema yet (`hosting-admin team init`). */
  'team.notInitialised',
  /** The service could not be asked which account an account's key reaches (account-identity.ts): no write in team mode until it can. */
  'team.accountUnreachable',
  /** The team's proofs of its accounts are too old to tell whether a key reaches one of them: a member whose key is linked must use it first. */
  'team.accountUnproven',
  /** Anything else the database said (the SQLSTATE is kept as a parameter). */
  'team.failed',
] as const
export type TeamErrorCode = (typeof TEAM_ERROR_CODES)[number]

/** A team database step that failed: to the runner, a ledger that cannot take a step now. */
export class TeamError extends LedgerUnavailable {
  constructor(
    override readonly code: TeamErrorCode,
    params: Record<string, string | number> = {},
  ) {
    super(code, params)
    this.name = 'TeamError'
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN', 'ENOENT'])
/** SQLSTATE classes of a server going away: 08 connection exception, 57P01-57P03 shutdown / cannot connect now. */
const isConnectionState = (s: string) => s.startsWith('08') || s === '57P01' || s === '57P02' || s === '57P03'

const fieldOf = (err: unknown, name: string): string | undefined => {
  if (typeof err !== 'object' || err === null || !(name in err)) return undefined
  const v: unknown = Reflect.get(err, name)
  return typeof v === 'string' ? v : undefined
}

/** Whether a failure means the connection (not the statement) failed: the step may be tried again on a new one. */
export function isConnectionLoss(err: unknown): boolean {
  if (err instanceof TeamError) return err.code === 'team.unreachable'
  const code = fieldOf(err, 'code')
  if (code !== undefined && (CONNECTION_CODES.has(code) || isConnectionState(code))) return true
  const message = err instanceof Error ? err.message : ''
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i.test(message)
}

/** Any failure of a database step, as a TeamError (already one: kept). */
export function teamErrorOf(err: unknown): TeamError {
  if (err instanceof TeamError) return err
  if (isConnectionLoss(err)) return new TeamError('team.unreachable')
  const code = fieldOf(err, 'code')
  // 28xxx: invalid authorisation; TLS failures come from node's tls with ERR_TLS_* / certificate codes.
  if (code !== undefined && (code.startsWith('28') || code.startsWith('ERR_TLS') || /CERT|SELF_SIGNED/.test(code))) return new TeamError('team.refused', { reason: code })
  return new TeamError('team.failed', code !== undefined ? { sqlstate: code } : {})
}
