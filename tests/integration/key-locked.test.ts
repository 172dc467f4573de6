/**
 * A locked keyring is not a missing key: when the keychain gives nothing back for a key this app
 * put there, reads say to unlock the keyring (and that the key is not lost), never "No API key is
 * stored ... replace it"; an account whose key was never put there still says so. The real router,
 * profile file and sandbox; keytar as a locked GNOME Keyring answers it (a lookup gives nothing).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { KeytarSecretStore, type KeytarLike } from '../../src/main/accounts/secret-store'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { english } from '../helpers/english'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'

/**
 * A keyring that can be locked: while locked, lookups find nothing (as libsecret answers when its
 * unlock prompt is dismissed), and the Secret Service says the item is locked.
 */
class LockableKeyring implements KeytarLike {
  locked = false
  private readonly items = new Map<string, string>()
  async getPassword(service: string, account: string) {
    return this.locked ? null : (this.items.get(`${service}/${account}`) ?? null)
  }
  async locate(service: string, account: string) {
    if (!this.items.has(`${service}/${account}`)) return 'absent' as const
    return this.locked ? ('locked' as const) : ('unlocked' as const)
  }
  async setPassword(service: string, account: string, password: string) {
    this.items.set(`${service}/${account}`, password)
  }
  async deletePassword(service: string, account: string) {
    return this.items.delete(`${service}/${account}`)
  }
}

let sb: Sandbox
let services: AppServices
const keyring = new LockableKeyring()
const { call, ok } = routerCalls(() => services)

beforeAll(async () => {
  sb = await startSandbox({ domains: 3 })
  services = await createAppServices({
    userDataDir: mkdtempSync(join(tmpdir(), 'key-locked-')),
    allowedOrigins: [APP],
    keychain: async () => new KeytarSecretStore(keyring),
  })
})
afterAll(async () => {
  await services.close()
  await sb.close()
})

describe('a locked keyring', () => {
  it('is told as locked for a key the app put there, and reads work again once it is unlocked', async () => {
    const { id } = await ok('accounts.create', {
      fields: profileFor(sb, 'Kept'),
      apiKey: sb.keys.full,
      storage: 'keychain',
    })
    expect((await call('domains.list', { accountId: id })).ok).toBe(true)
    keyring.locked = true
    // A fresh client, as after a restart: the key must be read from the keychain again.
    await ok('accounts.update', { id, fields: { ...profileFor(sb, 'Kept'), timeoutMs: 6000 } })
    const r = await call('domains.list', { accountId: id })
    expect(r).toMatchObject({ ok: false, error: { kind: 'keychain-unavailable', code: 'keychain.keyLocked' } })
    if (!r.ok) expect(english(r.error)).toMatch(/Unlock your keyring/)
    keyring.locked = false
    expect((await call('domains.list', { accountId: id })).ok).toBe(true)
  })

  it('an account whose key was kept for the session only, after a restart, still has no key to offer', async () => {
    const { id } = await ok('accounts.create', {
      fields: profileFor(sb, 'Session'),
      apiKey: sb.keys.full,
      storage: 'session',
    })
    const again = await createAppServices({
      userDataDir: services.profiles.file.replace(/accounts\.json$/, ''),
      allowedOrigins: [APP],
      keychain: async () => new KeytarSecretStore(keyring),
    })
    try {
      const r = await routerCalls(() => again).call('domains.list', { accountId: id })
      expect(r).toMatchObject({ ok: false, error: { code: 'account.noKey' } })
    } finally {
      await again.close()
    }
  })
})
