/**
 * The connection to a team's PostgreSQL (issue 37): settings without the password (kept in the
 * OS keychain by the caller and handed in), TLS with sslmode=verify-full and a CA file, short
 * time-outs so that a database away is said at once rather than waited for.
 */
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { z } from 'zod'
import { TEAM_SSL_MODES } from '../../shared/team'

export const teamConnectionSchema = z.object({
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  database: z.string().min(1),
  user: z.string().min(1),
  /** require: TLS without a certificate check (as libpq's); verify-full: TLS, the server's certificate checked against caFile and its name against host. */
  sslmode: z.enum(TEAM_SSL_MODES).default('disable'),
  caFile: z.string().optional(),
})
export type TeamConnection = z.infer<typeof teamConnectionSchema>

export interface PoolOptions {
  /** From the OS keychain; never written to a file. */
  password?: string | undefined
  /** How long to wait for a connection before saying the database is away. */
  connectTimeoutMs?: number
  max?: number
}

export function openTeamPool(c: TeamConnection, o: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    host: c.host,
    port: c.port,
    database: c.database,
    user: c.user,
    ...(o.password !== undefined ? { password: o.password } : {}),
    ...(c.sslmode === 'verify-full' ? { ssl: { rejectUnauthorized: true, servername: c.host, ...(c.caFile ? { ca: readFileSync(c.caFile, 'utf8') } : {}) } } : {}),
    ...(c.sslmode === 'require' ? { ssl: { rejectUnauthorized: false } } : {}),
    connectionTimeoutMillis: o.connectTimeoutMs ?? 3000,
    // A statement that hangs (a server frozen) fails rather than holding a write forever.
    query_timeout: 10_000,
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
