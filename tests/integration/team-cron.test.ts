/**
 * The team-mode docs' cron line (issue 50 point 5; docs/team-mode.md since issue 51 moved it out of
 * the README): the built command run as cron runs it (no desktop session, no keychain, HOME set),
 * the team database's password in `~/.pgpass` as the page writes it, the account's key in a key
 * file, against a real PostgreSQL that asks for a password and the sandbox (its dynamic DNS update
 * address). A run that succeeds writes nothing on stderr: cron mails stderr, and
 * certbot reports a hook's stderr as a failure (pg's own password-file reader printed a
 * deprecation warning there at every run).
 */
import { randomUUID } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createAppServices } from '../../src/main/app/app-services'
import { createApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { profileFor } from '../../support/profile'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { BUILT_STORE_WORKER } from '../helpers/cli-account'
import { APP, routerCalls } from '../helpers/router-calls'

const PASSWORD = `team-cron-pw-${randomUUID()}`
const TEAM_DOC = readFileSync(resolve(__dirname, '../../docs/team-mode.md'), 'utf8')

/** What cron gives a command: no session bus, no display, no runtime folder; HOME set; no password in the environment. */
const cronEnv = (home: string): NodeJS.ProcessEnv => ({
  DBUS_SESSION_BUS_ADDRESS: undefined,
  DISPLAY: undefined,
  WAYLAND_DISPLAY: undefined,
  XDG_RUNTIME_DIR: undefined,
  HOSTING_ADMIN_KEY_FILE: undefined,
  CREDENTIALS_DIRECTORY: undefined,
  PGPASSWORD: undefined,
  PGPASSFILE: undefined,
  HOME: home,
})

/** The team-mode page's cron example (under "Setting it up"): its ~/.pgpass line and its crontab line. */
function teamCronExample(): { pgpassLine: string; cronLine: string } {
  const section = TEAM_DOC.slice(TEAM_DOC.indexOf('## Setting it up'))
  const block = /# ~\/\.pgpass[^\n]*\n([^\n]+)\n#[^\n]*\n([\d*][^\n]+)\n/.exec(
    section.slice(0, section.indexOf('\n## ')),
  )
  if (!block?.[1] || !block[2]) throw new Error('docs/team-mode.md has no cron example under "Setting it up"')
  return { pgpassLine: block[1], cronLine: block[2] }
}

/** A crontab line's command as argv after the program: the schedule's five fields dropped, "$HOME" expanded, quotes removed; and the account it names. */
function cronArgvOf(line: string, home: string): { program: string; args: string[]; account: string } {
  const words = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => (m[1] ?? m[2] ?? '').replace(/\$HOME/g, home))
  const [program = '', ...args] = words.slice(5)
  return { program, args, account: args[args.indexOf('--account') + 1] ?? '' }
}

describe.skipIf(!existsSync(CLI_BIN))('the team-mode docs’ cron line, with ~/.pgpass (skipped: not built)', () => {
  let db: TestPostgres
  let sb: Sandbox
  let home: string
  let dataDir: string
  /** A domain of the sandbox with dynamic DNS on and an A record for the cron line's host. */
  let domain: string

  beforeAll(async () => {
    db = await startTestPostgres({ password: PASSWORD, logConnections: true })
    sb = await startSandbox({ domains: 4 })
    home = mkdtempSync(join(tmpdir(), 'team-cron-home-'))
    dataDir = mkdtempSync(join(tmpdir(), 'team-cron-data-'))
    const outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    domain = sb.state.domains.find((d) => nsFlavour(d) !== 'registrar')?.domainname ?? ''
    const { ns_type } = await outside.call('domains.dns.get', { domain })
    await outside.call('domains.dns.set', { domain, ns_type, records: 'a home 192.0.2.10', ttl: 3600 })
    await outside.call('domains.dynamicdns.set', { domain, dynamicdns: 1, password: `ddns-${randomUUID()}` })
    // The account the cron line names, as the app makes it (its key in a keychain this process keeps: the command never sees it).
    const { account } = cronArgvOf(teamCronExample().cronLine, home)
    const services = await createAppServices({
      userDataDir: dataDir,
      allowedOrigins: [APP],
      storeWorkerUrl: BUILT_STORE_WORKER,
      keychain: async () => new SessionSecretStore(),
      cliDoor: false,
    })
    try {
      const fields = { ...profileFor(sb, account), ddnsUrl: `${new URL(sb.url).origin}/cgi-bin/dyn.fcg` }
      await routerCalls(() => services).ok('accounts.create', { fields, apiKey: sb.keys.full, storage: 'keychain' })
    } finally {
      await services.close()
    }
  }, 60_000)
  afterAll(async () => {
    await sb?.close()
    db?.remove()
    for (const d of [home, dataDir]) if (d) rmSync(d, { recursive: true, force: true })
  })

  it('team init, status and the cron line read ~/.pgpass as the docs write it, and say nothing on stderr', async () => {
    const { pgpassLine, cronLine } = teamCronExample()
    // The docs' line with this cluster's values in its five fields.
    const fields = pgpassLine.split(':')
    expect(fields).toHaveLength(5)
    writeFileSync(join(home, '.pgpass'), `${[db.host, db.port, db.database, db.user, PASSWORD].join(':')}\n`, {
      mode: 0o600,
    })
    chmodSync(join(home, '.pgpass'), 0o600)
    // The key file the cron line names, readable by its owner only.
    const { program, args: asWritten } = cronArgvOf(cronLine, home)
    expect(program).toBe('/usr/bin/hosting-admin')
    // The docs' example.com is the sandbox's domain here.
    const args = asWritten.map((a) => (a === 'example.com' ? domain : a))
    expect(args).toContain(domain)
    const keyFile = args[args.indexOf('--key-file') + 1] ?? ''
    expect(keyFile.startsWith(home)).toBe(true)
    mkdirSync(join(home, '.config'), { recursive: true, mode: 0o700 })
    writeFileSync(keyFile, `${sb.keys.full}\n`, { mode: 0o600 })
    chmodSync(keyFile, 0o600)

    const env = cronEnv(home)
    const init = await runCli(
      [
        'team',
        'init',
        '--host',
        db.host,
        '--port',
        String(db.port),
        '--database',
        db.database,
        '--user',
        db.user,
        '--member',
        'cron',
        '--workstation',
        'host-cron',
      ],
      { dataDir, env },
    )
    expect({ code: init.code, err: init.err }).toEqual({ code: 0, err: '' })
    const status = await runCli(['team', 'status'], { dataDir, env })
    expect({ code: status.code, err: status.err }).toEqual({ code: 0, err: '' })
    expect(status.out).toContain('host-cron (cron)')

    const loginsBefore = logins()
    const run = await runCli(args, { dataDir, env })
    expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: '' })
    expect(run.out).toContain(`now points at`)
    // It logged in to the team database with the password of ~/.pgpass (the server asks one of every login).
    expect(logins()).toBeGreaterThan(loginsBefore)
  }, 120_000)

  /** The logins of the app the server has let in so far. */
  const logins = () =>
    db
      .serverLog()
      .split('\n')
      .filter((l) => /connection authorized: .*application_name=hosting-admin/.test(l)).length
})
