/**
 * `hosting-admin accounts` with no app holding the folder answers from the accounts file alone
 * (issue 52 point 7, src/cli/accounts-list.ts): the same rows as the app's accounts.list, and no
 * store, journal, log or lock made in the folder to say them; a folder another command holds is
 * read at once, one the app holds is the app's to answer. The built command, as installed.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startLockChild, type LockChild } from '../helpers/child-processes'

const CLI = 'out/main/cli.js'
const accounts = (dataDir: string, ...more: string[]) =>
  spawnSync(process.execPath, [CLI, 'accounts', '--data-dir', dataDir, ...more], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH, HOME: dataDir, LANG: 'C.UTF-8' },
  })

const holders: LockChild[] = []
const holding = async (dir: string, who: 'app' | 'cli') => {
  const child = await startLockChild(dir, who)
  holders.push(child)
  expect(await child.ask('take', 'took')).toMatchObject({ ok: true })
}
afterEach(async () => {
  await Promise.all(holders.splice(0).map((c) => c.kill9()))
})

describe.skipIf(!existsSync(CLI))("accounts without the app's services", () => {
  it('lists the demo of an empty folder and makes nothing there, not even the lock', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quick-accounts-'))
    const r = accounts(dir)
    expect(r.status).toBe(0)
    expect(r.stdout).toBe('* Demo (local sandbox)\ttest\tdemo\n')
    // A read takes no lock (every writer replaces the accounts file whole): no portfolio store,
    // journal, log or lock file was made to list it.
    expect(readdirSync(dir)).toEqual([])
  })

  it('reads a folder another command holds at once, without waiting for it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quick-accounts-'))
    await holding(dir, 'cli')
    const r = accounts(dir, '--json')
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({
      accounts: [{ id: 'demo', name: 'Demo (local sandbox)', environment: 'test', readOnly: false, active: true }],
    })
  })

  it("leaves a folder the app holds to the app's door (none here: it says the app cannot be reached)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quick-accounts-'))
    await holding(dir, 'app')
    const r = accounts(dir, '--json')
    expect(r.status).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: 'cli.appDoorUnreachable' } })
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
