/**
 * Accounts set up from the command line on a server that never runs the window (issue 52):
 * the built `hosting-admin` run under `env -i` (an empty environment: no D-Bus, no HOME, no
 * display) adds an account from a key file and another from standard input, each key tried with
 * the sandbox first; renews and saves a DNS record through each; removes them. The key is in no
 * argv or environment of any process (read from /proc while it runs), no output, and no file of
 * the data folder (its logs included). And inside a desktop session (the D-Bus session of
 * `npm test`), a key piped with --keychain goes to the keychain, as the window's add form puts
 * it, and comes out of it with the account.
 */
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { KeytarSecretStore, loadKeytar } from '../../src/main/accounts/secret-store'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { CLI_BIN } from '../helpers/cli-process'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)

interface Ran {
  code: number
  out: string
  err: string
  /** What /proc said of the process while it ran: its command line and environment, as read. */
  seen: string[]
}

/**
 * The built command with exactly `env` (nothing inherited: `env -i` when empty) and `stdin`
 * written to its standard input. Its /proc command line and environment are read once it runs
 * (after exec) and at each chunk of output, until it exits.
 */
function run(args: string[], opts: { env?: NodeJS.ProcessEnv; stdin?: string; dataDir: string }): Promise<Ran> {
  const argv = [CLI_BIN, '--data-dir', opts.dataDir, ...args]
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, argv, { env: opts.env ?? {}, stdio: ['pipe', 'pipe', 'pipe'] })
    const seen: string[] = [argv.join('\0')]
    const look = () => {
      for (const file of ['cmdline', 'environ']) {
        try {
          seen.push(readFileSync(`/proc/${child.pid}/${file}`, 'utf8'))
        } catch {
          // Exited meanwhile: what it had was read before.
        }
      }
    }
    child.once('spawn', look)
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += String(chunk)
      look()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      err += String(chunk)
      look()
    })
    child.stdin.end(opts.stdin ?? '')
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.once('error', fail)
    child.once('close', (code) => {
      clearTimeout(timer)
      done({ code: code ?? -1, out, err, seen })
    })
  })
}

/** Every file under `dir`, each as its bytes read as text (a key written in any form would show). */
function everyFile(dir: string): { path: string; text: string }[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path).toString('latin1') }))
}

const accountsFileSchema = z.object({
  accounts: z.array(z.object({ id: z.string(), name: z.string(), keyKept: z.string().optional() })),
})

/** The accounts of the data folder's accounts file, as the window's app keeps them. */
const accountsIn = (dataDir: string) => {
  const file = join(dataDir, 'accounts.json')
  if (!existsSync(file)) return []
  return accountsFileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).accounts
}

let sb: Sandbox
let outside: ApiClient
let domain: string
let files: string
const every: Ran[] = []

async function cli(args: string[], opts: { env?: NodeJS.ProcessEnv; stdin?: string; dataDir: string }): Promise<Ran> {
  const r = await run(args, opts)
  every.push(r)
  return r
}

/** `accounts add <name>` for the sandbox. */
const add = (name: string) => ['accounts', 'add', name, '--base-url', sb.url]

/** The key in none of what a run showed: argv and environment as /proc read them, stdout, stderr. */
function keyNowhereIn(runs: readonly Ran[], key: string): void {
  for (const r of runs) {
    for (const seen of r.seen) expect(seen).not.toContain(key)
    expect(r.out + r.err).not.toContain(key)
  }
}

describe.skipIf(!existsSync(CLI_BIN))('accounts from the command line (skipped: run npm run build first)', () => {
  beforeAll(async () => {
    sb = await startSandbox({ domains: 6 })
    outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    domain = sb.state.domains.filter((d) => nsFlavour(d) !== 'registrar').map((d) => d.domainname)[0] ?? ''
    files = mkdtempSync(join(tmpdir(), 'cli-accounts-files-'))
  })
  afterAll(async () => {
    await sb?.close()
    rmSync(files, { recursive: true, force: true })
  })

  it('under env -i: added from a key file and from standard input, each renews and saves a record, then is removed; \
the key is in no argv, output or data file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cli-accounts-data-'))
    const keyFile = join(files, 'shop.key')
    writeFileSync(keyFile, `${sb.keys.full}\n`)
    chmodSync(keyFile, 0o600)
    const bare = { dataDir }

    // A refused key keeps nothing, said as the window's add form says it.
    const wrong = join(files, 'wrong.key')
    writeFileSync(wrong, 'sbx_full_not_the_key')
    chmodSync(wrong, 0o600)
    const refused = await cli([...add('Shop'), '--key-file', wrong], bare)
    expect(refused.code).toBe(1)
    expect(refused.err).toContain('The service refused the key of “Shop”.')
    expect(accountsIn(dataDir)).toEqual([])
    const refusedJson = await cli([...add('Shop'), '--key-file', wrong, '--json'], bare)
    expect(JSON.parse(refusedJson.out)).toMatchObject({ ok: false, error: { kind: 'unauthorized' } })

    // From a key file: the key stays in it; the account keeps none of its own.
    const marks = ['--environment', 'staging', '--colour', 'teal']
    const added = await cli([...add('Shop'), '--key-file', keyFile, ...marks], bare)
    expect(added).toMatchObject({ code: 0 })
    expect(added.out).toContain('Added the account Shop')
    expect(added.out).toContain(`Its key stays in ${keyFile}`)
    // From standard input (as `sudo cat root.key | sudo -u hosting-admin hosting-admin accounts add …`), with --json.
    const piped = await cli([...add('Piped'), '--key-stdin', '--json'], { ...bare, stdin: `${sb.keys.full}\n` })
    expect(piped.code).toBe(0)
    expect(JSON.parse(piped.out)).toMatchObject({
      ok: true,
      account: { name: 'Piped', environment: 'none', writeSafety: 'none' },
      key: { kept: 'source', from: 'stdin' },
    })
    const kept = accountsIn(dataDir)
    expect(kept.map((a) => a.name)).toEqual(['Shop', 'Piped'])
    // Kept as the window keeps an account whose key is "for this session only": nothing of it in
    // the keychain or on disk.
    expect(kept.map((a) => a.keyKept)).toEqual(['session', 'session'])
    const listed = await cli(['accounts', '--json'], bare)
    // The demo is listed first, as the window lists it; the first account added is the active one.
    expect(JSON.parse(listed.out)).toMatchObject({
      accounts: [
        { id: 'demo' },
        { name: 'Shop', environment: 'staging', active: true },
        { name: 'Piped', active: false },
      ],
    })
    // Tested again as the window's Test connection, with the key each command is given.
    const tested = await cli(['accounts', 'test', 'Shop', '--key-file', keyFile], bare)
    expect(tested).toMatchObject({ code: 0, out: 'The service accepted the key of “Shop”.\n' })
    expect((await cli(['accounts', 'test', 'Piped', '--key-stdin'], { ...bare, stdin: sb.keys.full })).code).toBe(0)

    const shopByFile = ['--account', 'Shop', '--key-file', keyFile]
    // Renewed and saved through each: the key file for one, standard input for the other.
    const renewals = () => sb.received.filter((r) => r.endpoint === 'domains.expiration.renew').length
    const before = renewals()
    const renewed = await cli(['renew', '--expiring-within', '30d', '--yes', ...shopByFile], bare)
    expect(renewed.code).toBe(0)
    expect(renewed.out).toMatch(/^Renewed: [1-9]/m)
    expect(renewals()).toBeGreaterThan(before)
    const { records } = await outside.call('domains.dns.get', { domain })
    const zoneFile = join(files, 'zone.txt')
    writeFileSync(zoneFile, `${records.trimEnd()}\ntxt cli-file v=from-a-key-file\n`)
    const saved = await cli(['dns', 'apply', domain, zoneFile, '--account', 'Shop', '--key-file', keyFile], bare)
    expect(saved.code).toBe(0)
    expect(saved.out).toMatch(/^Saved: 1 change/m)
    writeFileSync(zoneFile, `${records.trimEnd()}\ntxt cli-file v=from-a-key-file\ntxt cli-stdin v=from-stdin\n`)
    const savedPiped = await cli(['dns', 'apply', domain, zoneFile, '--account', 'Piped', '--key-stdin'], {
      ...bare,
      stdin: sb.keys.full,
    })
    expect(savedPiped.code).toBe(0)
    const after = (await outside.call('domains.dns.get', { domain })).records
    expect(after).toContain('txt cli-file v=from-a-key-file')
    expect(after).toContain('txt cli-stdin v=from-stdin')

    // Renamed, then removed: from a script only with --yes.
    const renamed = await cli(['accounts', 'rename', 'Piped', 'Piped shop'], bare)
    expect(renamed).toMatchObject({ code: 0, out: 'Renamed the account Piped to Piped shop.\n' })
    const unconfirmed = await cli(['accounts', 'remove', 'Shop'], bare)
    expect(unconfirmed.code).toBe(2)
    expect(accountsIn(dataDir)).toHaveLength(2)
    const removed = await cli(['accounts', 'remove', 'Shop', '--yes'], bare)
    expect(removed).toMatchObject({ code: 0, out: 'Removed the account Shop.\n' })
    expect(await cli(['accounts', 'remove', 'Piped shop', '--yes', '--json'], bare)).toMatchObject({ code: 0 })
    expect(accountsIn(dataDir)).toEqual([])
    // The key file is the user's: it stays as it was.
    expect(readFileSync(keyFile, 'utf8')).toBe(`${sb.keys.full}\n`)

    keyNowhereIn(every, sb.keys.full)
    const written = everyFile(dataDir)
    expect(written.map((f) => f.path)).toContain(join(dataDir, 'accounts.json'))
    expect(written.some((f) => f.path.includes(`${join(dataDir, 'logs')}`))).toBe(true)
    for (const f of written) expect(f.text, f.path).not.toContain(sb.keys.full)
    rmSync(dataDir, { recursive: true, force: true })
  }, 300_000)

  it('in Japanese, under env -i: each refusal in the user’s words, nothing kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cli-accounts-ja-'))
    const ja = { dataDir, env: { LANG: 'ja_JP.UTF-8' } }
    const noKey = await cli(add('Shop'), ja)
    expect(noKey.code).toBe(2)
    expect(noKey.err).toContain('アカウントのキーを渡してください')
    const refused = await cli([...add('Shop'), '--key-stdin'], { ...ja, stdin: 'sbx_full_wrong' })
    expect(refused.code).toBe(1)
    expect(refused.err).toContain('サービスは「Shop」のキーを拒否しました。')
    expect(accountsIn(dataDir)).toEqual([])
    rmSync(dataDir, { recursive: true, force: true })
  }, 120_000)

  it.skipIf(!hasSecretService)(
    'in a desktop session: a piped key with --keychain goes to the keychain, \
commands need no key source, and remove takes it out',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'cli-accounts-keychain-'))
      // The session of the test: its bus (the keychain), HOME and PATH, and nothing else.
      const { DBUS_SESSION_BUS_ADDRESS, HOME, PATH } = process.env
      const env = { DBUS_SESSION_BUS_ADDRESS, HOME, PATH }
      const added = await cli([...add('Desk'), '--key-stdin', '--keychain'], { dataDir, env, stdin: sb.keys.full })
      expect(added).toMatchObject({ code: 0 })
      expect(added.out).toContain('Its key is in the keychain')
      const [account] = accountsIn(dataDir)
      expect(account).toMatchObject({ name: 'Desk', keyKept: 'keychain' })
      const keychain = new KeytarSecretStore(await loadKeytar())
      expect(await keychain.get(account?.id ?? '')).toBe(sb.keys.full)

      const { records } = await outside.call('domains.dns.get', { domain })
      const zoneFile = join(files, 'desk.txt')
      writeFileSync(zoneFile, `${records.trimEnd()}\ntxt cli-keychain v=from-the-keychain\n`)
      const saved = await cli(['dns', 'apply', domain, zoneFile, '--account', 'Desk'], { dataDir, env })
      expect(saved.code).toBe(0)
      const after = (await outside.call('domains.dns.get', { domain })).records
      expect(after).toContain('txt cli-keychain v=from-the-keychain')

      expect(await cli(['accounts', 'remove', 'Desk', '--yes'], { dataDir, env })).toMatchObject({ code: 0 })
      expect(await keychain.get(account?.id ?? '')).toBeUndefined()
      keyNowhereIn(every, sb.keys.full)
      for (const f of everyFile(dataDir)) expect(f.text, f.path).not.toContain(sb.keys.full)
      rmSync(dataDir, { recursive: true, force: true })
    },
    120_000,
  )

  it.skipIf(!hasSecretService)(
    'under env -i, remove of an account whose key is in the keychain removes neither and says how to (exit 1)',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'cli-accounts-key-stays-'))
      const { DBUS_SESSION_BUS_ADDRESS, HOME, PATH } = process.env
      const desktop = { DBUS_SESSION_BUS_ADDRESS, HOME, PATH }
      const added = await cli([...add('Kept'), '--key-stdin', '--keychain'], {
        dataDir,
        env: desktop,
        stdin: sb.keys.full,
      })
      expect(added).toMatchObject({ code: 0 })
      const [account] = accountsIn(dataDir)
      const keychain = new KeytarSecretStore(await loadKeytar())
      expect(await keychain.get(account?.id ?? '')).toBe(sb.keys.full)

      // No D-Bus session (ssh, cron): the keychain cannot be reached to take the key out.
      const bare = await cli(['accounts', 'remove', 'Kept', '--yes'], { dataDir })
      expect(bare.code).toBe(1)
      expect(bare.out).toBe('')
      expect(bare.err).toContain('The account was not removed: its key is in the system keychain')
      expect(bare.err).toContain('The key of Kept stays in the keychain, and the account with it.')
      expect(bare.err).toContain('run hosting-admin accounts remove again from a desktop session')
      const ja = await cli(['accounts', 'remove', 'Kept', '--yes', '--json'], { dataDir, env: { LANG: 'ja_JP.UTF-8' } })
      expect(ja.code).toBe(1)
      expect(JSON.parse(ja.out)).toMatchObject({ ok: false, error: { code: 'keychain.keyStays' } })
      expect(ja.err).toContain('Kept のキーはキーチェーンに残り')
      // Nothing went: the account is listed still, its key still in the keychain.
      expect(accountsIn(dataDir)).toMatchObject([{ name: 'Kept', keyKept: 'keychain' }])
      expect(await keychain.get(account?.id ?? '')).toBe(sb.keys.full)

      // From the desktop session, as it says: both go.
      expect(await cli(['accounts', 'remove', 'Kept', '--yes'], { dataDir, env: desktop })).toMatchObject({ code: 0 })
      expect(accountsIn(dataDir)).toEqual([])
      expect(await keychain.get(account?.id ?? '')).toBeUndefined()
      keyNowhereIn(every, sb.keys.full)
      rmSync(dataDir, { recursive: true, force: true })
    },
    120_000,
  )

  const terminalCase =
    'at a terminal with no key source: the key is asked for, not shown as typed, and put in the keychain; \
remove asks before it removes'
  it.skipIf(!hasSecretService || !hasScript)(
    terminalCase,
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'cli-accounts-tty-'))
      const { DBUS_SESSION_BUS_ADDRESS, HOME, PATH } = process.env
      const env = { DBUS_SESSION_BUS_ADDRESS, HOME, PATH, TERM: 'dumb' }
      const shown = await atTerminal([...add('Typed')], dataDir, env, [
        ['(not shown as you type)', `${sb.keys.full}\r`],
      ])
      expect(shown.code).toBe(0)
      expect(shown.screen).toContain('API key of “Typed” (not shown as you type)')
      expect(shown.screen).toContain('Its key is in the keychain')
      // Echo off: what the terminal showed holds no key.
      expect(shown.screen).not.toContain(sb.keys.full)
      const [account] = accountsIn(dataDir)
      expect(account).toMatchObject({ name: 'Typed', keyKept: 'keychain' })
      const keychain = new KeytarSecretStore(await loadKeytar())
      expect(await keychain.get(account?.id ?? '')).toBe(sb.keys.full)
      // Asked first at a terminal: "n" keeps it (exit 2), "y" removes it.
      const kept = await atTerminal(['accounts', 'remove', 'Typed'], dataDir, env, [['[y/N]', 'n\r']])
      expect(kept.code).toBe(2)
      expect(accountsIn(dataDir)).toHaveLength(1)
      const removed = await atTerminal(['accounts', 'remove', 'Typed'], dataDir, env, [['[y/N]', 'y\r']])
      expect(removed.code).toBe(0)
      expect(accountsIn(dataDir)).toEqual([])
      expect(await keychain.get(account?.id ?? '')).toBeUndefined()
      rmSync(dataDir, { recursive: true, force: true })
    },
    120_000,
  )
})

const hasScript = spawnSync('script', ['--version']).status === 0

/**
 * The built command at a terminal of its own (util-linux `script` gives it a pseudo-terminal):
 * each answer is typed once its question shows; `screen` is what the terminal showed.
 */
function atTerminal(
  args: string[],
  dataDir: string,
  env: NodeJS.ProcessEnv,
  answers: [question: string, typed: string][],
): Promise<{ code: number; screen: string }> {
  const quoted = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`
  const command = [process.execPath, CLI_BIN, '--data-dir', dataDir, ...args].map(quoted).join(' ')
  return new Promise((done, fail) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    let screen = ''
    const pending = [...answers]
    child.stdout.on('data', (chunk: Buffer) => {
      screen += String(chunk)
      const next = pending[0]
      if (next && screen.includes(next[0])) {
        pending.shift()
        child.stdin.write(next[1])
      }
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.once('error', fail)
    child.once('close', (code) => {
      clearTimeout(timer)
      done({ code: code ?? -1, screen })
    })
  })
}
