/**
 * Why a team database step failed, as a code the screens and the command line translate
 * (team.* in the catalogues), each cause its own (issue 50 point 6), with the parameters its
 * sentence names. Never the connection string or the password.
 */
import type { ErrorKind } from '@shared/errors'
import { LedgerUnavailable } from '../jobs/ledger/ledger-error'

/** The TLS failures: the window titles each as one (teamErrorKind). */
const TLS_ERROR_CODES = [
  /** The server accepts `user` from this machine over TLS only, and the connection was in clear text. */
  'team.tlsRequired',
  /** TLS was asked for and the server `host` does not speak it. */
  'team.tlsUnsupported',
  /** The server's certificate is not signed by the CA in `file`. */
  'team.tlsWrongCa',
  /** verify-full without a CA file: the server's certificate is not signed by a CA this system trusts. */
  'team.tlsUntrusted',
  /** The server's certificate does not name `host`. */
  'team.tlsHostMismatch',
  /** The server's certificate has expired (or is not valid yet). */
  'team.tlsExpired',
  /** Any other TLS failure (`reason`: node's code). */
  'team.tlsFailed',
  /** The CA file `file` could not be read (`reason`: the system's code). */
  'team.caFileUnreadable',
] as const

export const TEAM_ERROR_CODES = [
  /** The database cannot be reached (down, refused, timed out, connection lost): nothing is sent in team mode. No parameters (some producers have none to give). */
  'team.unreachable',
  /** Connected, but a statement got no answer within the query time-out (a server frozen or overloaded). */
  'team.hung',
  /** The login refused for a reason no other code names (a 28xxx SQLSTATE: `reason`). */
  'team.refused',
  /** 28P01: the password of `user` was not accepted. */
  'team.passwordRefused',
  /** 28000: `user` may not log in (no such role, or no pg_hba.conf line lets this machine in). */
  'team.loginRefused',
  /** The server asked `user`'s password and there is none: no keychain entry, no PGPASSWORD, no line in `passfile`. */
  'team.noPassword',
  /** The password file `passfile` was ignored, as libpq ignores it, because its group or others may read it (or it is not a plain file). */
  'team.passfileInsecure',
  /** 3D000: no database `database` on the server. */
  'team.unknownDatabase',
  /** 42501: the team's user lacks a right the step needs; `right` is what PostgreSQL named (e.g. "permission denied for schema public"). */
  'team.noRight',
  ...TLS_ERROR_CODES,
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

const TLS_CODES = new Set<TeamErrorCode>(TLS_ERROR_CODES)

/**
 * The kind of a team failure, whose title the window shows above its sentence (error.kind.*):
 * the database away or frozen, a TLS failure, and every other refusal of the team database each
 * titled as such, never "Unexpected error". The two about the service keep the service's kinds.
 */
export function teamErrorKind(code: TeamErrorCode): ErrorKind {
  if (code === 'team.unreachable' || code === 'team.hung') return 'team-unreachable'
  if (TLS_CODES.has(code)) return 'team-tls'
  if (code === 'team.accountUnreachable') return 'unavailable'
  // A colleague must renew the proof first: as a write another holds, with the way to Writes.
  if (code === 'team.accountUnproven') return 'busy'
  return 'team-database'
}

/** A team database step that failed: to the runner, a ledger that cannot take a step now. */
export class TeamError extends LedgerUnavailable {
  constructor(
    override readonly code: TeamErrorCode,
    params: Record<string, string | number> = {},
  ) {
    super(code, params, teamErrorKind(code))
    this.name = 'TeamError'
  }
}

/** What the connection knew when it failed: fills the parameters the error itself does not carry. */
export interface TeamErrorContext {
  host: string
  port: number
  database: string
  user: string
  caFile?: string | undefined
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'EAI_AGAIN',
  'ENOENT',
])
/** SQLSTATE classes of a server going away: 08 connection exception, 57P01-57P03 shutdown / cannot connect now. */
const isConnectionState = (s: string) => s.startsWith('08') || s === '57P01' || s === '57P02' || s === '57P03'

const fieldOf = (err: unknown, name: string): string | undefined => {
  if (typeof err !== 'object' || err === null || !(name in err)) return undefined
  const v: unknown = Reflect.get(err, name)
  return typeof v === 'string' ? v : undefined
}
const messageOf = (err: unknown) => (err instanceof Error ? err.message : '')

/** Whether a failure means the connection (not the statement) failed: the step may be tried again on a new one. */
export function isConnectionLoss(err: unknown): boolean {
  if (err instanceof TeamError) return err.code === 'team.unreachable'
  const code = fieldOf(err, 'code')
  if (code !== undefined && (CONNECTION_CODES.has(code) || isConnectionState(code))) return true
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i.test(
    messageOf(err),
  )
}

/** Node's codes of a certificate its CA list does not vouch for (openssl's X509_V_ERR_* names). */
const UNTRUSTED_CERT = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'CERT_REJECTED',
])

/** A TLS failure as its code; undefined when `err` is no TLS failure. */
function tlsErrorOf(err: unknown, code: string | undefined, ctx: TeamErrorContext | undefined): TeamError | undefined {
  const host = ctx?.host ?? ''
  const message = messageOf(err)
  if (/server does not support SSL/i.test(message)) return new TeamError('team.tlsUnsupported', { host })
  if (code === undefined)
    return /error establishing an SSL connection/i.test(message)
      ? new TeamError('team.tlsFailed', { reason: 'handshake' })
      : undefined
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return new TeamError('team.tlsHostMismatch', { host: host || (fieldOf(err, 'host') ?? '') })
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return new TeamError('team.tlsExpired', { host })
  if (UNTRUSTED_CERT.has(code))
    return ctx?.caFile
      ? new TeamError('team.tlsWrongCa', { file: ctx.caFile, host })
      : new TeamError('team.tlsUntrusted', { host })
  if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT/.test(code))
    return new TeamError('team.tlsFailed', { reason: code })
  return undefined
}

/**
 * The right PostgreSQL said is missing, in its own words ("permission denied for schema public",
 * "must be owner of table team_jobs"); the whole message when it says it otherwise (a server
 * answering in another language).
 */
function rightOf(message: string): string {
  const m = /(permission denied (?:for|to) [^\n]+|must be owner of [^\n]+)/i.exec(message)
  return (m?.[1] ?? message).trim() || '42501'
}

/** The name a server message quotes after `before` (e.g. `database "x"`), when it is in English. */
const quoted = (message: string, before: string): string | undefined =>
  new RegExp(`${before} "([^"]*)"`).exec(message)?.[1]

/**
 * Any failure of a database step, as a TeamError (already one: kept). `ctx`, when the caller knows
 * the connection, fills the names a sentence gives (the user, the database, the host, the CA file).
 */
export function teamErrorOf(err: unknown, ctx?: TeamErrorContext): TeamError {
  if (err instanceof TeamError) return err
  const code = fieldOf(err, 'code')
  const message = messageOf(err)
  const tls = tlsErrorOf(err, code, ctx)
  if (tls) return tls
  if (/Query read timeout/i.test(message)) return new TeamError('team.hung')
  if (isConnectionLoss(err)) return new TeamError('team.unreachable')
  if (code === '3D000')
    return new TeamError('team.unknownDatabase', { database: ctx?.database ?? quoted(message, 'database') ?? '' })
  if (code === '42501') return new TeamError('team.noRight', { right: rightOf(message) })
  const user = ctx?.user ?? quoted(message, 'user') ?? quoted(message, 'role') ?? ''
  if (code === '28P01') return new TeamError('team.passwordRefused', { user })
  if (code === '28000') {
    // PostgreSQL's words for a pg_hba.conf that has a hostssl line only (in English; other languages read as a refused login).
    if (/no encryption|SSL off/i.test(message))
      return new TeamError('team.tlsRequired', { host: ctx?.host ?? '', user })
    return new TeamError('team.loginRefused', { user })
  }
  if (code !== undefined && code.startsWith('28')) return new TeamError('team.refused', { reason: code })
  return new TeamError('team.failed', code !== undefined ? { sqlstate: code } : {})
}
