/**
 * Accounts end to end below the IPC layer: the real profile file, the real keychain
 * (under npm test's D-Bus session), the demo sandbox and a second sandbox.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import {
  KeytarSecretStore,
  loadKeytar,
  SessionSecretStore,
  type KeytarLike,
  type SecretStore,
} from '../../src/main/accounts/secret-store'
import { appErrorOf, english } from '../helpers/english'
import { AppError } from '../../src/main/base/app-error'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { DEMO_ACCOUNT_ID, type ProfileFields } from '@shared/accounts'
import { profileFor } from '../../support/profile'

const useRealKeychain = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
let sb: Sandbox
let keychain: SecretStore
const open: AppServices[] = []

async function services(dir: string, store: SecretStore = keychain): Promise<AppServices> {
  const s = await createAppServices({ userDataDir: dir, allowedOrigins: ['app://app'], keychain: async () => store })
  open.push(s)
  return s
}
const fields = (name: string): ProfileFields => profileFor(sb, name)

beforeAll(async () => {
  sb = await startSandbox()
  keychain = useRealKeychain
    ? new KeytarSecretStore(await loadKeytar(), `hosting-admin-test-${randomUUID()}`)
    : new SessionSecretStore()
})
afterAll(async () => {
  for (const s of open) await s.close()
  await sb.close()
})

describe('accounts', () => {
  it('a first run has only the demo account, active, with a working sandbox', async () => {
    const s = await services(mkdtempSync(join(tmpdir(), 'acct-')))
    const { accounts, activeId } = await s.accounts.list()
    expect(activeId).toBe(DEMO_ACCOUNT_ID)
    expect(accounts).toHaveLength(1)
    expect(accounts[0]).toMatchObject({ id: DEMO_ACCOUNT_ID, name: 'Demo (local sandbox)', demo: true })
    // Listing it does not start its sandbox; using it does.
    expect(accounts[0]!.baseUrl).toBe('')
    const client = await s.accounts.client(DEMO_ACCOUNT_ID)
    for (const kind of ['a', 'b', 'c'] as const)
      expect((await client.call('servers.list', { kind })).length).toBeGreaterThan(0)
    expect(await s.accounts.testConnection(DEMO_ACCOUNT_ID)).toMatchObject({ ok: true })
    expect((await s.accounts.list()).accounts[0]!.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
  })

  it('create, rename, edit, switch, remove; the active choice survives a restart; the key lives only in the keychain', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acct-'))
    const s1 = await services(dir)
    const a = await s1.accounts.create(fields('Main'), sb.keys.full, useRealKeychain ? 'keychain' : 'session')
    const b = await s1.accounts.create(fields('Reseller'), sb.keys.readOnly, useRealKeychain ? 'keychain' : 'session')
    // The first account made becomes active; the demo stays listed.
    expect((await s1.accounts.list()).activeId).toBe(a.id)
    await s1.accounts.setActive(b.id)
    await s1.accounts.update(a.id, { ...fields('Main (renamed)'), timeoutMs: 45_000 })
    const file = readFileSync(join(dir, 'accounts.json'), 'utf8')
    expect(file).not.toContain(sb.keys.full)
    expect(file).not.toContain(sb.keys.readOnly)
    if (useRealKeychain) {
      expect(await keychain.get(a.id)).toBe(sb.keys.full)
      expect(await keychain.get(b.id)).toBe(sb.keys.readOnly)
    }

    if (!useRealKeychain) return // a session-only key does not survive a restart, by design
    const s2 = await services(dir)
    const listed = await s2.accounts.list()
    expect(listed.activeId).toBe(b.id)
    expect(listed.accounts.map((x) => x.name)).toEqual(['Demo (local sandbox)', 'Main (renamed)', 'Reseller'])
    expect(listed.accounts.find((x) => x.id === a.id)).toMatchObject({ keyStorage: 'keychain', timeoutMs: 45_000 })
    // Each account uses its own key: the read-only one cannot write.
    expect(await s2.accounts.testConnection(a.id)).toMatchObject({ ok: true })
    const ro = await s2.accounts.client(b.id)
    await expect(
      ro.call('servers.expiration.extend', { kind: 'a', webid: sb.state.servers.a[0]!.webid, months: 1 }),
    ).rejects.toMatchObject({
      kind: 'forbidden',
    })
    // Replacing a key takes effect at once.
    await s2.accounts.replaceKey(b.id, sb.keys.full, 'keychain')
    expect(await keychain.get(b.id)).toBe(sb.keys.full)
    await (
      await s2.accounts.client(b.id)
    ).call('servers.expiration.extend', { kind: 'a', webid: sb.state.servers.a[0]!.webid, months: 1 })
    // Removing an account removes its keychain entry, and the active choice falls back.
    await s2.accounts.remove(b.id)
    expect(await keychain.get(b.id)).toBeUndefined()
    expect((await s2.accounts.list()).activeId).toBe(a.id)
    await s2.accounts.remove(a.id)
    expect((await s2.accounts.list()).activeId).toBe(DEMO_ACCOUNT_ID)
  })

  it('adding an account never switches away from the one in use: the demo while it runs, a chosen account; across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acct-'))
    const s1 = await services(dir, new SessionSecretStore())
    // A window showing the demo: its sandbox runs.
    await s1.accounts.client(DEMO_ACCOUNT_ID)
    const first = await s1.accounts.create(fields('First'), sb.keys.full, 'session')
    expect((await s1.accounts.list()).activeId).toBe(DEMO_ACCOUNT_ID)
    await s1.accounts.setActive(first.id)
    const second = await s1.accounts.create(fields('Second'), sb.keys.full, 'session')
    expect((await s1.accounts.list()).activeId).toBe(first.id)
    expect(second.id).not.toBe(first.id)
    // The choice is what the file keeps: a restart finds the same account in use.
    const s2 = await services(dir, new SessionSecretStore())
    expect((await s2.accounts.list()).activeId).toBe(first.id)
  })

  it('test connection tells unauthorized, forbidden-free reads, and network errors apart', async () => {
    const s = await services(mkdtempSync(join(tmpdir(), 'acct-')), new SessionSecretStore())
    const wrong = await s.accounts.create(fields('Wrong key'), 'not-the-key', 'keychain')
    expect(await s.accounts.testConnection(wrong.id)).toMatchObject({ ok: false, kind: 'unauthorized' })
    const nowhere = await s.accounts.create(
      { ...fields('Nowhere'), baseUrl: 'http://127.0.0.1:9/v1' },
      sb.keys.full,
      'keychain',
    )
    expect(await s.accounts.testConnection(nowhere.id)).toMatchObject({ ok: false, kind: 'network' })
  })

  it('the demo account cannot be edited or removed', async () => {
    const s = await services(mkdtempSync(join(tmpdir(), 'acct-')))
    await expect(s.accounts.remove(DEMO_ACCOUNT_ID)).rejects.toMatchObject({ kind: 'validation' })
    await expect(s.accounts.update(DEMO_ACCOUNT_ID, fields('x'))).rejects.toMatchObject({ kind: 'validation' })
  })
})

describe('when the keychain is unavailable', () => {
  // keytar as it behaves without a Secret Service (the real failure is shown in keychain.test.ts).
  const noDbus: KeytarLike = {
    getPassword: async () => {
      throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')
    },
    setPassword: async () => {
      throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')
    },
    deletePassword: async () => {
      throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')
    },
  }

  it('storing a key fails with the clear message and leaves no half-made account; session-only works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acct-'))
    const s = await services(dir, new KeytarSecretStore(noDbus))
    const status = await s.accounts.keychainStatus()
    expect(status.available).toBe(false)
    expect(english(status.problem!)).toMatch(/No Secret Service/)
    const err = await s.accounts.create(fields('Main'), sb.keys.full, 'keychain').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppError)
    expect(err).toMatchObject({ kind: 'keychain-unavailable' })
    expect(english(appErrorOf(err))).toMatch(/this session only/)
    expect(english(appErrorOf(err))).not.toContain(sb.keys.full)
    expect((await s.accounts.list()).accounts).toHaveLength(1)

    const a = await s.accounts.create(fields('Main'), sb.keys.full, 'session')
    expect(a.keyStorage).toBe('session')
    expect(await s.accounts.testConnection(a.id)).toMatchObject({ ok: true })
    // Never a plaintext fallback: the key is in no file of the user-data folder.
    expect(readFileSync(join(dir, 'accounts.json'), 'utf8')).not.toContain(sb.keys.full)

    // After a restart the session key is gone: the account asks for a key, with a message that says how.
    const again = await services(dir, new KeytarSecretStore(noDbus))
    expect((await again.accounts.list()).accounts.find((x) => x.id === a.id)?.keyStorage).toBe('none')
    expect(await again.accounts.testConnection(a.id)).toMatchObject({ ok: false, kind: 'keychain-unavailable' })
  })
})
