/**
 * `npm start` (scripts/start.mjs) on a machine without Electron's binary fetches it, and when that
 * fails (offline) says what was fetched and what to try, without a stack; a variable naming an
 * executable that is not there is told as such; with one, it reaches the Electron executable. The executable here
 * is a stand-in named by the variables Electron's package (ELECTRON_OVERRIDE_DIST_PATH) and
 * electron-vite (ELECTRON_EXEC_PATH) read; it writes down how it was started.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { z } from 'zod'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closedLoopbackPort } from '../../support/free-port'

const root = join(__dirname, '../..')
const start = (env: Record<string, string>, args: string[] = []) => {
  // English unless a test asks for another language (the scripts speak the user's).
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('ELECTRON_') && !k.startsWith('LC_')),
  )
  return spawnSync(process.execPath, ['scripts/start.mjs', ...args], {
    cwd: root,
    env: { ...clean, LANG: 'C.UTF-8', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  })
}

/** A stand-in for Electron's executable: records its arguments and working folder, then exits 0. */
function standIn(dir: string, name = 'electron'): { file: string; record: string } {
  const file = join(dir, name)
  const record = join(dir, 'started.txt')
  writeFileSync(file, `#!/bin/sh\nprintf '%s\\n' "$PWD" "$@" > '${record}'\n`)
  chmodSync(file, 0o755)
  return { file, record }
}

describe('npm start', () => {
  it('with ELECTRON_SKIP_BINARY_DOWNLOAD and no binary: stops before building, with one line that says what to run', () => {
    const r = start({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' })
    expect(r.status).toBe(1)
    expect(r.stdout).toBe('')
    const lines = r.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/Electron is not installed here, and ELECTRON_SKIP_BINARY_DOWNLOAD is set/)
    expect(lines[0]).toMatch(/npm run ui/)
  })

  it('ELECTRON_EXEC_PATH naming a file that is not there is told as such, not as Electron not installed', () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'exec-path-')), 'no-such-electron')
    const r = start({ ELECTRON_EXEC_PATH: missing })
    expect(r.status).toBe(1)
    expect(r.stdout).toBe('')
    const lines = r.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toBe(
      `npm start: ELECTRON_EXEC_PATH names ${missing}, which does not exist: point it at Electron's executable, or unset it to use the one in node_modules.`,
    )
  })

  it('says so in Japanese where the user’s language is Japanese', () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'exec-path-')), 'no-such-electron')
    const r = start({ ELECTRON_EXEC_PATH: missing, LANG: 'ja_JP.UTF-8' })
    expect(r.status).toBe(1)
    expect(r.stderr.trim()).toBe(
      `npm start: ELECTRON_EXEC_PATH が指す ${missing} は存在しません。Electron の実行ファイルを指定するか、この変数を外して node_modules のものを使ってください。`,
    )
    const skipped = start({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1', LANG: 'ja_JP.UTF-8' })
    expect(skipped.stderr).toContain(
      'Electron がインストールされておらず、ELECTRON_SKIP_BINARY_DOWNLOAD が設定されているため取得しません',
    )
  })

  it('ELECTRON_OVERRIDE_DIST_PATH naming a folder without Electron is told as such, and nothing is fetched', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-electron-'))
    const r = start({ ELECTRON_OVERRIDE_DIST_PATH: empty })
    expect(r.status).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr.trim()).toMatch(
      new RegExp(`^npm start: ELECTRON_OVERRIDE_DIST_PATH names ${empty}/\\S+, which does not exist`),
    )
  })

  // Offline, as a new user's first `npm start` was: the installer's fetch fails (here: a loopback
  // port nobody listens on, named as the mirror). It used to end in "TypeError: fetch failed" and a stack.
  // (Skipped where Electron's binary is installed: there is nothing to fetch.)
  it.skipIf(existsSync(join(root, 'node_modules/electron/path.txt')))(
    'offline, without Electron: says what it fetched and from where, a mirror, a proxy and npm run ui; no stack',
    async () => {
      const closed = await closedLoopbackPort()
      const mirror = `http://127.0.0.1:${closed}/`
      const r = start({ ELECTRON_MIRROR: mirror })
      expect(r.status).toBe(1)
      const { version } = z
        .object({ version: z.string() })
        .parse(JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')))
      expect(r.stdout).toContain(
        `npm start: fetching Electron ${version} (electron-v${version}-${process.platform}-${process.arch}.zip`,
      )
      expect(r.stderr).toContain(
        `npm start: could not fetch Electron ${version} (electron-v${version}-${process.platform}-${process.arch}.zip) from ${mirror}`,
      )
      expect(r.stderr).toContain('fetch failed')
      expect(r.stderr).toMatch(/ELECTRON_MIRROR=/)
      expect(r.stderr).toMatch(/HTTPS_PROXY=.*ELECTRON_GET_USE_PROXY=1/)
      expect(r.stderr).toContain('npm run ui')
      expect(r.stderr).not.toMatch(/^\s+at /m)
      // Stopped before the build: nothing of electron-vite's.
      expect(r.stdout).not.toMatch(/vite|building/i)
    },
  )

  it.skipIf(!existsSync(join(root, 'out/main/index.js')))(
    'reaches the executable ELECTRON_OVERRIDE_DIST_PATH names (Electron’s own variable), with the app to start',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'electron-dist-'))
      const { record } = standIn(dir)
      const r = start({ ELECTRON_OVERRIDE_DIST_PATH: dir }, ['--skipBuild'])
      expect(r.status, r.stderr).toBe(0)
      const [cwd, ...args] = readFileSync(record, 'utf8').trim().split('\n')
      expect(cwd).toBe(root)
      // electron-vite starts Electron on the app's folder (".": its package.json "main" is the built main).
      expect(args).toEqual(['.'])
      expect(
        z.object({ main: z.string() }).parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))).main,
      ).toBe('out/main/index.js')
    },
  )

  it.skipIf(!existsSync(join(root, 'out/main/index.js')))(
    'reaches the executable ELECTRON_EXEC_PATH names (electron-vite’s variable)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'electron-exec-'))
      const { file, record } = standIn(dir, 'my-electron')
      const r = start({ ELECTRON_EXEC_PATH: file }, ['--skipBuild'])
      expect(r.status, r.stderr).toBe(0)
      expect(existsSync(record)).toBe(true)
    },
  )
})
