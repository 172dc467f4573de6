/**
 * hosting-admin team init|status|migrate (issue 37 point 1): team mode from a script. `init`
 * records the connection in the data folder's team.json (never the password) and creates or
 * migrates the schema; `status` says the schema's version and who is connected; `migrate` brings
 * an older schema to this app's version. The password comes from the keychain entry the app's
 * Team section keeps, else PostgreSQL's own PGPASSWORD or ~/.pgpass; never from argv.
 */
import type pg from 'pg'
import { KeytarSecretStore, loadKeytar } from '../main/accounts/secret-store'
import { openTeamPool, teamConnectionSchema, type TeamConnection } from '../main/team/connection'
import { ensureSchema, schemaStatus, SCHEMA_VERSION } from '../main/team/schema'
import { registerWorkstation, teamWorkstations } from '../main/team/team-directory'
import { TeamError } from '../main/team/team-error'
import { defaultNames, readTeamSettings, teamPasswordKey, TEAM_KEYCHAIN_SERVICE, writeTeamSettings, type TeamSettings } from '../main/team/team-settings'
import { EXIT, type Io } from './context'
import type { Texts } from './text'

export interface TeamOptions {
  host?: string | undefined
  port?: string | undefined
  database?: string | undefined
  user?: string | undefined
  'ca-file'?: string | undefined
  member?: string | undefined
  workstation?: string | undefined
  json?: boolean | undefined
}

/** The keychain's password for this connection, if the keychain is there and has one. */
async function passwordOf(c: TeamConnection): Promise<string | undefined> {
  try {
    return await new KeytarSecretStore(await loadKeytar(), TEAM_KEYCHAIN_SERVICE).get(teamPasswordKey(c))
  } catch {
    // No keychain (cron, systemd): PostgreSQL's own PGPASSWORD / ~/.pgpass, read by pg.
    return undefined
  }
}

function settingsFromFlags(v: TeamOptions): TeamSettings | undefined {
  const parsed = teamConnectionSchema.safeParse({
    host: v.host,
    port: v.port === undefined ? 5432 : Number(v.port),
    database: v.database,
    user: v.user,
    sslmode: v['ca-file'] ? 'verify-full' : 'disable',
    ...(v['ca-file'] ? { caFile: v['ca-file'] } : {}),
  })
  if (!parsed.success) return undefined
  const names = defaultNames()
  return { connection: parsed.data, member: v.member ?? names.member, workstation: v.workstation ?? names.workstation }
}

export async function team(verb: string | undefined, v: TeamOptions, dataDir: string, io: Io, say: Texts): Promise<number> {
  if (verb !== 'init' && verb !== 'status' && verb !== 'migrate') {
    io.err(say.t('cli.team.unknownVerb'))
    return EXIT.badInput
  }
  let settings: TeamSettings | undefined
  if (verb === 'init') {
    settings = settingsFromFlags(v)
    if (!settings) {
      io.err(say.t('cli.team.needsConnection'))
      return EXIT.badInput
    }
  } else {
    settings = await readTeamSettings(dataDir)
    if (!settings) {
      io.err(say.t('cli.team.notConfigured'))
      return EXIT.badInput
    }
  }
  const where = `${settings.connection.database}@${settings.connection.host}:${settings.connection.port}`
  const pool = openTeamPool(settings.connection, { password: await passwordOf(settings.connection), max: 1 })
  try {
    if (verb === 'status') return await status(pool, settings, where, v.json === true, io, say)
    const r = await ensureSchema(pool, { create: true, renew: verb === 'migrate' })
    await registerWorkstation(pool, settings.member, settings.workstation)
    if (verb === 'init') await writeTeamSettings(dataDir, settings)
    if (v.json) io.out(JSON.stringify({ ok: true, where, from: r.from, version: r.to }))
    else if (r.from === 'absent') io.out(say.t('cli.team.created', { where, version: r.to }))
    else if (r.from === r.to) io.out(say.t('cli.team.current', { where, version: r.to }))
    else io.out(say.t('cli.team.migrated', { where, from: r.from, version: r.to }))
    return EXIT.done
  } catch (err) {
    if (!(err instanceof TeamError)) throw err
    if (v.json) io.out(JSON.stringify({ ok: false, error: { code: err.code, params: err.params } }))
    io.err(say.code(err.code, err.params))
    return EXIT.failed
  } finally {
    await pool.end().catch(() => undefined)
  }
}

async function status(pool: pg.Pool, s: TeamSettings, where: string, json: boolean, io: Io, say: Texts): Promise<number> {
  const schema = await schemaStatus(pool)
  if (schema.state === 'absent') {
    if (json) io.out(JSON.stringify({ ok: false, where, schema: 'absent' }))
    io.err(say.t('cli.team.absent', { where }))
    return EXIT.failed
  }
  if (schema.state === 'newer') throw new TeamError('team.schemaNewer', { found: schema.version, supported: SCHEMA_VERSION })
  const workstations = await teamWorkstations(pool)
  if (json) {
    io.out(JSON.stringify({ ok: true, where, schema: schema.state, version: schema.version, member: s.member, workstation: s.workstation, workstations }))
    return schema.state === 'current' ? EXIT.done : EXIT.failed
  }
  if (schema.state === 'older') {
    io.err(say.t('cli.team.older', { where, version: schema.version, supported: SCHEMA_VERSION }))
    return EXIT.failed
  }
  io.out(say.t('cli.team.status', { where, version: schema.version, member: s.member, workstation: s.workstation }))
  for (const w of workstations) io.out(say.t('cli.team.workstation', w))
  return EXIT.done
}
