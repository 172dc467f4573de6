/**
 * The packed app, built offline: electron-builder's own packing (`--dir`, electron-builder.yml
 * less the fuse hook, which tests/unit/packaging.test.ts covers) over a stand-in Electron
 * distribution, since no Electron build can be fetched here. What must hold: nothing is rebuilt;
 * keytar's and libsql's Node-API binaries are unpacked beside app.asar; no musl build of libsql
 * and no TypeScript of dependencies is packed; and the packed main, laid out as Electron presents
 * app.asar with its unpacked files, starts against the Electron double and uses both modules
 * (the keychain, and the store in its worker thread).
 *
 * The hosting-admin command ships beside it (resources/cli, outside app.asar): its launcher, run
 * from the packed files by the system's Node, is the command, and with the account's key in the
 * real keychain lists the accounts and reads a zone from the sandbox. The Linux installers'
 * effective configuration comes from electron-builder itself, stopped just before it would run
 * the tools it downloads (fpm, the AppImage runtime): the deb's files, laid out in a root of
 * their own, make /usr/bin/hosting-admin the command, its install script links only the window
 * app (hosting-admin-app), and the AppImage's desktop entry keeps Chromium's sandbox.
 */
import { execFile, spawnSync } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { extractAll, extractFile, listPackage } from '@electron/asar'
import { Arch, Platform, build } from 'electron-builder'
import { assertBuilt, startBuiltShell, type BuiltShell } from '../../support/built-shell'
import { ipcChannel } from '@shared/ipc/channels'
import { stageCommand } from '../../scripts/stage-command'
import { texts } from '../../src/cli/text'
import { APP_FOLDER_NAME, dataDirOf } from '../../src/cli/data-dir'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { setUpAccount } from '../helpers/cli-account'

const work = mkdtempSync(join(tmpdir(), 'packed-app-'))
const out = join(work, 'dist')
const unpackedApp = join(out, 'linux-unpacked')
const resources = join(unpackedApp, 'resources')
const cliDir = join(resources, 'cli')
const launcher = join(cliDir, 'hosting-admin')
let shell: BuiltShell | undefined

/** What electron-builder hands the deb and AppImage targets just before it would run their tools. */
const debArgs = z.tuple([z.array(z.string()), z.string()])
const appImageEntry = z.object({ desktop: z.string(), desktopFileName: z.string() })
let deb: { root: string; placed: string[]; afterInstall: string; afterRemove: string } | undefined
let appImage: z.infer<typeof appImageEntry> | undefined

/** The system's Node.js on PATH, as a shell finds it; nothing else of this machine's PATH. */
const nodeOnPath = `${dirname(process.execPath)}:/usr/bin:/bin`

interface Ran {
  code: number
  out: string
  err: string
}
/** Runs a file as a process of its own (asynchronously: the sandbox of this process keeps answering). */
const run = (file: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> =>
  new Promise((done) => {
    execFile(file, args, { env, timeout: 60_000 }, (err, out, errText) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, out, err: errText }),
    )
  })
const asUser = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  HOME: process.env.HOME,
  PATH: nodeOnPath,
  LANG: 'C',
  ...extra,
})

beforeAll(async () => {
  assertBuilt()
  // out/command, as npm run dist lays it out before electron-builder runs.
  stageCommand()
  // A stand-in for Electron's distribution: electron-builder copies it and renames the executable.
  const dist = join(work, 'electron-dist')
  mkdirSync(join(dist, 'resources'), { recursive: true })
  writeFileSync(join(dist, 'electron'), '#!/bin/sh\nexit 0\n')
  chmodSync(join(dist, 'electron'), 0o755)
  for (const f of ['version', 'LICENSE', 'LICENSES.chromium.html'])
    writeFileSync(join(dist, f), f === 'version' ? 'v45.0.0' : '')
  const config = readFileSync('electron-builder.yml', 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith('afterPack:'))
    .join('\n')
    .replace(/^ {2}output: dist$/m, `  output: ${out}`)
  const configFile = join(work, 'electron-builder.yml')
  writeFileSync(configFile, `${config}\nelectronDist: ${dist}\nelectronVersion: 45.0.0\n`)
  const packed = spawnSync(
    resolve('node_modules/.bin/electron-builder'),
    ['--linux', 'dir', '--publish', 'never', '--config', configFile],
    {
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
      timeout: 120_000,
    },
  )
  if (packed.status !== 0)
    throw new Error(`electron-builder failed (${packed.status}):\n${packed.stdout}${packed.stderr}`)

  // The Linux installers from that packed app, each stopped where electron-builder hands over
  // its effective options (its own tests' hook), before fpm or the AppImage tools would be fetched.
  await build({
    projectDir: resolve('.'),
    config: configFile,
    prepackaged: unpackedApp,
    targets: Platform.LINUX.createTarget(['deb', 'AppImage'], Arch.x64),
    publish: 'never',
    effectiveOptionComputed: async (options: unknown) => {
      const debOptions = debArgs.safeParse(options)
      if (debOptions.success) {
        // Laid out now: the install scripts and the desktop entry are electron-builder's temporary files.
        const args = debOptions.data[0]
        const root = mkdtempSync(join(work, 'deb-root-'))
        const kept = (flag: string) => {
          const file = join(work, `deb${flag}`)
          cpSync(args[args.indexOf(flag) + 1] ?? '', file)
          return file
        }
        deb = {
          root,
          placed: layOut(root, args),
          afterInstall: kept('--after-install'),
          afterRemove: kept('--after-remove'),
        }
      }
      const entry = appImageEntry.safeParse(options)
      if (entry.success) appImage = entry.data
      return true
    },
  })
}, 240_000)
afterAll(async () => {
  await shell?.quit()
  // 83 MB a run: the packed app and its command.
  rmSync(work, { recursive: true, force: true })
})

describe('the packed app', () => {
  it('is packed without rebuilding anything, with both native modules unpacked and nothing unused', () => {
    const unpacked = join(resources, 'app.asar.unpacked', 'node_modules')
    // Not rebuilt: the very binaries npm installed.
    for (const binary of ['keytar/build/Release/keytar.node', '@libsql/linux-x64-gnu/index.node']) {
      expect(readFileSync(join(unpacked, binary)).equals(readFileSync(join('node_modules', binary))), binary).toBe(true)
    }
    expect(existsSync(join(unpacked, 'keytar', 'build', 'Release', 'keytar.node'))).toBe(true)
    expect(existsSync(join(unpacked, '@libsql', 'linux-x64-gnu', 'index.node'))).toBe(true)
    // Node-API modules: the same binary loads in Node and in Electron, whatever its ABI.
    for (const binary of [
      join(unpacked, 'keytar', 'build', 'Release', 'keytar.node'),
      join(unpacked, '@libsql', 'linux-x64-gnu', 'index.node'),
    ]) {
      expect(readFileSync(binary).includes('napi_register_module_v1'), binary).toBe(true)
    }
    const files = listPackage(join(resources, 'app.asar'), { isPack: false })
    expect(files.filter((f) => f.includes('linux-x64-musl'))).toEqual([])
    expect(files.filter((f) => f.includes('/node_modules/') && /\.(ts|mts|cts)$/.test(f))).toEqual([])
    expect(files).toContain('/out/main/index.js')
    expect(files).toContain('/out/main/store-worker.js')
    // The command's copy is beside the asar, not in it.
    expect(files.filter((f) => f.startsWith('/out/command') || f.startsWith('/out/deb'))).toEqual([])
  })

  it('starts from the packed files and uses the keychain module and the store in its worker', async () => {
    // As Electron presents it: app.asar's files, with the unpacked ones in their place.
    const app = join(work, 'app')
    extractAll(join(resources, 'app.asar'), app)
    cpSync(join(resources, 'app.asar.unpacked'), app, { recursive: true })
    shell = await startBuiltShell({ main: join(app, 'out', 'main', 'index.js'), packaged: true })
    expect(await shell.ready()).toBe(true)
    // keytar, loaded from the packed files (the answer says whether a keychain answers, not whether the module loaded).
    const keychain = await shell.invoke(ipcChannel('accounts.keychainStatus'), {})
    expect(keychain).toMatchObject({ ok: true })
    // The store, opened in its worker thread with libsql from the packed files.
    const search = await shell.invoke(ipcChannel('store.search'), { query: 'example' })
    expect(search).toMatchObject({ ok: true, value: [] })
  })
})

/** The packed app's package.json, as Electron reads it from app.asar. */
const packedManifest = () =>
  z
    .object({ name: z.string(), productName: z.string().optional() })
    .parse(JSON.parse(extractFile(join(resources, 'app.asar'), 'package.json').toString('utf8')))

describe('the command in the packed app', () => {
  it('is in resources/cli, outside app.asar: its launchers, the built command and its dependencies, nothing rebuilt', () => {
    expect(statSync(launcher).mode & 0o111).toBe(0o111)
    for (const f of ['hosting-admin.cmd', 'hosting-admin.mjs', 'main/cli.js', 'main/store-worker.js', 'package.json'])
      expect(existsSync(join(cliDir, f)), f).toBe(true)
    expect(existsSync(join(cliDir, 'main', 'index.js'))).toBe(false)
    for (const binary of ['keytar/build/Release/keytar.node', '@libsql/linux-x64-gnu/index.node']) {
      expect(
        readFileSync(join(cliDir, 'node_modules', binary)).equals(readFileSync(join('node_modules', binary))),
        binary,
      ).toBe(true)
    }
    for (const unused of ['@libsql/linux-x64-musl', 'keytar/src', 'prebuild-install'])
      expect(existsSync(join(cliDir, 'node_modules', unused)), unused).toBe(false)
  })

  it('answers --help as the command (not the app), run by the system Node from the packed files, in English and Japanese', async () => {
    const en = await run(launcher, ['--help'], asUser())
    expect(en).toMatchObject({ code: 0, err: '' })
    expect(en.out.trim()).toBe(texts('en').t('cli.usage'))
    const ja = await run(launcher, ['--help'], asUser({ LANG: 'ja_JP.UTF-8' }))
    expect(ja.out.trim()).toBe(texts('ja').t('cli.usage'))
  })

  it("says which Node.js it needs when none is on PATH or it is older, in the user's language", async () => {
    const empty = mkdtempSync(join(work, 'no-node-'))
    for (const [LANG, locale] of [
      ['C', 'en'],
      ['ja_JP.UTF-8', 'ja'],
    ] as const) {
      const r = await run(launcher, ['--help'], { PATH: empty, LANG })
      expect(r.code).toBe(1)
      expect(r.out).toBe('')
      expect(r.err.trim()).toBe(texts(locale).t('cli.nodeMissing', { minimum: '20.19.0' }))
    }
    // An older Node.js (this one, reporting 18.0.0 from the start) is told which one it needs, before the command loads.
    const older = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"18.0.0"})'
    for (const [LANG, locale] of [
      ['C', 'en'],
      ['ja_JP.UTF-8', 'ja'],
    ] as const) {
      const r = await run(process.execPath, ['--import', older, join(cliDir, 'hosting-admin.mjs'), '--help'], {
        PATH: nodeOnPath,
        LANG,
      })
      expect(r.code).toBe(1)
      expect(r.out).toBe('')
      expect(r.err.trim()).toBe(texts(locale).t('cli.nodeTooOld', { minimum: '20.19.0', have: '18.0.0' }))
    }
  })

  it('gives the app the data folder the command uses: productName in the packed package.json', () => {
    // Electron names userData after the app's package.json: productName, else name.
    const manifest = packedManifest()
    const electronsName = manifest.productName ?? manifest.name
    expect(electronsName).toBe(APP_FOLDER_NAME)
    expect(dataDirOf(undefined, { XDG_CONFIG_HOME: '/home/u/.config' }, 'linux')).toBe(
      join('/home/u/.config', electronsName),
    )
    expect(dataDirOf(undefined, { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32').endsWith(electronsName)).toBe(
      true,
    )
  })
})

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)

describe.skipIf(!hasSecretService)(
  'the packed command against the sandbox (skipped: no D-Bus session; run through npm test)',
  () => {
    let sb: Sandbox
    let dataDir: string
    let domain: string

    beforeAll(async () => {
      sb = await startSandbox({ domains: 3 })
      domain = sb.state.domains.filter((d) => nsFlavour(d) !== 'registrar').map((d) => d.domainname)[0] ?? ''
      dataDir = mkdtempSync(join(work, 'data-'))
      await setUpAccount(sb, dataDir, 'Main')
    })
    afterAll(async () => {
      await sb?.close()
    })

    it('lists the accounts and exports a zone, the key read from the keychain; no key printed', async () => {
      const env = asUser({
        HOSTING_ADMIN_DATA_DIR: dataDir,
        DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS,
      })
      const accounts = await run(launcher, ['accounts'], env)
      expect(accounts.code).toBe(0)
      expect(accounts.out).toMatch(/^\* Main\t/m)
      const before = sb.received.length
      const zone = await run(launcher, ['dns', 'export', domain, '--json'], env)
      expect(zone.code).toBe(0)
      expect(JSON.parse(zone.out)).toMatchObject({ domain })
      expect(sb.received.slice(before).some((r) => r.endpoint === 'domains.dns.get')).toBe(true)
      for (const r of [accounts, zone]) expect(r.out + r.err).not.toContain(sb.keys.full)
    })
  },
)

/** Lays out a package's files in root as fpm's `source=destination` arguments place them (links kept as links). */
function layOut(root: string, args: string[]): string[] {
  const placed: string[] = []
  for (const arg of args) {
    const at = arg.indexOf('=')
    if (at <= 0 || arg.startsWith('-')) continue
    const [source, destination] = [resolve(arg.slice(0, at)), arg.slice(at + 1)]
    if (!lstatSync(source, { throwIfNoEntry: false })) continue
    const target = join(root, destination)
    mkdirSync(dirname(target), { recursive: true })
    cpSync(source, target, { recursive: true, verbatimSymlinks: true })
    placed.push(destination)
  }
  return placed
}

describe('the Linux installers, as electron-builder configures them', () => {
  it('the deb installs /usr/bin/hosting-admin as the command, run from /opt/Hosting Admin/resources/cli', async () => {
    expect(deb).toBeDefined()
    const { root, placed } = deb ?? { root: '', placed: [] }
    expect(placed).toContain('/opt/Hosting Admin')
    expect(placed).toContain('/usr/bin/hosting-admin')
    // A link to the command's launcher, relative so that it resolves in this root as in /.
    expect(readlinkSync(join(root, 'usr/bin/hosting-admin'))).toBe(
      '../../opt/Hosting Admin/resources/cli/hosting-admin',
    )
    const help = await run(join(root, 'usr/bin/hosting-admin'), ['--help'], asUser())
    expect(help).toMatchObject({ code: 0, err: '' })
    expect(help.out.trim()).toBe(texts('en').t('cli.usage'))
    // The window app is /opt/Hosting Admin/hosting-admin-app, and its menu entry runs that.
    expect(existsSync(join(root, 'opt/Hosting Admin/hosting-admin-app'))).toBe(true)
    const entry = readFileSync(join(root, 'usr/share/applications/hosting-admin.desktop'), 'utf8')
    expect(entry).toMatch(/^Exec="\/opt\/Hosting Admin\/hosting-admin-app" %U$/m)
    // Electron's window app id is package.json's desktopName: the entry claims that window.
    expect(entry).toMatch(/^StartupWMClass=hosting-admin$/m)
  })

  it("the deb's install and removal scripts link and unlink only the window app, never /usr/bin/hosting-admin", async () => {
    // The scripts run with every program they call replaced by one that records its arguments.
    const shims = mkdtempSync(join(work, 'shims-'))
    const calls = join(shims, 'calls.log')
    for (const program of [
      'update-alternatives',
      'ln',
      'rm',
      'chmod',
      'unshare',
      'readlink',
      'apparmor_status',
      'update-mime-database',
      'update-desktop-database',
    ]) {
      writeFileSync(join(shims, program), `#!/bin/sh\necho "${program} $*" >> '${calls}'\n`)
      chmodSync(join(shims, program), 0o755)
    }
    for (const script of [deb?.afterInstall ?? '', deb?.afterRemove ?? '']) {
      const r = spawnSync('/bin/bash', [script], { encoding: 'utf8', env: { PATH: shims } })
      expect(r.status, `${script}: ${r.stderr}`).toBe(0)
    }
    const recorded = readFileSync(calls, 'utf8')
    expect(recorded).toContain(
      'update-alternatives --install /usr/bin/hosting-admin-app hosting-admin-app /opt/Hosting Admin/hosting-admin-app 100',
    )
    expect(recorded).toContain('update-alternatives --remove hosting-admin-app /opt/Hosting Admin/hosting-admin-app')
    expect(recorded).not.toMatch(/\/usr\/bin\/hosting-admin(?!-app)/)
  })

  it("the AppImage's desktop entry starts the app with Chromium's sandbox (no --no-sandbox)", () => {
    expect(appImage?.desktopFileName).toBe('hosting-admin.desktop')
    expect(appImage?.desktop).toMatch(/^Exec=AppRun %U$/m)
    expect(appImage?.desktop).not.toContain('--no-sandbox')
  })
})
