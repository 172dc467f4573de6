/**
 * `npm start` (scripts/start.mjs) on a machine without Electron's binary stops at once with one
 * line that says what to run; with one, it reaches the Electron executable. The executable here
 * is a stand-in named by the variables Electron's package (ELECTRON_OVERRIDE_DIST_PATH) and
 * electron-vite (ELECTRON_EXEC_PATH) read; it writes down how it was started.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { z } from 'zod'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '../..')
const start = (env: Record<string, string>, args: string[] = []) => {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ELECTRON_')))
  return spawnSync(process.execPath, ['scripts/start.mjs', ...args], { cwd: root, env: { ...clean, ...env }, encoding: 'utf8', timeout: 60_000 })
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
  it('without Electron’s binary: stops before building, with one line that says what to run', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-electron-'))
    const r = start({ ELECTRON_OVERRIDE_DIST_PATH: empty })
    expect(r.status).toBe(1)
    expect(r.stdout).toBe('')
    const lines = r.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/Electron is not installed here: run `bash scripts\/setup\.sh`/)
  })

  it.skipIf(!existsSync(join(root, 'out/main/index.js')))('reaches the executable ELECTRON_OVERRIDE_DIST_PATH names (Electron’s own variable), with the app to start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'electron-dist-'))
    const { record } = standIn(dir)
    const r = start({ ELECTRON_OVERRIDE_DIST_PATH: dir }, ['--skipBuild'])
    expect(r.status, r.stderr).toBe(0)
    const [cwd, ...args] = readFileSync(record, 'utf8').trim().split('\n')
    expect(cwd).toBe(root)
    // electron-vite starts Electron on the app's folder (".": its package.json "main" is the built main).
    expect(args).toEqual(['.'])
    expect(z.object({ main: z.string() }).parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))).main).toBe('out/main/index.js')
  })

  it.skipIf(!existsSync(join(root, 'out/main/index.js')))('reaches the executable ELECTRON_EXEC_PATH names (electron-vite’s variable)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'electron-exec-'))
    const { file, record } = standIn(dir, 'my-electron')
    const r = start({ ELECTRON_EXEC_PATH: file }, ['--skipBuild'])
    expect(r.status, r.stderr).toBe(0)
    expect(existsSync(record)).toBe(true)
  })
})
