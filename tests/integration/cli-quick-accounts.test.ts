/**
 * `hosting-admin accounts` with no app holding the folder answers from the accounts file alone
 * (issue 52 point 7, src/cli/accounts-list.ts): the same rows as the app's accounts.list, and no
 * store, journal or log made in the folder to say them. The built command, as installed.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const CLI = 'out/main/cli.js'
const accounts = (dataDir: string, ...more: string[]) =>
  spawnSync(process.execPath, [CLI, 'accounts', '--data-dir', dataDir, ...more], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH, HOME: dataDir, LANG: 'C.UTF-8' },
  })

describe.skipIf(!existsSync(CLI))("accounts without the app's services", () => {
  it('lists the demo of an empty folder and opens nothing else there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quick-accounts-'))
    const r = accounts(dir)
    expect(r.status).toBe(0)
    expect(r.stdout).toBe('* Demo (local sandbox)\ttest\tdemo\n')
    // The folder's lock only: no portfolio store, journal or log was opened to list it.
    expect(readdirSync(dir).filter((f) => f !== 'in-use.db')).toEqual([])
  })

  it("lists the file's accounts as the app does, the active one marked, in JSON too", () => {
    const dir = mkdtempSync(join(tmpdir(), 'quick-accounts-'))
    const serverKinds = {
      a: { path: 'web', label: 'Web' },
      b: { path: 'managed', label: 'Managed' },
      c: { path: 'cloud', label: 'Cloud' },
    }
    const account = (id: string, name: string, extra: object) => ({
      id,
      name,
      baseUrl: 'https://api.example.com/v1',
      serverKinds,
      timeoutMs: 30_000,
      ...extra,
    })
    writeFileSync(
      join(dir, 'accounts.json'),
      JSON.stringify({
        version: 1,
        activeId: 'b',
        accounts: [account('a', 'Shop', { environment: 'production' }), account('b', 'Lab', { readOnly: true })],
      }),
    )
    const r = accounts(dir)
    expect(r.status).toBe(0)
    expect(r.stdout).toBe('  Demo (local sandbox)\ttest\tdemo\n  Shop\tproduction\ta\n* Lab\tnone\tread-only\tb\n')
    const json = accounts(dir, '--json')
    expect(JSON.parse(json.stdout)).toEqual({
      accounts: [
        { id: 'demo', name: 'Demo (local sandbox)', environment: 'test', readOnly: false, active: false },
        { id: 'a', name: 'Shop', environment: 'production', readOnly: false, active: false },
        { id: 'b', name: 'Lab', environment: 'none', readOnly: true, active: true },
      ],
    })
  })
})
