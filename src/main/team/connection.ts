/**
 * The connection to a team's PostgreSQL (issue 37): settings without the password (kept in the
 * OS keychain by the caller and handed in), TLS as the settings say (issue 50: verify-full with a
 * CA file, require at least to a host that is not loopback, clear text only when asked for by
 * name), short time-outs so that a database away is said at once rather than waited for.
 *
 * Nothing here writes to stderr in a normal run (cron mails it, certbot reports a hook's stderr as
 * an error): the password file is read by the app (pgpass.ts), not by pg's deprecated reader, and
 * no TLS server name is set for an IP address (Node warns of RFC 6066 then; pg sets it for names).
 * A failure to connect says its cause with the connection's names (team-error.ts).
 */
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { z } from 'zod'
import { TEAM_SSL_MODES, type TeamSslMode } from '@shared/team'
import { passwordFromPassfile } from './pgpass'
import { defaultSslMode } from '@shared/team/ssl-mode'
import { TeamError, teamErrorOf, type TeamErrorContext } from './team-error'

export const teamConnectionSchema = z.object({
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  database: z.string().min(1),
  user: z.string().min(1),
  /**
   * disable: clear text; require: TLS without a certificate check (as libpq's); verify-full: TLS,
   * the server's certificate checked against caFile (else the system's CAs) and its name against
   * host. Absent (a team.json written by hand): defaultSslMode, never clear text across a network.
   */
  sslmode: z.enum(TEAM_SSL_MODES).optional(),
  caFile: z.string().optional(),
})
export type TeamConnection = z.infer<typeof teamConnectionSchema>

/** The mode a connection uses: the one its settings name, else the default for its host. */
export const sslModeOf = (c: TeamConnection): TeamSslMode => c.sslmode ?? defaultSslMode(c.host, c.caFile)

export interface PoolOptions {
  /**
   * From the OS keychain; never written to a file. Else PGPASSWORD, else the password file. As a
   * function, asked only when the server asks for a password (trust, peer or certificate logins never open the keychain).
   */
  password?: string | (() => Promise<string | undefined>) | undefined
  /** How long to wait for a connection before saying the database is away. */
  connectTimeoutMs?: number
  max?: number
  /** The environment the password is looked up in (PGPASSWORD, PGPASSFILE, HOME): the process's by default. */
  env?: NodeJS.ProcessEnv
}

/** A statement that hangs (a server frozen) fails after this long rather than holding a write forever. */
const TEAM_QUERY_TIMEOUT_MS = 10_000

/** TLS options for pg: the CA file read now (unreadable: said as such, before any connection). */
function sslOf(c: TeamConnection): pg.ClientConfig['ssl'] {
  const mode = sslModeOf(c)
  if (mode === 'disable') return false
  if (mode === 'require') return { rejectUnauthorized: false }
  if (!c.caFile) return { rejectUnauthorized: true }
  try {
    // No servername here: pg sets it for a host name and leaves it out for an IP address.
    return { rejectUnauthorized: true, ca: readFileSync(c.caFile, 'utf8') }
  } catch (err) {
    const code =
      typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : 'unreadable'
    throw new TeamError('team.caFileUnreadable', { file: c.caFile, reason: code })
  }
}

/**
 * The password when the server asks for one, as libpq finds it: the one given (the keychain's),
 * else PGPASSWORD, else the password file's line for this connection. None anywhere fails the
 * connection with team.noPassword (or team.passfileInsecure when the file was ignored).
 */
function passwordFinder(c: TeamConnection, o: PoolOptions): () => Promise<string> {
  return async () => {
    const given = typeof o.password === 'function' ? await o.password() : o.password
    if (given) return given
    const env = o.env ?? process.env
    if (env.PGPASSWORD) return env.PGPASSWORD
    const fromFile = await passwordFromPassfile({ host: c.host, port: c.port, database: c.database, user: c.user }, env)
    if (fromFile.found) return fromFile.password
    if (fromFile.ignored) throw new TeamError('team.passfileInsecure', { passfile: fromFile.file })
    throw new TeamError('team.noPassword', { user: c.user, passfile: fromFile.file })
  }
}

type ConnectCallback = ((err: Error) => void) | ((err: null, c: pg.Client) => void)

/** pg's client whose failure to connect is its cause with this connection's names (the pool's every connection goes through it). */
function clientWithCauses(ctx: TeamErrorContext) {
  return class TeamClient extends pg.Client {
    override connect(): Promise<pg.Client>
    override connect(callback: ConnectCallback): void
    override connect(callback?: ConnectCallback): Promise<pg.Client> | void {
      const connected = super.connect().catch((err: unknown) => {
        throw teamErrorOf(err, ctx)
      })
      if (!callback) return connected
      // pg-pool asks with a callback; pg's two callback shapes are one function, error first.
      void connected.then(
        (c) => {
          Reflect.apply(callback, undefined, [null, c])
        },
        (err: unknown) => {
          Reflect.apply(callback, undefined, [err])
        },
      )
    }
  }
}

export function openTeamPool(c: TeamConnection, o: PoolOptions = {}): pg.Pool {
  const ctx: TeamErrorContext = {
    host: c.host,
    port: c.port,
    database: c.database,
    user: c.user,
    ...(sslModeOf(c) === 'verify-full' && c.caFile ? { caFile: c.caFile } : {}),
  }
  const pool = new pg.Pool({
    host: c.host,
    port: c.port,
    database: c.database,
    user: c.user,
    password: passwordFinder(c, o),
    // Always said, so that PGSSLMODE in the environment does not change what the settings chose.
    ssl: sslOf(c),
    Client: clientWithCauses(ctx),
    connectionTimeoutMillis: o.connectTimeoutMs ?? 3000,
    query_timeout: TEAM_QUERY_TIMEOUT_MS,
    // Room for a job's workers (4 by default, up to 8), each of which may have two statements at
    // once (a hold let go while its end is journaled), besides the heartbeat and history.
    max: o.max ?? 10,
    idleTimeoutMillis: 30_000,
    application_name: 'hosting-admin',
  })
  // An idle connection dropped by the server (restart, network) must not end the process: the
  // pool discards it and the next step opens a new one.
  pool.on('error', () => undefined)
  return pool
}
