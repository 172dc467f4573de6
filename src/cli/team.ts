/**
 * hosting-admin team init|status|migrate (issue 37 point 1): team mode from a script. `init`
 * records the connection in the data folder's team.json (never the password) and creates or
 * migrates the schema; `status` says the schema's version and who is connected; `migrate` brings
 * an older schema to this app's version. The password comes from the keychain entry the app's
 * Team section keeps, else PostgreSQL's own PGPASSWORD or ~/.pgpass (read as libpq reads it:
 * pgpass.ts); never from argv.
 *
 * TLS by default (issue 50): `--ca-file` is verify-full, a host that is not loopback gets require
 * at least, clear text only with `--unencrypted`; each run says how it is connected. Every failure
 * is its own sentence (team-error.ts), never a stack trace; a run that succeeds writes nothing on
 * stderr (cron mails it, certbot reports a hook's stderr as an error).
 */
import type pg from 'pg'
import { KeytarSecretStore, loadKeytar } from '../main/accounts/secret-store'
import { openTeamPool, sslModeOf, teamConnectionSchema, type TeamConnection } from '../main/team/connection'
import { ensureSchema, schemaStatus, SCHEMA_VERSION } from '../main/team/schema'
import { chooseSslMode, isLoopbackHost } from '@shared/team/ssl-mode'
import { registerWorkstation, teamWorkstations } from '../main/team/team-directory'
import { TeamError, teamErrorOf } from '../main/team/team-error'
import {
  defaultNames,
  readTeamSettings,
  teamPasswordKey,
  TEAM_KEYCHAIN_SERVICE,
  writeTeamSettings,
  type TeamSettings,
} from '../main/team/team-settings'
import type { MessageKey } from '@shared/i18n/catalogue'
import { EXIT, type Io } from './context'
import type { Texts } from './text'

export interface TeamOptions {
  host?: string | undefined
  port?: string | undefined
  database?: string | undefined
  user?: string | undefined
  'ca-file'?: string | undefined
  sslmode?: string | undefined
  unencrypted?: boolean | undefined
  member?: string | undefined
  workstation?: string | undefined
  json?: boolean | undefined
}

/** The keychain's password for this connection, if the keychain is there and has one. */
async function passwordOf(c: TeamConnection): Promise<string | undefined> {
  try {
    return await new KeytarSecretStore(await loadKeytar(), TEAM_KEYCHAIN_SERVICE).get(teamPasswordKey(c))
  } catch {
    // No keychain (cron, systemd): PostgreSQL's own PGPASSWORD / ~/.pgpass (connection.ts).
    return undefined
  }
}

type FromFlags = { ok: true; settings: TeamSettings } | { ok: false; key: MessageKey }

function settingsFromFlags(v: TeamOptions): FromFlags {
  if (v.sslmode !== undefined && v.sslmode !== 'require' && v.sslmode !== 'verify-full')
    return { ok: false, key: 'cli.team.badSslmode' }
  if (!v.host) return { ok: false, key: 'cli.team.needsConnection' }
  const tls = chooseSslMode({ host: v.host, caFile: v['ca-file'], sslmode: v.sslmode, unencrypted: v.unencrypted })
  if (!tls.ok)
    return {
      ok: false,
      key: tls.problem === 'unencryptedWithTls' ? 'cli.team.unencryptedWithTls' : 'cli.team.caFileNeedsVerifyFull',
    }
  const parsed = teamConnectionSchema.safeParse({
    host: v.host,
    port: v.port === undefined ? 5432 : Number(v.port),
    database: v.database,
    user: v.user,
    sslmode: tls.mode,
    ...(v['ca-file'] ? { caFile: v['ca-file'] } : {}),
  })
  if (!parsed.success) return { ok: false, key: 'cli.team.needsConnection' }
  const names = defaultNames()
  return {
    ok: true,
    settings: {
      connection: parsed.data,
      member: v.member ?? names.member,
      workstation: v.workstation ?? names.workstation,
    },
  }
}

/** How this run is connected, in words: every run says it (a clear-text connection is never silent). */
function connectionLine(c: TeamConnection, say: Texts): string {
  const mode = sslModeOf(c)
  if (mode === 'verify-full')
    return c.caFile
      ? say.t('cli.team.connection.verifyFull', { caFile: c.caFile, host: c.host })
      : say.t('cli.team.connection.verifyFullSystem', { host: c.host })
  if (mode === 'require') return say.t('cli.team.connection.require')
  return say.t(isLoopbackHost(c.host) ? 'cli.team.connection.loopback' : 'cli.team.connection.unencrypted')
}

export async function team(
  verb: string | undefined,
  v: TeamOptions,
  dataDir: string,
  io: Io,
  say: Texts,
): Promise<number> {
  if (verb !== 'init' && verb !== 'status' && verb !== 'migrate') {
    io.err(say.t('cli.team.unknownVerb'))
    return EXIT.badInput
  }
  let settings: TeamSettings | undefined
  if (verb === 'init') {
    const read = settingsFromFlags(v)
    if (!read.ok) {
      io.err(say.t(read.key))
      return EXIT.badInput
    }
    settings = read.settings
  } else {
    settings = await readTeamSettings(dataDir)
    if (!settings) {
      io.err(say.t('cli.team.notConfigured'))
      return EXIT.badInput
    }
  }
  const c = settings.connection
  const where = `${c.database}@${c.host}:${c.port}`
  const tls = sslModeOf(c)
  let pool: pg.Pool | undefined
  let r: Awaited<ReturnType<typeof ensureSchema>>
  try {
    pool = openTeamPool(c, { password: await passwordOf(c), max: 1, env: io.env })
    if (verb === 'status') return await status(pool, settings, where, v.json === true, io, say)
    r = await ensureSchema(pool, { create: true, renew: verb === 'migrate' })
    await registerWorkstation(pool, settings.member, settings.workstation)
  } catch (err) {
    // Whatever the database, the network or TLS said, as its own sentence: no stack trace.
    const e = teamErrorOf(err, {
      host: c.host,
      port: c.port,
      database: c.database,
      user: c.user,
      caFile: tls === 'verify-full' ? c.caFile : undefined,
    })
    if (v.json)
      io.out(JSON.stringify({ ok: false, where, tls, error: { kind: e.kind, code: e.code, params: e.params } }))
    io.err(say.code(e.code, e.params))
    return EXIT.failed
  } finally {
    await pool?.end().catch(() => undefined)
  }
  if (verb === 'init') await writeTeamSettings(dataDir, settings)
  if (v.json) io.out(JSON.stringify({ ok: true, where, tls, from: r.from, version: r.to }))
  else {
    if (r.from === 'absent') io.out(say.t('cli.team.created', { where, version: r.to }))
    else if (r.from === r.to) io.out(say.t('cli.team.current', { where, version: r.to }))
    else io.out(say.t('cli.team.migrated', { where, from: r.from, version: r.to }))
    io.out(connectionLine(c, say))
  }
  return EXIT.done
}

async function status(
  pool: pg.Pool,
  s: TeamSettings,
  where: string,
  json: boolean,
  io: Io,
  say: Texts,
): Promise<number> {
  const tls = sslModeOf(s.connection)
  const schema = await schemaStatus(pool)
  if (schema.state === 'absent') {
    if (json) io.out(JSON.stringify({ ok: false, where, tls, schema: 'absent' }))
    io.err(say.t('cli.team.absent', { where }))
    return EXIT.failed
  }
  if (schema.state === 'newer')
    throw new TeamError('team.schemaNewer', { found: schema.version, supported: SCHEMA_VERSION })
  const workstations = await teamWorkstations(pool)
  if (json) {
    io.out(
      JSON.stringify({
        ok: true,
        where,
        tls,
        schema: schema.state,
        version: schema.version,
        member: s.member,
        workstation: s.workstation,
        workstations,
      }),
    )
    return schema.state === 'current' ? EXIT.done : EXIT.failed
  }
  if (schema.state === 'older') {
    io.err(say.t('cli.team.older', { where, version: schema.version, supported: SCHEMA_VERSION }))
    return EXIT.failed
  }
  io.out(say.t('cli.team.status', { where, version: schema.version, member: s.member, workstation: s.workstation }))
  io.out(connectionLine(s.connection, say))
  for (const w of workstations) io.out(say.t('cli.team.workstation', w))
  return EXIT.done
}
