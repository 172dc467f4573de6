/**
 * The packed app, built offline: electron-builder's own packing (`--dir`, electron-builder.yml
 * less the fuse hook, which tests/unit/packaging.test.ts covers) over a stand-in Electron
 * distribution, since no Electron build can be fetched here. What must hold: nothing is rebuilt;
 * keytar's and libsql's Node-API binaries are unpacked beside app.asar; no musl build of libsql
 * and no TypeScript of dependencies is packed; and the packed main, laid out as Electron presents
 * app.asar with its unpacked files, starts against the Electron double and uses both modules
 * (the keychain, and the store in its worker thread).
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, chmodSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { extractAll, listPackage } from '@electron/asar'
import { assertBuilt, startBuiltShell, type BuiltShell } from '../helpers/built-shell'
import { ipcChannel } from '../../src/shared/ipc/channels'

const work = mkdtempSync(join(tmpdir(), 'packed-app-'))
const out = join(work, 'dist')
const resources = join(out, 'linux-unpacked', 'resources')
let shell: BuiltShell | undefined

beforeAll(() => {
  assertBuilt()
  // A stand-in for Electron's distribution: electron-builder copies it and renames the executable.
  const dist = join(work, 'electron-dist')
  mkdirSync(join(dist, 'resources'), { recursive: true })
  writeFileSync(join(dist, 'electron'), '#!/bin/sh\nexit 0\n')
  chmodSync(join(dist, 'electron'), 0o755)
  for (const f of ['version', 'LICENSE', 'LICENSES.chromium.html']) writeFileSync(join(dist, f), f === 'version' ? 'v45.0.0' : '')
  const config = readFileSync('electron-builder.yml', 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith('afterPack:'))
    .join('\n')
    .replace(/^ {2}output: dist$/m, `  output: ${out}`)
  const configFile = join(work, 'electron-builder.yml')
  writeFileSync(configFile, `${config}\nelectronDist: ${dist}\nelectronVersion: 45.0.0\n`)
  const run = spawnSync(resolve('node_modules/.bin/electron-builder'), ['--linux', 'dir', '--publish', 'never', '--config', configFile], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
    timeout: 120_000,
  })
  if (run.status !== 0) throw new Error(`electron-builder failed (${run.status}):\n${run.stdout}${run.stderr}`)
}, 180_000)
afterAll(async () => {
  await shell?.quit()
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
    for (const binary of [join(unpacked, 'keytar', 'build', 'Release', 'keytar.node'), join(unpacked, '@libsql', 'linux-x64-gnu', 'index.node')]) {
      expect(readFileSync(binary).includes('napi_register_module_v1'), binary).toBe(true)
    }
    const files = listPackage(join(resources, 'app.asar'), { isPack: false })
    expect(files.filter((f) => f.includes('linux-x64-musl'))).toEqual([])
    expect(files.filter((f) => f.includes('/node_modules/') && /\.(ts|mts|cts)$/.test(f))).toEqual([])
    expect(files).toContain('/out/main/index.js')
    expect(files).toContain('/out/main/store-worker.js')
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
