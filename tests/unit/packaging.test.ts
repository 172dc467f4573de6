/**
 * Packaging (electron-builder.yml and its afterPack hook, scripts/after-pack.mjs). The installers
 * cannot be built here (no Electron binary can be fetched), so the configuration is checked with
 * electron-builder's own loader and schema, and the fuse hook runs on a stand-in binary that
 * carries a fuse wire the way Electron's does.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { Arch, type AfterPackContext, type Configuration } from 'electron-builder'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js'
import { loadConfig } from 'app-builder-lib/out/util/config/load.js'
import { resolveFunction } from 'app-builder-lib/out/util/resolve.js'
import { DebugLogger } from 'builder-util'
import { z } from 'zod'
import afterPack, {
  FUSES,
  applyFuses,
  assertCommandShipped,
  electronExecutable,
  fuseConfig,
  resourcesDir,
  type PackedApp,
} from '../../scripts/after-pack.mjs'
import { APP_FOLDER_NAME } from '../../src/cli/data-dir'
import { REQUIRED_FUSES } from '../../src/main/shell/security'
import { APP_USER_MODEL_ID } from '../../src/main/base/app-version'
import { match } from '../helpers/matchers'

const projectDir = resolve('.')
const HOOK = './scripts/after-pack.mjs'

/** Every file name electron-builder looks for, in its order (app-builder-lib/out/util/config/load.js). */
const CONFIG_FILES = ['yml', 'yaml', 'json', 'json5', 'toml', 'js', 'cjs', 'ts', 'mjs'].map(
  (ext) => `electron-builder.${ext}`,
)

const tempDir = () => mkdtempSync(join(tmpdir(), 'packaging-'))
const validate = (config: Configuration) => validateConfiguration(config, new DebugLogger(false))

/** Fuse name (FuseV1Options) → wire index, from @electron/fuses itself. */
const FUSE_INDEX = new Map(
  Object.entries(FuseV1Options).filter((entry): entry is [string, FuseV1Options] => typeof entry[1] === 'number'),
)
const fuseNamed = (name: string): FuseV1Options => {
  const option = FUSE_INDEX.get(name)
  if (option === undefined) throw new Error(`@electron/fuses has no fuse ${name}`)
  return option
}
/** REQUIRED_FUSES key (runAsNode) → fuse name (RunAsNode). */
const fuseOfKey = (key: string) => fuseNamed(key.charAt(0).toUpperCase() + key.slice(1))
const stateOf = (on: boolean) => (on ? FuseState.ENABLE : FuseState.DISABLE)

/** What the hook must set: REQUIRED_FUSES, and file:// without extra privileges. */
const EXPECTED = new Map<FuseV1Options, boolean>([
  ...Object.entries(REQUIRED_FUSES).map(([key, on]): [FuseV1Options, boolean] => [fuseOfKey(key), on]),
  [FuseV1Options.GrantFileProtocolExtraPrivileges, false],
])

describe('electron-builder configuration', () => {
  let config: Configuration

  beforeAll(async () => {
    config = await getConfig(projectDir, null, null)
  })

  it('is one file, electron-builder.yml, which electron-builder itself finds and loads', async () => {
    expect(CONFIG_FILES.filter((f) => existsSync(join(projectDir, f)))).toEqual(['electron-builder.yml'])
    expect(JSON.parse(readFileSync('package.json', 'utf8'))).not.toHaveProperty('build')
    const loaded = await loadConfig<Configuration>({
      packageKey: 'build',
      configFilename: 'electron-builder',
      projectDir,
      packageMetadata: null,
    })
    expect(loaded?.configFile).toBe(join(projectDir, 'electron-builder.yml'))
  })

  it("passes electron-builder's own schema validation", async () => {
    await expect(validate(config)).resolves.toBeUndefined()
  })

  it('the validation is not vacuous: an unknown key, a misplaced key and wrong types are rejected', async () => {
    // Each variant of the configuration goes through electron-builder's loader as a file of its own.
    const loaded = await loadConfig<Configuration>({
      packageKey: 'build',
      configFilename: 'electron-builder',
      projectDir,
      packageMetadata: null,
    })
    const variant = async (change: Record<string, unknown>) => {
      const dir = tempDir()
      writeFileSync(join(dir, 'electron-builder.json'), JSON.stringify({ ...loaded?.result, ...change }))
      await validate(await getConfig(dir, null, null))
    }
    await expect(variant({})).resolves.toBeUndefined()
    await expect(variant({ notAnOption: true })).rejects.toThrow(/notAnOption/)
    await expect(variant({ linux: { ...config.linux, targets: ['deb'] } })).rejects.toThrow(/configuration\.linux/)
    await expect(variant({ asar: 'yes' })).rejects.toThrow(/configuration\.asar /)
    await expect(variant({ asarUnpack: { keytar: true } })).rejects.toThrow(/configuration\.asarUnpack/)
    // The schema lets any value through for hooks (their "typeof: function" branch is a keyword its
    // validator ignores), so the hook path is checked by the afterPack test below, not here.
  })

  it('builds AppImage and deb on Linux, an NSIS installer on Windows and a dmg on macOS', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb'])
    expect(config.win?.target).toBe('nsis')
    expect(config.mac?.target).toBe('dmg')
  })

  it('the app id is the one the shell gives Windows for its notifications', () => {
    expect(config.appId).toBe(APP_USER_MODEL_ID)
  })

  it('packs only out/** and package.json, into an asar with the native modules (keytar, libsql) unpacked', () => {
    // The rest of the list takes out what is never used: dependencies' TypeScript, maps and docs, libsql's musl build, keytar's build tree.
    expect(config.files).toEqual([
      { filter: match.arrayContaining(['out/**', 'package.json', '!**/node_modules/@libsql/*-musl/**']) },
    ])
    expect(config.npmRebuild).toBe(false)
    expect(config.buildDependenciesFromSource).toBe(false)
    expect(config.asar).toBe(true)
    expect(config.asarUnpack).toEqual(['node_modules/keytar/**', 'node_modules/@libsql/**'])
    for (const key of ['extraFiles', 'electronFuses'] as const) expect(config[key]).toBeUndefined()
  })

  it('ships the staged command (out/command) as resources/cli, its node_modules as a set of its own, and leaves it out of app.asar', () => {
    expect(config.extraResources).toEqual([
      { from: 'out/command', to: 'cli' },
      { from: 'out/command/node_modules', to: 'cli/node_modules' },
    ])
    expect(config.files).toEqual([{ filter: match.arrayContaining(['!out/{command,deb}{,/**}']) }])
    // npm run dist stages it between the build and electron-builder.
    const { scripts } = z
      .object({ scripts: z.record(z.string(), z.string()) })
      .parse(JSON.parse(readFileSync('package.json', 'utf8')))
    for (const name of ['dist', 'dist:linux', 'dist:win', 'dist:mac']) {
      expect(scripts[name], name).toMatch(/^electron-vite build && tsx scripts\/stage-command\.ts && electron-builder /)
    }
  })

  it('names the window app hosting-admin-app on Linux, so that the deb can make /usr/bin/hosting-admin the command', () => {
    expect(config.linux?.executableName).toBe('hosting-admin-app')
    expect(config.deb?.fpm).toEqual(['out/deb/hosting-admin=/usr/bin/hosting-admin'])
    expect(config.linux?.syncDesktopName).toBe(true)
  })

  it("takes the product name from package.json, which electron-builder puts in the packed app's package.json (Electron's userData name)", async () => {
    const manifest = z
      .object({ productName: z.string(), desktopName: z.string() })
      .parse(JSON.parse(readFileSync('package.json', 'utf8')))
    expect(manifest.productName).toBe(APP_FOLDER_NAME)
    expect(manifest.desktopName).toBe('hosting-admin.desktop')
    // Not in electron-builder.yml: there it would name the installers but not Electron's data folder.
    expect(config.productName).toBeUndefined()
    expect(config.extraMetadata).not.toHaveProperty('productName')
  })

  it('builds the AppImage with the toolset whose desktop entry keeps the sandbox (no --no-sandbox)', () => {
    expect(config.toolsets?.appimage).toBe('1.0.3')
  })

  it('publishes nothing and writes no update feed, so the installers work offline', () => {
    expect(config.publish).toBeNull()
    expect(JSON.parse(readFileSync('package.json', 'utf8'))).not.toHaveProperty('dependencies.electron-updater')
  })

  it('runs the fuse hook after pack, which electron-builder resolves to the exported function', async () => {
    expect(config.afterPack).toBe(HOOK)
    expect(existsSync(resolve(HOOK))).toBe(true)
    const hook = await resolveFunction<unknown>('module', HOOK, 'afterPack', projectDir)
    expect(typeof hook).toBe('function')
    expect(hook).toHaveProperty('name', 'afterPack')
    // The hook's declared parameter accepts what electron-builder passes.
    const asElectronBuilderHook: (context: AfterPackContext) => Promise<void> = afterPack
    expect(asElectronBuilderHook).toBe(afterPack)
  })
})

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
/** The fuse wire of Electron 45: format version 1, nine fuses. */
const WIRE_LENGTH = 9

/**
 * A stand-in for an Electron binary: filler, the fuse sentinel, the wire's version and length
 * bytes, one '0'/'1' byte per fuse, more filler. Every fuse the hook sets starts the other way.
 */
function writeStandIn(path: string, wire?: number[]): number[] {
  const initial =
    wire ??
    Array.from({ length: WIRE_LENGTH }, (_, i) => {
      const want = EXPECTED.get(i)
      if (want !== undefined) return stateOf(!want)
      return i === FuseV1Options.WasmTrapHandlers ? FuseState.ENABLE : FuseState.DISABLE
    })
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(
    path,
    Buffer.concat([
      Buffer.alloc(64 * 1024, 0xcc),
      Buffer.from(SENTINEL, 'latin1'),
      Buffer.from([1, initial.length, ...initial]),
      Buffer.alloc(4096, 0xcc),
    ]),
  )
  return initial
}

const packedLinux = (appOutDir: string): PackedApp => ({
  appOutDir,
  electronPlatformName: 'linux',
  arch: Arch.x64,
  packager: { appInfo: { productFilename: 'Hosting Admin' }, executableName: 'hosting-admin-app' },
})

/** The files of the staged command the hook looks for. */
function writeCommand(cli: string): void {
  mkdirSync(join(cli, 'main'), { recursive: true })
  for (const f of ['hosting-admin', 'hosting-admin.cmd', 'hosting-admin.mjs', join('main', 'cli.js')])
    writeFileSync(join(cli, f), '')
}

describe('fuse hook (scripts/after-pack.mjs)', () => {
  it('sets every fuse of REQUIRED_FUSES (security.ts) to its value, and only those plus GrantFileProtocolExtraPrivileges off', () => {
    expect(Object.keys(REQUIRED_FUSES).length).toBeGreaterThanOrEqual(6)
    const configured = new Map(
      Object.entries(FUSES).map(([index, on]): [FuseV1Options, boolean] => [Number(index), on]),
    )
    expect(configured).toEqual(EXPECTED)
    expect(configured.get(FuseV1Options.GrantFileProtocolExtraPrivileges)).toBe(false)
  })

  it('flips the fuses in a stand-in binary, as read back by @electron/fuses', async () => {
    const exe = join(tempDir(), 'hosting-admin')
    const before = writeStandIn(exe)
    const size = readFileSync(exe).length
    await applyFuses(exe, 'linux', 'x64')
    const wire = await getCurrentFuseWire(exe)
    for (const [key, on] of Object.entries(REQUIRED_FUSES)) expect(wire[fuseOfKey(key)], key).toBe(stateOf(on))
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE)
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE)
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE)
    // Fuses the hook does not set keep their state, and nothing else in the file moves.
    expect(wire[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]).toBe(
      before[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot],
    )
    expect(wire[FuseV1Options.WasmTrapHandlers]).toBe(before[FuseV1Options.WasmTrapHandlers])
    expect(readFileSync(exe).length).toBe(size)
  })

  it('finds the fuse wire inside a macOS app bundle', async () => {
    const app = join(tempDir(), 'Hosting Admin.app')
    writeStandIn(join(app, 'Contents', 'Frameworks', 'Electron Framework.framework', 'Electron Framework'))
    await applyFuses(app, 'darwin', 'x64')
    const wire = await getCurrentFuseWire(app)
    for (const [fuse, on] of EXPECTED) expect(wire[fuse]).toBe(stateOf(on))
  })

  it('refuses a file without the fuse sentinel, a missing file, a too short wire and a removed fuse', async () => {
    const dir = tempDir()
    const plain = join(dir, 'not-electron')
    writeFileSync(plain, Buffer.alloc(8192, 0x30))
    await expect(applyFuses(plain, 'linux', 'x64')).rejects.toThrow(/sentinel/)
    await expect(applyFuses(join(dir, 'missing'), 'linux', 'x64')).rejects.toThrow(/ENOENT/)

    const short = join(dir, 'short')
    writeStandIn(short, [FuseState.ENABLE, FuseState.DISABLE, FuseState.ENABLE])
    await expect(applyFuses(short, 'linux', 'x64')).rejects.toThrow(/not long enough/)

    const removed = join(dir, 'removed')
    const wire = writeStandIn(removed)
    wire[FuseV1Options.RunAsNode] = FuseState.REMOVED
    writeStandIn(removed, wire)
    await expect(applyFuses(removed, 'linux', 'x64')).rejects.toThrow(/removed fuse RunAsNode/)
  })

  it('resets the ad-hoc signature on arm64 and universal macOS builds only', () => {
    expect(fuseConfig('darwin', 'arm64').resetAdHocDarwinSignature).toBe(true)
    expect(fuseConfig('darwin', 'universal').resetAdHocDarwinSignature).toBe(true)
    expect(fuseConfig('mas', 'arm64').resetAdHocDarwinSignature).toBe(true)
    expect(fuseConfig('darwin', 'x64').resetAdHocDarwinSignature).toBe(false)
    expect(fuseConfig('linux', 'arm64').resetAdHocDarwinSignature).toBe(false)
    expect(fuseConfig('win32', 'arm64').resetAdHocDarwinSignature).toBe(false)
  })

  it('locates the Electron executable electron-builder packed on each platform', () => {
    const packed = (electronPlatformName: string, executableName?: string): PackedApp => ({
      appOutDir: '/dist/unpacked',
      electronPlatformName,
      arch: Arch.x64,
      packager: { appInfo: { productFilename: 'Hosting Admin' }, executableName },
    })
    expect(electronExecutable(packed('darwin'))).toBe(join('/dist/unpacked', 'Hosting Admin.app'))
    expect(electronExecutable(packed('mas'))).toBe(join('/dist/unpacked', 'Hosting Admin.app'))
    expect(electronExecutable(packed('win32'))).toBe(join('/dist/unpacked', 'Hosting Admin.exe'))
    expect(electronExecutable(packed('linux', 'hosting-admin'))).toBe(join('/dist/unpacked', 'hosting-admin'))
    expect(() => electronExecutable(packed('linux'))).toThrow(/executableName/)
    expect(() => electronExecutable(packed('freebsd'))).toThrow(/freebsd/)
  })

  it('as an afterPack hook, flips the fuses of the packed Linux app', async () => {
    const appOutDir = tempDir()
    writeStandIn(join(appOutDir, 'hosting-admin-app'))
    writeCommand(join(appOutDir, 'resources', 'cli'))
    await afterPack(packedLinux(appOutDir))
    const wire = await getCurrentFuseWire(join(appOutDir, 'hosting-admin-app'))
    for (const [fuse, on] of EXPECTED) expect(wire[fuse]).toBe(stateOf(on))
  })

  it('stops the build when the command was not staged into the resources, before touching the binary', async () => {
    const appOutDir = tempDir()
    const before = writeStandIn(join(appOutDir, 'hosting-admin-app'))
    await expect(afterPack(packedLinux(appOutDir))).rejects.toThrow(/hosting-admin command is not in .*stage-command/)
    writeCommand(join(appOutDir, 'resources', 'cli'))
    rmSync(join(appOutDir, 'resources', 'cli', 'hosting-admin.cmd'))
    expect(() => assertCommandShipped(packedLinux(appOutDir))).toThrow(/hosting-admin\.cmd is missing/)
    const wire = await getCurrentFuseWire(join(appOutDir, 'hosting-admin-app'))
    expect(wire[FuseV1Options.RunAsNode]).toBe(before[FuseV1Options.RunAsNode])
  })

  it('finds the resources folder electron-builder copies extraResources to on each platform', () => {
    const packed = (electronPlatformName: string): PackedApp => ({
      appOutDir: '/dist/unpacked',
      electronPlatformName,
      arch: Arch.x64,
      packager: { appInfo: { productFilename: 'Hosting Admin' } },
    })
    expect(resourcesDir(packed('darwin'))).toBe(join('/dist/unpacked', 'Hosting Admin.app', 'Contents', 'Resources'))
    expect(resourcesDir(packed('win32'))).toBe(join('/dist/unpacked', 'resources'))
    expect(resourcesDir(packed('linux'))).toBe(join('/dist/unpacked', 'resources'))
  })
})
