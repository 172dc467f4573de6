/**
 * The setup's first step (scripts/check-node.mjs, issue 39 point 12): a Node.js older than what
 * Electron's installer declares is refused with the version needed in full and the refused range
 * of that major said out loud ("22 or later" read as if 22.0 to 22.11 were enough). The real
 * script runs as a process, in a copy of the project's layout whose lock file declares a version
 * above this machine's (so the refusal does not depend on which Node.js runs the tests).
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const [major = 0] = process.versions.node.split('.').map(Number)

/** A project folder with the real script and the given lock file and package.json. */
function project(electronNode: string, testNode: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'check-node-'))
  mkdirSync(join(dir, 'scripts'))
  for (const f of ['check-node.mjs', 'setup-words.mjs', 'setup-words.json'])
    copyFileSync(`scripts/${f}`, join(dir, 'scripts', f))
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify({ packages: { 'node_modules/electron': { version: '99.1.0', engines: { node: electronNode } } } }),
  )
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ engines: { node: testNode } }))
  return dir
}

const run = (dir: string, mode: 'app' | 'test', lang = 'C.UTF-8') =>
  spawnSync(process.execPath, [join(dir, 'scripts/check-node.mjs'), mode], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH, LANG: lang },
  })

describe('the setup’s Node.js check', () => {
  it('refuses an older Node.js naming the version needed and the refused range of its major', () => {
    const needed = `${major + 1}.12.0`
    const r = run(project(`>= ${needed}`, '>=1.0.0'), 'app')
    expect(r.status).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(
      `npm start (Electron 99.1.0's installer declares it) needs Node.js ${needed} or later; this machine has ${process.versions.node}.`,
    )
    expect(r.stderr).toContain(`Install Node.js ${needed} or later (${major + 1}.0 to ${major + 1}.11 are too old)`)
    expect(r.stderr).not.toMatch(new RegExp(`Node\\.js ${major + 1} or later`))
    // The way on without a newer Node.js.
    expect(r.stderr).toContain('npm run ui')
  })

  it('says it in Japanese where the user’s language is Japanese', () => {
    const needed = `${major + 1}.12.0`
    const r = run(project(`>= ${needed}`, '>=1.0.0'), 'app', 'ja_JP.UTF-8')
    expect(r.status).toBe(1)
    expect(r.stderr).toContain(
      `npm start (Electron 99.1.0 のインストーラーが求める版) には Node.js ${needed} 以降が必要です。このマシンは ${process.versions.node} です。`,
    )
    expect(r.stderr).toContain(`(${major + 1}.0 to ${major + 1}.11 は古すぎます)`)
    expect(r.stderr).toContain('npm run ui')
    expect(r.stderr).not.toContain('needs Node.js')
  })

  it('names a refused range down to the patch when the version needed has one', () => {
    const r = run(project(`>=${major + 1}.12.3`, '>=1.0.0'), 'app')
    expect(r.status).toBe(1)
    expect(r.stderr).toContain(`(${major + 1}.0 to ${major + 1}.12.2 are too old)`)
  })

  it('lets a Node.js that meets the need through, saying so', () => {
    const r = run(project('>=1.0.0', `>=${major}.0.0`), 'test')
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toContain(
      `setup: Node.js ${process.versions.node} meets the test suite (package.json "engines"): >=${major}.0.0.`,
    )
  })
})
