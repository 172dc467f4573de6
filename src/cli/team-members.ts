/**
 * hosting-admin team add-member|remove-member <name> (issue 50 point 1): the team's owner gives each
 * member a login of their own, in the team's group role, so the database enforces who may do what
 * and knows who wrote every row. Run with the owner's connection (the data folder's team.json, the
 * login that ran `team init`). The member's password comes from standard input (--password-stdin)
 * or is made here and printed once on standard output; never from argv, never kept.
 */
import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { openTeamPool, type TeamConnection } from '../main/team/connection'
import { TeamError } from '../main/team/team-error'
import { addMember, memberNameSchema, removeMember, setRetention } from '../main/team/team-members'
import { readTeamSettings, teamPasswordKey, TEAM_KEYCHAIN_SERVICE } from '../main/team/team-settings'
import { KeytarSecretStore, loadKeytar } from '../main/accounts/secret-store'
import { EXIT, type Io } from './context'
import type { Texts } from './text'

async function ownerPassword(key: string): Promise<string | undefined> {
  try {
    return await new KeytarSecretStore(await loadKeytar(), TEAM_KEYCHAIN_SERVICE).get(key)
  } catch {
    return undefined
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '')
}

export async function teamMembers(
  verb: 'add-member' | 'remove-member' | 'retention',
  name: string | undefined,
  opts: { passwordStdin: boolean; json: boolean },
  dataDir: string,
  io: Io,
  say: Texts,
): Promise<number> {
  if (verb === 'retention') return retention(name, opts.json, dataDir, io, say)
  const member = memberNameSchema.safeParse(name)
  if (!member.success) {
    io.err(say.t('cli.team.badMemberName', { name: name ?? '' }))
    return EXIT.badInput
  }
  return withOwnerPool(dataDir, opts.json, io, say, async (pool, c) => {
    if (verb === 'remove-member') {
      await removeMember(pool, member.data)
      if (opts.json) io.out(JSON.stringify({ ok: true, removed: member.data }))
      else io.out(say.t('cli.team.memberRemoved', { member: member.data }))
      return EXIT.done
    }
    const given = opts.passwordStdin ? await readStdin() : undefined
    if (given !== undefined && given.length < 12) {
      io.err(say.t('cli.team.passwordShort', { min: 12 }))
      return EXIT.badInput
    }
    const password = given ?? randomBytes(18).toString('base64url')
    await addMember(pool, member.data, password)
    if (opts.json)
      io.out(JSON.stringify({ ok: true, added: member.data, ...(given === undefined ? { password } : {}) }))
    else {
      io.out(say.t('cli.team.memberAdded', { member: member.data, host: c.host, port: c.port, database: c.database }))
      // Made here: said once, to give to the member; the app keeps it nowhere.
      if (given === undefined) io.out(say.t('cli.team.memberPassword', { password }))
    }
    return EXIT.done
  })
}

/** hosting-admin team retention <days>: the owner's setting of how long settled jobs stay before the archive. */
async function retention(
  given: string | undefined,
  json: boolean,
  dataDir: string,
  io: Io,
  say: Texts,
): Promise<number> {
  const days = Number(given)
  if (!given || !Number.isInteger(days) || days < 1 || days > 3650) {
    io.err(say.t('cli.team.badRetention', { days: given ?? '' }))
    return EXIT.badInput
  }
  return withOwnerPool(dataDir, json, io, say, async (pool) => {
    await setRetention(pool, days)
    if (json) io.out(JSON.stringify({ ok: true, retentionDays: days }))
    else io.out(say.t('cli.team.retentionSet', { days }))
    return EXIT.done
  })
}

/**
 * Runs an owner's step on the team database with the owner's connection (team.json) and the
 * password the keychain keeps for it; a database step that fails is said by its team code.
 */
async function withOwnerPool(
  dataDir: string,
  json: boolean,
  io: Io,
  say: Texts,
  step: (pool: pg.Pool, c: TeamConnection) => Promise<number>,
): Promise<number> {
  const settings = await readTeamSettings(dataDir)
  if (!settings) {
    io.err(say.t('cli.team.notConfigured'))
    return EXIT.badInput
  }
  const c = settings.connection
  const pool = openTeamPool(c, { password: await ownerPassword(teamPasswordKey(c)), max: 1 })
  try {
    return await step(pool, c)
  } catch (err) {
    if (!(err instanceof TeamError)) throw err
    if (json) io.out(JSON.stringify({ ok: false, error: { code: err.code, params: err.params } }))
    io.err(say.code(err.code, err.params))
    return EXIT.failed
  } finally {
    await pool.end().catch(() => undefined)
  }
}
