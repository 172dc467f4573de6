/**
 * TLS by default and words for every cause (issue 50 points 5 and 6), walked through the built
 * `hosting-admin team init` (English and Japanese, with --json) and through the window's Team
 * section (the real IPC router, its words in both languages), against real PostgreSQL clusters
 * on this machine: one that asks for a password and speaks TLS only (a throwaway CA made by
 * openssl, its certificate naming 127.0.0.1 and the machine's own address, no host name), one that
 * trusts and has no TLS, a server that accepts the connection and never answers, and a port where
 * nothing listens.
 *
 * Each failure has its own code, kind (the window's title) and sentence with its parameters
 * filled; a command that succeeds prints nothing on stderr (no Node warning for TLS to an IP
 * address); to a host that is not loopback, `team init` without a CA file uses TLS, or refuses.
 */
import { randomUUID } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { createApiClient } from '../../src/main/http'
import { openTeamPool } from '../../src/main/team/connection'
import { teamErrorKind, type TeamErrorCode } from '../../src/main/team/team-error'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import type { ErrorData } from '@shared/errors'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'
import { describeError, translateCode } from '@shared/i18n/translate'
import type { TeamSslMode } from '@shared/team'
import { closedLoopbackPort } from '../../support/free-port'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { APP, routerCalls } from '../helpers/router-calls'
import { closeTeamWorkstations, openTeamWorkstation, type TeamWorkstation } from '../helpers/team-workstation'

const PASSWORD = `team-causes-pw-${randomUUID()}`
const MEMBER_PASSWORD = `member-pw-${randomUUID()}`
type Params = Record<string, string | number>

/** This machine's own address that is not loopback, when it has one: a host across a network, as far as the app can tell. */
const ownAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address

/**
 * A server that lets every login in (AuthenticationOk, ReadyForQuery) and then answers no
 * statement: a database frozen after accepting the connection.
 */
async function hungServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    let started = false
    socket.on('data', (chunk: Buffer) => {
      if (started) return
      // An SSLRequest (length 8, code 80877103) is told "no TLS"; the startup message that follows is let in.
      if (chunk.length >= 8 && chunk.readInt32BE(4) === 80877103) return void socket.write('N')
      started = true
      socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0, 0x5a, 0, 0, 0, 5, 0x49]))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const a = server.address()
  const port = typeof a === 'object' && a !== null ? a.port : 0
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

let tlsDb: TestPostgres
let plainDb: TestPostgres
let hung: { port: number; close(): Promise<void> }
let deadPort: number
let work: string
let caFile: string
let otherCaFile: string
/** Homes as cron has them: one without a password file, one whose password file others may read. */
let emptyHome: string
let openHome: string
let services: AppServices | undefined

beforeAll(async () => {
  const listen = ownAddress ? [ownAddress] : []
  ;[tlsDb, plainDb] = await Promise.all([
    startTestPostgres({ password: PASSWORD, tls: { only: true }, listen }),
    startTestPostgres({ listen }),
  ])
  if (!tlsDb.tls) throw new Error('the TLS cluster has no CA')
  ;({ caFile, otherCaFile } = tlsDb.tls)
  hung = await hungServer()
  deadPort = await closedLoopbackPort()
  work = mkdtempSync(join(tmpdir(), 'team-causes-'))
  emptyHome = join(work, 'home-empty')
  openHome = join(work, 'home-open')
  mkdirSync(emptyHome)
  mkdirSync(openHome)
  writeFileSync(join(openHome, '.pgpass'), `*:*:*:*:${PASSWORD}\n`)
  chmodSync(join(openHome, '.pgpass'), 0o644)
  // A member without the right to create tables: PostgreSQL 15 gives CREATE on public to its owner only.
  const admin = openTeamPool(
    { host: tlsDb.host, port: tlsDb.port, database: tlsDb.database, user: tlsDb.user, sslmode: 'verify-full', caFile },
    { password: PASSWORD, max: 1 },
  )
  try {
    await admin.query(`CREATE ROLE member LOGIN PASSWORD '${MEMBER_PASSWORD}'`)
  } finally {
    await admin.end()
  }
  const keychain = new SessionSecretStore()
  services = await createAppServices({
    userDataDir: join(work, 'app'),
    allowedOrigins: [APP],
    keychain: async () => keychain,
    cliDoor: false,
  })
}, 90_000)
afterAll(async () => {
  await services?.close()
  await hung?.close()
  tlsDb?.remove()
  plainDb?.remove()
  if (work) rmSync(work, { recursive: true, force: true })
})

/** The command as cron runs it: no keychain, the password from PGPASSWORD unless a case says otherwise. */
const cliEnv = (more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  DBUS_SESSION_BUS_ADDRESS: '',
  HOME: emptyHome,
  PGPASSWORD: PASSWORD,
  PGPASSFILE: undefined,
  PGSSLMODE: undefined,
  ...more,
})

interface Cause {
  name: string
  code: TeamErrorCode
  params: () => Params
  /** `team init` flags after the connection's own. */
  cli: () => string[]
  env?: () => NodeJS.ProcessEnv
  /** The window's form for the same connection. */
  form: () => {
    host: string
    port: number
    database: string
    user: string
    sslmode: TeamSslMode
    caFile?: string
    password?: string
  }
  /** The process environment main runs with for this case (the window reads PGPASSWORD and the password file too). */
  mainEnv?: () => NodeJS.ProcessEnv
}

const tlsForm = (more: Partial<ReturnType<Cause['form']>> = {}) => ({
  host: tlsDb.host,
  port: tlsDb.port,
  database: tlsDb.database,
  user: tlsDb.user,
  sslmode: 'verify-full' as const,
  caFile,
  password: PASSWORD,
  ...more,
})
const flagsOf = (f: ReturnType<Cause['form']>, tls: string[]) => [
  '--host',
  f.host,
  '--port',
  String(f.port),
  '--database',
  f.database,
  '--user',
  f.user,
  ...tls,
]

const CAUSES: Cause[] = [
  {
    name: 'a password refused',
    code: 'team.passwordRefused',
    params: () => ({ user: tlsDb.user }),
    form: () => tlsForm({ password: 'not-the-password' }),
    cli: () => flagsOf(tlsForm(), ['--ca-file', caFile]),
    env: () => ({ PGPASSWORD: 'not-the-password' }),
  },
  {
    name: 'a user not let in',
    code: 'team.loginRefused',
    params: () => ({ user: 'nobody' }),
    form: () => ({
      host: plainDb.host,
      port: plainDb.port,
      database: plainDb.database,
      user: 'nobody',
      sslmode: 'disable',
    }),
    cli: () => [
      '--host',
      plainDb.host,
      '--port',
      String(plainDb.port),
      '--database',
      plainDb.database,
      '--user',
      'nobody',
    ],
  },
  {
    name: 'no password anywhere',
    code: 'team.noPassword',
    params: () => ({ user: tlsDb.user, passfile: join(emptyHome, '.pgpass') }),
    form: () => tlsForm({ password: undefined }),
    cli: () => flagsOf(tlsForm(), ['--ca-file', caFile]),
    env: () => ({ PGPASSWORD: undefined }),
    mainEnv: () => ({ PGPASSWORD: undefined, PGPASSFILE: join(emptyHome, '.pgpass') }),
  },
  {
    name: 'a password file others may read',
    code: 'team.passfileInsecure',
    params: () => ({ passfile: join(openHome, '.pgpass') }),
    form: () => tlsForm({ password: undefined }),
    cli: () => flagsOf(tlsForm(), ['--ca-file', caFile]),
    env: () => ({ PGPASSWORD: undefined, HOME: openHome }),
    mainEnv: () => ({ PGPASSWORD: undefined, PGPASSFILE: join(openHome, '.pgpass') }),
  },
  {
    name: 'no such database',
    code: 'team.unknownDatabase',
    params: () => ({ database: 'no_such_team' }),
    form: () => tlsForm({ database: 'no_such_team' }),
    cli: () => flagsOf(tlsForm({ database: 'no_such_team' }), ['--ca-file', caFile]),
  },
  {
    name: 'a right missing (42501)',
    code: 'team.noRight',
    params: () => ({ right: 'permission denied for schema public' }),
    form: () => tlsForm({ user: 'member', password: MEMBER_PASSWORD }),
    cli: () => flagsOf(tlsForm({ user: 'member' }), ['--ca-file', caFile]),
    env: () => ({ PGPASSWORD: MEMBER_PASSWORD }),
  },
  {
    name: 'TLS required by the server, clear text asked',
    code: 'team.tlsRequired',
    params: () => ({ host: tlsDb.host, user: tlsDb.user }),
    form: () => tlsForm({ sslmode: 'disable', caFile: undefined }),
    cli: () => flagsOf(tlsForm(), ['--unencrypted']),
  },
  {
    name: 'TLS asked, not offered',
    code: 'team.tlsUnsupported',
    params: () => ({ host: plainDb.host }),
    form: () => ({
      host: plainDb.host,
      port: plainDb.port,
      database: plainDb.database,
      user: plainDb.user,
      sslmode: 'require',
    }),
    cli: () => [
      '--host',
      plainDb.host,
      '--port',
      String(plainDb.port),
      '--database',
      plainDb.database,
      '--user',
      plainDb.user,
      '--sslmode',
      'require',
    ],
  },
  {
    name: 'a certificate not signed by the CA file given',
    code: 'team.tlsWrongCa',
    params: () => ({ file: otherCaFile, host: tlsDb.host }),
    form: () => tlsForm({ caFile: otherCaFile }),
    cli: () => flagsOf(tlsForm(), ['--ca-file', otherCaFile]),
  },
  {
    name: 'a certificate no CA of the system vouches for',
    code: 'team.tlsUntrusted',
    params: () => ({ host: tlsDb.host }),
    form: () => tlsForm({ caFile: undefined }),
    cli: () => flagsOf(tlsForm(), ['--sslmode', 'verify-full']),
  },
  {
    name: 'a certificate that does not name the host',
    code: 'team.tlsHostMismatch',
    params: () => ({ host: 'localhost' }),
    form: () => tlsForm({ host: 'localhost' }),
    cli: () => flagsOf(tlsForm({ host: 'localhost' }), ['--ca-file', caFile]),
  },
  {
    name: 'a CA file that cannot be read',
    code: 'team.caFileUnreadable',
    params: () => ({ file: join(work, 'missing-ca.pem'), reason: 'ENOENT' }),
    form: () => tlsForm({ caFile: join(work, 'missing-ca.pem') }),
    cli: () => flagsOf(tlsForm(), ['--ca-file', join(work, 'missing-ca.pem')]),
  },
  {
    name: 'nothing listening',
    code: 'team.unreachable',
    params: () => ({}),
    form: () => ({ host: '127.0.0.1', port: deadPort, database: 'team', user: 'team', sslmode: 'disable' }),
    cli: () => ['--host', '127.0.0.1', '--port', String(deadPort), '--database', 'team', '--user', 'team'],
  },
  {
    name: 'connected, then no answer',
    code: 'team.hung',
    params: () => ({}),
    form: () => ({ host: '127.0.0.1', port: hung.port, database: 'team', user: 'team', sslmode: 'disable' }),
    cli: () => ['--host', '127.0.0.1', '--port', String(hung.port), '--database', 'team', '--user', 'team'],
  },
]

/** The sentence and title a user reads for a code, in one language; no placeholder may be left. */
function words(code: TeamErrorCode, params: Params, locale: 'en' | 'ja'): { title: string; text: string } {
  const catalogue = locale === 'en' ? en : ja
  const d = describeError(catalogue, locale, { kind: teamErrorKind(code), code, params })
  expect(d.text).toBe(translateCode(catalogue, locale, code, params))
  expect(d.text).not.toMatch(/[{}]/)
  expect(d.title).not.toBe(catalogue['error.kind.internal'])
  return d
}

/** Runs `step` with main's process environment changed as given, then puts it back. */
async function withEnv<T>(env: NodeJS.ProcessEnv, step: () => Promise<T>): Promise<T> {
  const before = new Map(Object.keys(env).map((k) => [k, process.env[k]]))
  const set = (k: string, v: string | undefined) => (v === undefined ? delete process.env[k] : (process.env[k] = v))
  for (const [k, v] of Object.entries(env)) set(k, v)
  try {
    return await step()
  } finally {
    for (const [k, v] of before) set(k, v)
  }
}

describe.skipIf(!existsSync(CLI_BIN))(
  'every cause its own words, through the command and the window (skipped: not built)',
  () => {
    const failures = () => join(work, 'failures')

    it.each(CAUSES.map((c) => [c.name, c] as const))(
      '%s',
      async (_name, c) => {
        const params = c.params()
        const [asJson, inJapanese, fromWindow] = await Promise.all([
          runCli(['team', 'init', ...c.cli(), '--json'], { dataDir: failures(), env: cliEnv(c.env?.()) }),
          runCli(['team', 'init', ...c.cli()], {
            dataDir: failures(),
            env: cliEnv({ ...c.env?.(), LANG: 'ja_JP.UTF-8' }),
          }),
          withEnv(c.mainEnv?.() ?? {}, async () => {
            const { password, ...connection } = c.form()
            // Connect: it tests, then creates the schema (where a missing right shows).
            return routerCalls(() => services).call('team.connect', {
              connection,
              member: 'alice',
              workstation: 'host-a',
              ...(password !== undefined ? { password } : {}),
            })
          }),
        ])
        // The command: exit 1, its own sentence on stderr in each language, the code and kind in JSON.
        expect(asJson.code, asJson.err).toBe(1)
        expect(JSON.parse(asJson.out)).toMatchObject({
          ok: false,
          error: { code: c.code, kind: teamErrorKind(c.code), params },
        })
        expect(asJson.err).toBe(`${words(c.code, params, 'en').text}\n`)
        expect(inJapanese.code).toBe(1)
        expect(inJapanese.err).toBe(`${words(c.code, params, 'ja').text}\n`)
        // The window: the same code with the same names, titled by its kind in both languages.
        expect(fromWindow.ok).toBe(false)
        const error: ErrorData | undefined = fromWindow.ok ? undefined : fromWindow.error
        expect(error).toMatchObject({ kind: teamErrorKind(c.code), code: c.code, params })
        if (!error) return
        for (const [catalogue, locale] of [
          [en, 'en'],
          [ja, 'ja'],
        ] as const) {
          const shown = describeError(catalogue, locale, error)
          expect(shown).toMatchObject(words(c.code, params, locale))
        }
        // Nothing was kept of a connection that failed.
        expect(existsSync(join(failures(), 'team.json'))).toBe(false)
        expect(existsSync(join(work, 'app', 'team.json'))).toBe(false)
        expect(JSON.stringify(fromWindow) + asJson.out + asJson.err).not.toContain(PASSWORD)
      },
      60_000,
    )

    it('the titles say what failed: the database away, TLS, or the database refusing', () => {
      expect(words('team.unreachable', {}, 'en').title).toBe('Team database unreachable')
      expect(words('team.hung', {}, 'en').title).toBe('Team database unreachable')
      expect(words('team.tlsWrongCa', { file: 'ca.pem', host: 'h' }, 'en').title).toBe(
        'Team database: encrypted connection (TLS) failed',
      )
      expect(words('team.passwordRefused', { user: 'u' }, 'en').title).toBe('Team database refused')
      expect(words('team.unreachable', {}, 'ja').title).toBe('チームのデータベースに接続できません')
    })
  },
)

describe.skipIf(!existsSync(CLI_BIN))(
  'TLS by default, and nothing on stderr when it works (skipped: not built)',
  () => {
    it('verify-full to an IP address with the CA file: init, status and migrate say so, and stderr stays empty (no RFC 6066 warning)', async () => {
      const dataDir = join(work, 'verify-full')
      const env = cliEnv()
      const init = await runCli(
        ['team', 'init', ...flagsOf(tlsForm(), ['--ca-file', caFile]), '--member', 'alice', '--workstation', 'host-a'],
        { dataDir, env },
      )
      expect({ code: init.code, err: init.err }).toEqual({ code: 0, err: '' })
      expect(init.out).toContain(
        `Connection: TLS, the server’s certificate checked against ${caFile} and its name against ${tlsDb.host}.`,
      )
      expect(JSON.parse(readFileSync(join(dataDir, 'team.json'), 'utf8'))).toMatchObject({
        connection: { sslmode: 'verify-full', caFile },
      })
      for (const verb of ['status', 'migrate']) {
        const r = await runCli(['team', verb], { dataDir, env })
        expect({ verb, code: r.code, err: r.err }).toEqual({ verb, code: 0, err: '' })
        expect(r.out).toContain('Connection: TLS, the server’s certificate checked')
      }
      const json = await runCli(['team', 'status', '--json'], { dataDir, env })
      expect(JSON.parse(json.out)).toMatchObject({ ok: true, tls: 'verify-full' })
    })

    it('require and verify-full from the window: the TLS-only database answers; its status names the encryption', async () => {
      const calls = routerCalls(() => services)
      const { password, ...verifyFull } = tlsForm()
      expect(
        await calls.call('team.test', { connection: verifyFull, member: 'alice', workstation: 'host-w', password }),
      ).toMatchObject({ ok: true })
      const { caFile: _ca, ...require } = { ...verifyFull, sslmode: 'require' as const }
      expect(
        await calls.call('team.test', { connection: require, member: 'alice', workstation: 'host-w', password }),
      ).toMatchObject({ ok: true })
      const connected = await calls.call('team.connect', {
        connection: verifyFull,
        member: 'alice',
        workstation: 'host-w',
        password,
      })
      expect(connected, JSON.stringify(connected)).toMatchObject({
        ok: true,
        value: { configured: true, sslmode: 'verify-full' },
      })
      expect(await calls.call('team.disconnect', {})).toMatchObject({ ok: true })
    })

    describe.skipIf(!ownAddress)('to a host that is not loopback (this machine’s own address)', () => {
      it('without a CA file, init uses TLS (require): the TLS-only database lets it in, and it says so', async () => {
        const dataDir = join(work, 'own-address-tls')
        const r = await runCli(
          [
            'team',
            'init',
            '--host',
            ownAddress ?? '',
            '--port',
            String(tlsDb.port),
            '--database',
            tlsDb.database,
            '--user',
            tlsDb.user,
          ],
          { dataDir, env: cliEnv() },
        )
        expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' })
        expect(r.out).toContain('Connection: TLS, the server’s certificate not checked (give --ca-file to check it).')
        expect(JSON.parse(readFileSync(join(dataDir, 'team.json'), 'utf8'))).toMatchObject({
          connection: { host: ownAddress, sslmode: 'require' },
        })
      })

      it('without a CA file to a database without TLS: refused, never clear text; clear text only with --unencrypted, said as such', async () => {
        const flags = [
          '--host',
          ownAddress ?? '',
          '--port',
          String(plainDb.port),
          '--database',
          plainDb.database,
          '--user',
          plainDb.user,
        ]
        const refused = await runCli(['team', 'init', ...flags], {
          dataDir: join(work, 'own-address-plain'),
          env: cliEnv(),
        })
        expect(refused.code).toBe(1)
        expect(refused.err).toBe(`${translateCode(en, 'en', 'team.tlsUnsupported', { host: ownAddress ?? '' })}\n`)
        expect(existsSync(join(work, 'own-address-plain', 'team.json'))).toBe(false)
        const asked = await runCli(['team', 'init', ...flags, '--unencrypted'], {
          dataDir: join(work, 'own-address-plain'),
          env: cliEnv(),
        })
        expect({ code: asked.code, err: asked.err }).toEqual({ code: 0, err: '' })
        expect(asked.out).toContain('Connection: NOT encrypted (--unencrypted)')
      })
    })

    it('contradictory or unknown TLS flags are refused before anything is tried (exit 2)', async () => {
      const base = flagsOf(tlsForm(), [])
      for (const [flags, key] of [
        [['--unencrypted', '--ca-file', caFile], 'cli.team.unencryptedWithTls'],
        [['--sslmode', 'require', '--ca-file', caFile], 'cli.team.caFileNeedsVerifyFull'],
        [['--sslmode', 'disable'], 'cli.team.badSslmode'],
      ] as const) {
        const r = await runCli(['team', 'init', ...base, ...flags], {
          dataDir: join(work, 'refused-flags'),
          env: cliEnv(),
        })
        expect({ code: r.code, err: r.err }).toEqual({ code: 2, err: `${en[key]}\n` })
      }
    })
  },
)

describe('a zone save with the team database away (the window’s title)', () => {
  let sb: Sandbox | undefined
  let alice: TeamWorkstation | undefined
  afterAll(async () => {
    await closeTeamWorkstations([alice])
    await sb?.close()
  })

  it('is titled "Team database unreachable", in both languages, not "Unexpected error"', async () => {
    sb = await startSandbox({ domains: 3 })
    alice = await openTeamWorkstation(plainDb, sb, 'alice', 'host-a')
    const domain = sb.state.domains.find((d) => nsFlavour(d) !== 'registrar')?.domainname ?? ''
    const zone = await createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths }).call(
      'domains.dns.get',
      { domain },
    )
    plainDb.stopServer()
    try {
      const r = await alice.calls.call('jobs.prepare', {
        accountId: alice.accountId,
        operation: 'domains.dns.set',
        items: [
          {
            params: {
              domain,
              ns_type: zone.ns_type,
              records: `${zone.records.trimEnd()}\na away 192.0.2.44`,
              ttl: zone.ttl,
            },
            guard: { records: zone.records },
            overRule: true,
          },
        ],
      })
      const error = r.ok ? undefined : r.error
      expect(error).toMatchObject({ kind: 'team-unreachable', code: 'team.unreachable' })
      if (!error) return
      expect(describeError(en, 'en', error)).toMatchObject({
        title: 'Team database unreachable',
        text: en['team.unreachable'],
      })
      expect(describeError(ja, 'ja', error)).toMatchObject({
        title: 'チームのデータベースに接続できません',
        text: ja['team.unreachable'],
      })
    } finally {
      plainDb.startServer()
    }
  }, 90_000)
})
