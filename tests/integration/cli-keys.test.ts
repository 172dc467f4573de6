/**
 * The built `hosting-admin` command run as cron, a systemd timer or `certbot renew` run it: a
 * process of its own with no desktop session at all (no D-Bus session address, no display, no
 * runtime directory), or with a session address that leads nowhere. Its key comes from a key
 * file (--key-file, HOSTING_ADMIN_KEY_FILE) or a systemd credential ($CREDENTIALS_DIRECTORY),
 * checked as ssh checks its key files; without one it says what to give (exit 2). And the
 * built-in demo is used only when asked (--demo): a data folder with no account, or an app left
 * on the demo, sends a script's writes nowhere.
 *
 * The account is made as the app makes it, with its key in "the keychain" (a stand-in in this
 * process: the command's process never sees it), so the key the command uses can only be the
 * one it was given.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { seedState } from '../../src/sandbox/seed'
import { KEY_CREDENTIAL } from '../../src/cli/key-source'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'

const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)
const isRoot = process.getuid?.() === 0

/** What cron and a system service have: no session bus, no display, no runtime directory; and no key source unless a test gives one. */
const NO_DESKTOP: NodeJS.ProcessEnv = {
  DBUS_SESSION_BUS_ADDRESS: undefined,
  DISPLAY: undefined,
  WAYLAND_DISPLAY: undefined,
  XDG_RUNTIME_DIR: undefined,
  HOSTING_ADMIN_KEY_FILE: undefined,
  CREDENTIALS_DIRECTORY: undefined,
}
const JAPANESE: NodeJS.ProcessEnv = { LANG: 'ja_JP.UTF-8' }

let sb: Sandbox
let outside: ApiClient
let dataDir: string
let files: string
let domain: string
let services: AppServices | undefined
const { ok } = routerCalls(() => services)
const openServices = (dir: string) =>
  createAppServices({ userDataDir: dir, allowedOrigins: [APP], storeWorkerUrl: WORKER, keychain: async () => keychain })
const keychain = new SessionSecretStore()

const zone = ['a @ 192.0.2.1', 'a www 192.0.2.1', 'mx mail.example.net. 10']
const requests = () => sb.received.length
const puts = () => sb.received.filter((r) => r.endpoint === 'domains.dns.set' && r.method === 'PUT').length

/** A file holding `text`, with `mode`. */
function keyFile(name: string, text: string, mode = 0o600): string {
  const file = join(files, name)
  writeFileSync(file, text)
  chmodSync(file, mode)
  return file
}

/** The command with no desktop session, plus what a test gives. */
const cli = (args: string[], env: NodeJS.ProcessEnv = {}, dir = dataDir) =>
  runCli(args, { dataDir: dir, env: { ...NO_DESKTOP, ...env } })

/** Every file the command's services wrote under the data folder's logs, as one text. */
function logsOf(dir: string): string {
  const logs = join(dir, 'logs')
  if (!existsSync(logs)) return ''
  return readdirSync(logs)
    .map((f) => readFileSync(join(logs, f), 'utf8'))
    .join('\n')
}

/** A unix socket standing where a D-Bus session would be: it counts who connects, and answers no one. */
async function countingBus(path: string): Promise<{ server: Server; connections: () => number }> {
  let n = 0
  const server = createServer((socket) => {
    n += 1
    socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(path, resolve))
  return { server, connections: () => n }
}

describe.skipIf(!existsSync(CLI_BIN))('keys for unattended runs: the built command with no desktop session', () => {
  beforeAll(async () => {
    sb = await startSandbox({ domains: 4 })
    outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    domain = sb.state.domains.filter((d) => nsFlavour(d) !== 'registrar').map((d) => d.domainname)[0]!
    const { ns_type } = await outside.call('domains.dns.get', { domain })
    await outside.call('domains.dns.set', { domain, ns_type, records: zone.join('\n'), ttl: 3600 })
    dataDir = mkdtempSync(join(tmpdir(), 'cli-keys-data-'))
    files = mkdtempSync(join(tmpdir(), 'cli-keys-files-'))
    services = await openServices(dataDir)
    await ok('accounts.create', { fields: profileFor(sb, 'Shop'), apiKey: sb.keys.full, storage: 'keychain' })
    await services.close()
    services = undefined
  })
  afterAll(async () => {
    await services?.close()
    await sb?.close()
    rmSync(files, { recursive: true, force: true })
  })

  it('with a key file (0600) it reads the zone and applies a change, touching no D-Bus; the key is printed and logged nowhere', async () => {
    const file = keyFile('shop.key', `${sb.keys.full}\n`)
    const read = await cli(['dns', 'export', domain, '--key-file', file])
    expect(read).toMatchObject({ code: 0 })
    expect(read.out.trim().split('\n')).toEqual(zone)
    const changed = join(files, 'zone.txt')
    writeFileSync(changed, [...zone, 'txt @ v=spf1 -all'].join('\n') + '\n')
    const before = puts()
    const applied = await cli(['dns', 'apply', domain, changed, '--key-file', file])
    expect(applied.code).toBe(0)
    expect(applied.out).toMatch(/^Saved: 1 change/m)
    expect(puts()).toBe(before + 1)
    expect((await outside.call('domains.dns.get', { domain })).records).toContain('txt @ v=spf1 -all')
    for (const r of [read, applied]) expect(r.out + r.err).not.toContain(sb.keys.full)
    expect(logsOf(dataDir)).not.toContain(sb.keys.full)
    // No keychain: the journal's body key is made in the data folder, the user's alone, and the
    // body journaled as an HMAC under it (body-mac.ts).
    expect(statSync(join(dataDir, 'journal.key')).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(dataDir, 'journal.jsonl'), 'utf8')).toMatch(/"bodyHash":"hmac-sha256:[0-9a-f]{64}"/)
  })

  it('HOSTING_ADMIN_KEY_FILE does the same; a session address that leads to a bus is never even connected to', async () => {
    const file = keyFile('env.key', sb.keys.full)
    const bus = await countingBus(join(files, 'bus'))
    try {
      const r = await cli(['dns', 'export', domain], {
        HOSTING_ADMIN_KEY_FILE: file,
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(files, 'bus')}`,
      })
      expect(r).toMatchObject({ code: 0 })
      expect(r.out).toContain('a www 192.0.2.1')
      expect(bus.connections()).toBe(0)
    } finally {
      bus.server.close()
    }
  })

  it('refuses a key file group or others can read (exit 2, why and what to do, in English and Japanese); nothing is sent', async () => {
    const file = keyFile('open.key', sb.keys.full, 0o644)
    const before = requests()
    const en = await cli(['dns', 'export', domain, '--key-file', file])
    expect(en.code).toBe(2)
    expect(en.err).toContain(`The key file ${file} can be read by other users (mode 0644)`)
    expect(en.err).toContain(`chmod 600 ${file}`)
    const ja = await cli(['dns', 'export', domain], { ...JAPANESE, HOSTING_ADMIN_KEY_FILE: file })
    expect(ja.code).toBe(2)
    expect(ja.err).toContain(`キーファイル ${file} は他のユーザーも読み取れる状態のため (モード 0644)`)
    expect(ja.err).toContain(`chmod 600 ${file}`)
    // Readable by the group only is refused too.
    chmodSync(file, 0o640)
    expect(await cli(['dns', 'export', domain, '--key-file', file])).toMatchObject({ code: 2 })
    expect(requests()).toBe(before)
    for (const r of [en, ja]) expect(r.out + r.err).not.toContain(sb.keys.full)
  })

  it('a key file others may write but not read (0620) is refused as written by others, not read by them (exit 2, English and Japanese)', async () => {
    const file = keyFile('writable.key', sb.keys.full, 0o620)
    const before = requests()
    const en = await cli(['dns', 'export', domain, '--key-file', file])
    expect(en.code).toBe(2)
    expect(en.err).toContain(`The key file ${file} can be written by other users (mode 0620)`)
    expect(en.err).toContain(`chmod 600 ${file}`)
    expect(en.err).not.toContain('can be read')
    const ja = await cli(['dns', 'export', domain, '--key-file', file], JAPANESE)
    expect(ja.code).toBe(2)
    expect(ja.err).toContain(`キーファイル ${file} は他のユーザーも書き込める状態のため (モード 0620)`)
    expect(ja.err).not.toContain('読み取れる')
    expect(requests()).toBe(before)
  })

  it.skipIf(!isRoot)('refuses a key file owned by another user, even one it can read (exit 2)', async () => {
    const file = keyFile('nobody.key', sb.keys.full)
    chownSync(file, 65534, 65534)
    const before = requests()
    const r = await cli(['dns', 'export', domain, '--key-file', file])
    expect(r.code).toBe(2)
    expect(r.err).toContain(`The key file ${file} belongs to user id 65534, not to the user running the command (id 0)`)
    const ja = await cli(['dns', 'export', domain, '--key-file', file], JAPANESE)
    expect(ja.code).toBe(2)
    expect(ja.err).toContain(`キーファイル ${file} の所有者はユーザー ID 65534 で`)
    expect(requests()).toBe(before)
  })

  it('refuses what is not a regular file (a folder, a symlink to a device), a missing file and an empty one; follows a symlink to a good file', async () => {
    const folder = join(files, 'a-folder')
    mkdirSync(folder)
    const toDevice = join(files, 'to-null')
    symlinkSync('/dev/null', toDevice)
    const before = requests()
    for (const f of [folder, toDevice]) {
      const r = await cli(['dns', 'export', domain, '--key-file', f])
      expect(r.code).toBe(2)
      expect(r.err).toContain(`${f} is not a regular file`)
    }
    const missing = await cli(['dns', 'export', domain, '--key-file', join(files, 'none.key')])
    expect(missing.code).toBe(2)
    expect(missing.err).toContain(`Cannot read the key file ${join(files, 'none.key')} (ENOENT)`)
    const empty = await cli(['dns', 'export', domain, '--key-file', keyFile('empty.key', '\n')])
    expect(empty.code).toBe(2)
    expect(empty.err).toContain('is empty')
    const twoLines = await cli([
      'dns',
      'export',
      domain,
      '--key-file',
      keyFile('two.key', `${sb.keys.full}\n${sb.keys.full}\n`),
    ])
    expect(twoLines.code).toBe(2)
    expect(twoLines.err).toContain('does not hold one key')
    expect(twoLines.out + twoLines.err).not.toContain(sb.keys.full)
    expect(requests()).toBe(before)
    const link = join(files, 'link.key')
    symlinkSync(keyFile('target.key', sb.keys.full), link)
    expect(await cli(['dns', 'export', domain, '--key-file', link])).toMatchObject({ code: 0 })
  })

  it('reads a systemd credential from $CREDENTIALS_DIRECTORY (hosting-admin-api-key, or the name given); a named one missing is exit 2', async () => {
    const credentials = mkdtempSync(join(tmpdir(), 'cli-keys-creds-'))
    // As systemd writes them: mode 0400, owned by the service's user.
    writeFileSync(join(credentials, 'hosting-admin-api-key'), sb.keys.full)
    chmodSync(join(credentials, 'hosting-admin-api-key'), 0o400)
    writeFileSync(join(credentials, 'shop'), sb.keys.full)
    chmodSync(join(credentials, 'shop'), 0o400)
    const byDefault = await cli(['dns', 'export', domain], { CREDENTIALS_DIRECTORY: credentials })
    expect(byDefault).toMatchObject({ code: 0 })
    expect(byDefault.out).toContain('a www 192.0.2.1')
    expect(
      await cli(['dns', 'export', domain, '--key-credential', 'shop'], { CREDENTIALS_DIRECTORY: credentials }),
    ).toMatchObject({ code: 0 })
    const missing = await cli(['dns', 'export', domain, '--key-credential', 'other'], {
      CREDENTIALS_DIRECTORY: credentials,
    })
    expect(missing.code).toBe(2)
    expect(missing.err).toContain('systemd gave no credential named other')
    const noDir = await cli(['dns', 'export', domain, '--key-credential', 'shop'])
    expect(noDir.code).toBe(2)
    expect(noDir.err).toContain('CREDENTIALS_DIRECTORY is not set')
    // Readable by others is refused; the group's bits are what an ACL systemd adds shows, so allowed.
    chmodSync(join(credentials, 'shop'), 0o444)
    expect(
      await cli(['dns', 'export', domain, '--key-credential', 'shop'], { CREDENTIALS_DIRECTORY: credentials }),
    ).toMatchObject({ code: 2 })
    chmodSync(join(credentials, 'shop'), 0o440)
    expect(
      await cli(['dns', 'export', domain, '--key-credential', 'shop'], { CREDENTIALS_DIRECTORY: credentials }),
    ).toMatchObject({ code: 0 })
    rmSync(credentials, { recursive: true, force: true })
  })

  describe('$CREDENTIALS_DIRECTORY is checked as systemd makes it before a credential in it is read', () => {
    let credentials: string
    /** One of the user's own files, outside the directory, holding what would be sent as the key. */
    let outsideFile: string
    beforeAll(() => {
      outsideFile = keyFile('outside.key', sb.keys.full, 0o400)
    })
    // As systemd leaves it: the user's (or root's), no one else may write in it; the credential 0400.
    const freshDirectory = () => {
      credentials = mkdtempSync(join(tmpdir(), 'cli-keys-creddir-'))
      writeFileSync(join(credentials, KEY_CREDENTIAL), sb.keys.full)
      chmodSync(join(credentials, KEY_CREDENTIAL), 0o400)
      return credentials
    }
    afterEach(() => rmSync(credentials, { recursive: true, force: true }))

    /** Refused: exit 2, the reason in English and Japanese, nothing sent, the key nowhere in the output. */
    async function refused(dir: string, en: string, ja: string) {
      const before = requests()
      const r = await cli(['dns', 'export', domain], { CREDENTIALS_DIRECTORY: dir })
      expect(r.code).toBe(2)
      expect(r.err).toContain(en)
      const j = await cli(['dns', 'export', domain], { CREDENTIALS_DIRECTORY: dir, ...JAPANESE })
      expect(j.code).toBe(2)
      expect(j.err).toContain(ja)
      for (const x of [r, j]) expect(x.out + x.err).not.toContain(sb.keys.full)
      expect(requests()).toBe(before)
    }

    it('an owner-only directory (0700) is used', async () => {
      const dir = freshDirectory()
      const r = await cli(['dns', 'export', domain], { CREDENTIALS_DIRECTORY: dir })
      expect(r).toMatchObject({ code: 0 })
      expect(r.out).toContain('a www 192.0.2.1')
    })

    it('a directory anyone may write in (0777), even holding a good credential, is refused', async () => {
      const dir = freshDirectory()
      chmodSync(dir, 0o777)
      await refused(
        dir,
        `The credentials directory ${dir} ($CREDENTIALS_DIRECTORY) can be written by other users (mode 0777)`,
        `資格情報ディレクトリ ${dir} ($CREDENTIALS_DIRECTORY) は他のユーザーも書き込める状態です (モード 0777)`,
      )
    })

    it('a link placed in a directory anyone may write in, to one of the user’s own files, is never read', async () => {
      const dir = freshDirectory()
      rmSync(join(dir, KEY_CREDENTIAL))
      symlinkSync(outsideFile, join(dir, KEY_CREDENTIAL))
      chmodSync(dir, 0o777)
      await refused(
        dir,
        `The credentials directory ${dir} ($CREDENTIALS_DIRECTORY) can be written by other users (mode 0777)`,
        `資格情報ディレクトリ ${dir} ($CREDENTIALS_DIRECTORY) は他のユーザーも書き込める状態です (モード 0777)`,
      )
    })

    it('a credential that is a link leading out of the directory is refused, even in an owner-only one', async () => {
      const dir = freshDirectory()
      rmSync(join(dir, KEY_CREDENTIAL))
      symlinkSync(outsideFile, join(dir, KEY_CREDENTIAL))
      await refused(
        dir,
        `The credential ${KEY_CREDENTIAL} in ${dir} is a link to ${outsideFile}, outside the directory`,
        `${dir} 内の資格情報 ${KEY_CREDENTIAL} は、ディレクトリの外にある ${outsideFile} へのリンクです`,
      )
    })

    // Only root can give a directory to another user (chown); the user is made as support/postgres.ts makes its own.
    it.skipIf(!isRoot)(
      'a directory owned by another user (not root) is refused (skipped when not root: chown needs it)',
      async () => {
        const other = 'hosting-admin-other'
        if (spawnSync('id', ['-u', other]).status !== 0)
          execFileSync('useradd', ['-r', '-M', '-s', '/usr/sbin/nologin', other])
        const uid = Number(execFileSync('id', ['-u', other], { encoding: 'utf8' }).trim())
        const dir = freshDirectory()
        chownSync(dir, uid, uid)
        await refused(
          dir,
          `The credentials directory ${dir} ($CREDENTIALS_DIRECTORY) belongs to user id ${uid}, neither to the user running the command (id 0) nor to root`,
          `資格情報ディレクトリ ${dir} ($CREDENTIALS_DIRECTORY) の所有者はユーザー ID ${uid} で`,
        )
      },
    )
  })

  it('the first source given wins: --key-file, then HOSTING_ADMIN_KEY_FILE, then the credential', async () => {
    const good = keyFile('good.key', sb.keys.full)
    const wrong = keyFile('wrong.key', 'not-the-key-0000')
    const credentials = mkdtempSync(join(tmpdir(), 'cli-keys-creds-'))
    writeFileSync(join(credentials, 'hosting-admin-api-key'), 'not-the-key-1111')
    chmodSync(join(credentials, 'hosting-admin-api-key'), 0o400)
    expect(
      await cli(['dns', 'export', domain, '--key-file', good], {
        HOSTING_ADMIN_KEY_FILE: wrong,
        CREDENTIALS_DIRECTORY: credentials,
      }),
    ).toMatchObject({ code: 0 })
    expect(
      await cli(['dns', 'export', domain], { HOSTING_ADMIN_KEY_FILE: good, CREDENTIALS_DIRECTORY: credentials }),
    ).toMatchObject({ code: 0 })
    // The wrong key is the one used when it comes first: the service refuses it.
    expect(await cli(['dns', 'export', domain], { HOSTING_ADMIN_KEY_FILE: wrong })).toMatchObject({ code: 1 })
    expect(await cli(['dns', 'export', domain], { CREDENTIALS_DIRECTORY: credentials })).toMatchObject({ code: 1 })
    rmSync(credentials, { recursive: true, force: true })
  })

  it('with the app open on the folder, the app acts with the key it keeps; a key file given is still checked first', async () => {
    services = await openServices(dataDir)
    try {
      const wrong = keyFile('app-open-wrong.key', 'not-the-key-2222')
      const through = await cli(['dns', 'export', domain, '--key-file', wrong])
      expect(through.code).toBe(0)
      expect(through.err).toContain('The app is open on this data folder')
      expect(through.out).toContain('a www 192.0.2.1')
      const open = keyFile('app-open-open.key', sb.keys.full, 0o644)
      const refused = await cli(['dns', 'export', domain, '--key-file', open])
      expect(refused.code).toBe(2)
      expect(refused.err).toContain('can be read by other users')
    } finally {
      await services.close()
      services = undefined
    }
  })

  it('with no key source and no Secret Service, says what to give (exit 2, both languages), with no session bus or one that leads nowhere', async () => {
    const before = requests()
    const none = await cli(['dns', 'export', domain])
    const dead = await cli(['dns', 'export', domain], {
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(files, 'no-such-bus')}`,
    })
    // An empty address (`DBUS_SESSION_BUS_ADDRESS=` in a crontab) is none.
    const empty = await cli(['dns', 'export', domain], { DBUS_SESSION_BUS_ADDRESS: '' })
    for (const r of [none, dead, empty]) {
      expect(r.code).toBe(2)
      expect(r.err).toContain('No Secret Service is reachable')
      for (const named of ['--key-file', 'HOSTING_ADMIN_KEY_FILE', 'hosting-admin-api-key', 'LoadCredential='])
        expect(r.err).toContain(named)
    }
    for (const ja of [
      await cli(['dns', 'export', domain], JAPANESE),
      await cli(['dns', 'export', domain], { ...JAPANESE, DBUS_SESSION_BUS_ADDRESS: '' }),
    ]) {
      expect(ja.code).toBe(2)
      expect(ja.err).toContain('Secret Service に接続できません')
      for (const named of ['--key-file', 'HOSTING_ADMIN_KEY_FILE', 'hosting-admin-api-key'])
        expect(ja.err).toContain(named)
    }
    expect(requests()).toBe(before)
  })
})

describe.skipIf(!existsSync(CLI_BIN))('never the demo by accident: the built command', () => {
  let empty: string
  let zoneFile: string
  let demoSb: Sandbox
  // The demo's sandbox starts from the seed every sandbox starts from: its domains are these.
  const demoDomain = seedState().domains.filter((d) => nsFlavour(d) !== 'registrar')[0]!.domainname

  beforeAll(async () => {
    // Only an account's address for its profile: nothing is asked of it here.
    demoSb = await startSandbox({ domains: 1 })
    files = mkdtempSync(join(tmpdir(), 'cli-keys-files-'))
    empty = mkdtempSync(join(tmpdir(), 'cli-keys-empty-'))
    zoneFile = join(files, 'demo-zone.txt')
    writeFileSync(zoneFile, 'a @ 192.0.2.10\na www 192.0.2.10\n')
  })
  afterAll(async () => {
    await demoSb?.close()
    rmSync(files, { recursive: true, force: true })
  })

  /** What a write leaves in a data folder before anything is sent: a journal line, an ACME note. */
  const traces = (dir: string) => ({
    journal: existsSync(join(dir, 'journal.jsonl')) ? readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim() : '',
    acme: existsSync(join(dir, 'acme-added.json')),
  })

  it('a data folder with no account: dns apply, acme present and renew are exit 2, say what to do, and nothing is written', async () => {
    const runs = [
      await cli(['dns', 'apply', demoDomain, zoneFile, '--force'], {}, empty),
      await cli(
        ['acme', 'present', `_acme-challenge.${demoDomain}`, 'validation-token-0123456789', '--timeout', '1s'],
        {},
        empty,
      ),
      await cli(['renew', '--expiring-within', '30d', '--yes'], {}, empty),
    ]
    for (const r of runs) {
      expect(r.code).toBe(2)
      expect(r.err).toContain(`The data folder ${empty} has no account`)
      expect(r.err).toContain('--demo')
      expect(r.out + r.err).not.toMatch(/Saved|Added|Renewed/)
    }
    expect(traces(empty)).toEqual({ journal: '', acme: false })
    const ja = await cli(['dns', 'apply', demoDomain, zoneFile, '--force'], JAPANESE, empty)
    expect(ja.code).toBe(2)
    expect(ja.err).toContain(`データフォルダー ${empty} にはアカウントがありません`)
  })

  it('--demo still acts on the demo (its changes stay in the command’s own sandbox)', async () => {
    const saved = await cli(['dns', 'apply', demoDomain, zoneFile, '--force', '--demo'], {}, empty)
    expect(saved.code).toBe(0)
    expect(saved.out).toMatch(/^Saved/m)
    const listed = await cli(['renew', '--expiring-within', '30d', '--demo'], {}, empty)
    expect(listed.code).toBe(0)
  })

  it('an app left on the demo: the command names the accounts instead; --account or --demo chooses; --demo with another account is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-keys-active-demo-'))
    const s = await openServices(dir)
    const other = routerCalls(() => s)
    const made = await other.ok('accounts.create', {
      fields: profileFor(demoSb, 'Shop'),
      apiKey: demoSb.keys.full,
      storage: 'keychain',
    })
    await other.ok('accounts.setActive', { id: 'demo' })
    await s.close()
    const file = keyFile('active-demo.key', demoSb.keys.full)
    const bare = await cli(['dns', 'apply', demoDomain, zoneFile, '--force', '--key-file', file], {}, dir)
    expect(bare.code).toBe(2)
    expect(bare.err).toContain('The app’s active account is the built-in demo')
    expect(bare.err).toContain('Shop')
    const mixed = await cli(['dns', 'export', demoDomain, '--demo', '--account', 'Shop'], {}, dir)
    expect(mixed.code).toBe(2)
    expect(mixed.err).toContain('--demo acts on the built-in demo')
    expect(traces(dir)).toEqual({ journal: '', acme: false })
    const named = await runCli(['accounts', '--json'], { dataDir: dir, env: NO_DESKTOP })
    expect(JSON.parse(named.out)).toMatchObject({
      accounts: [
        { id: 'demo', active: true },
        { id: made.id, name: 'Shop' },
      ],
    })
    expect(await cli(['dns', 'export', demoDomain, '--demo'], {}, dir)).toMatchObject({ code: 0 })
  })
})

/**
 * The unit files docs/command-line.md shows (docs/systemd), as systemd reads them: `systemd-analyze verify`
 * finds nothing to say, and `systemctl enable` installs them. Both run on a root folder of the
 * test's own (--root) holding the system's own units (the targets they name) and a stand-in at
 * /usr/bin/hosting-admin, the path installers put the command at: verify checks that ExecStart's
 * program exists, and the units are checked exactly as shipped, not a copy rewritten.
 */
const UNITS = resolve(__dirname, '../../docs/systemd')
const SYSTEM_UNITS = ['/usr/lib/systemd/system', '/lib/systemd/system'].find((d) =>
  existsSync(join(d, 'timers.target')),
)
const hasSystemd =
  spawnSync('systemd-analyze', ['--version']).status === 0 &&
  spawnSync('systemctl', ['--version']).status === 0 &&
  SYSTEM_UNITS !== undefined

describe.skipIf(!hasSystemd)(
  'the systemd units of docs/systemd (skipped: no systemd-analyze; Debian package systemd)',
  () => {
    let root: string
    const stand = () => join(root, 'usr/bin/hosting-admin')
    const verify = (...units: string[]) => {
      const r = spawnSync('systemd-analyze', ['verify', `--root=${root}`, ...units], { encoding: 'utf8' })
      return { status: r.status, said: `${r.stdout}${r.stderr}`.trim() }
    }
    const instances = [
      'hosting-admin-ddns@home.service',
      'hosting-admin-ddns@home.timer',
      'hosting-admin-ddns-watch@home.service',
      // The server's layout (docs/server-setup.md): the system user and its one data folder.
      'hosting-admin-renew@shop.service',
      'hosting-admin-renew@shop.timer',
    ]

    beforeAll(() => {
      root = mkdtempSync(join(tmpdir(), 'cli-keys-systemd-'))
      mkdirSync(join(root, 'usr/bin'), { recursive: true })
      mkdirSync(join(root, 'etc/systemd'), { recursive: true })
      cpSync(SYSTEM_UNITS!, join(root, 'usr/lib/systemd/system'), { recursive: true, verbatimSymlinks: true })
      cpSync(UNITS, join(root, 'etc/systemd/system'), { recursive: true })
      writeFileSync(stand(), '#!/bin/sh\n')
      chmodSync(stand(), 0o755)
    })
    afterAll(() => rmSync(root, { recursive: true, force: true }))

    it('verify finds nothing to say about the service, its timer and the long-running updater', () => {
      expect(verify(...instances)).toEqual({ status: 0, said: '' })
    })

    it('systemctl enable installs the timer and the updater (their [Install] sections)', () => {
      const timers = [
        'hosting-admin-ddns@home.timer',
        'hosting-admin-ddns-watch@home.service',
        'hosting-admin-renew@shop.timer',
      ]
      const r = spawnSync('systemctl', [`--root=${root}`, 'enable', ...timers], { encoding: 'utf8' })
      expect(r.status).toBe(0)
      expect(
        lstatSync(join(root, 'etc/systemd/system/timers.target.wants/hosting-admin-ddns@home.timer')).isSymbolicLink(),
      ).toBe(true)
      expect(
        lstatSync(
          join(root, 'etc/systemd/system/multi-user.target.wants/hosting-admin-ddns-watch@home.service'),
        ).isSymbolicLink(),
      ).toBe(true)
      expect(
        lstatSync(join(root, 'etc/systemd/system/timers.target.wants/hosting-admin-renew@shop.timer')).isSymbolicLink(),
      ).toBe(true)
    })

    it('the credential the services load is the one the command reads', () => {
      for (const unit of readdirSync(UNITS).filter((f) => f.endsWith('.service'))) {
        const ids = readFileSync(join(UNITS, unit), 'utf8')
          .split('\n')
          .filter((l) => /^#?LoadCredential(Encrypted)?=/.test(l))
          .map((l) => l.replace(/^#?LoadCredential(Encrypted)?=/, '').split(':')[0])
        expect(ids.length).toBeGreaterThan(0)
        expect(new Set(ids)).toEqual(new Set([KEY_CREDENTIAL]))
      }
    })

    it('without the command at /usr/bin/hosting-admin, verify says so (the check above is not vacuous)', () => {
      rmSync(stand())
      const r = verify('hosting-admin-ddns@home.service')
      expect(r.status).not.toBe(0)
      expect(r.said).toContain('/usr/bin/hosting-admin')
    })
  },
)
