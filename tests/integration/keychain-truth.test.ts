/**
 * The keychain tells the truth (issue 39, point 1): a key gone from the keychain, a key in a locked
 * collection and no Secret Service are told apart from what the keychain itself says, and a
 * locked keychain gets one unlock request at a time, however many reads need the key.
 */
import { mkdtempSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { KeytarSecretStore, loadKeytar, type KeytarLike } from '../../src/main/accounts/secret-store'
import type { AppError } from '../../src/main/base/app-error'
import { locateSecret, placeIn } from '../../src/main/accounts/secret-service'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { english } from '../helpers/english'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'

describe.skipIf(!process.env.DBUS_SESSION_BUS_ADDRESS)('with the real Secret Service', () => {
  const service = `hosting-admin-truth-${randomUUID()}`
  let sb: Sandbox
  let services: AppServices
  let keytar: KeytarLike
  const { call, ok } = routerCalls(() => services)

  beforeAll(async () => {
    sb = await startSandbox({ domains: 3 })
    keytar = await loadKeytar()
    services = await createAppServices({
      userDataDir: mkdtempSync(join(tmpdir(), 'truth-')),
      allowedOrigins: [APP],
      keychain: async () => new KeytarSecretStore(keytar, service),
    })
  })
  afterAll(async () => {
    await services.close()
    await sb.close()
  })

  it('the Secret Service says where an item is: there, or not there', async () => {
    await keytar.setPassword(service, 'probe-a', 'v')
    expect(await locateSecret(service, 'probe-a')).toBe('unlocked')
    await keytar.deletePassword(service, 'probe-a')
    expect(await locateSecret(service, 'probe-a')).toBe('absent')
  })

  it('a key another program removed is told as gone, with Replace as the fix, on the card as in the error', async () => {
    const { id } = await ok('accounts.create', {
      fields: profileFor(sb, 'Gone'),
      apiKey: sb.keys.full,
      storage: 'keychain',
    })
    expect((await call('domains.list', { accountId: id })).ok).toBe(true)
    await keytar.deletePassword(service, id)
    // A fresh client, as after a restart: the key must be read from the keychain again.
    await ok('accounts.update', { id, fields: { ...profileFor(sb, 'Gone'), timeoutMs: 6000 } })
    const r = await call('domains.list', { accountId: id })
    expect(r).toMatchObject({ ok: false, error: { kind: 'no-key', code: 'keychain.keyAbsent' } })
    if (!r.ok) expect(english(r.error)).toMatch(/no longer in the system keychain.*Replace the key/)
    expect((await ok('accounts.list', {})).accounts.find((a) => a.id === id)).toMatchObject({ keyStorage: 'missing' })
    await ok('accounts.replaceKey', { id, apiKey: sb.keys.full, storage: 'keychain' })
    expect((await call('domains.list', { accountId: id })).ok).toBe(true)
    expect((await ok('accounts.list', {})).accounts.find((a) => a.id === id)).toMatchObject({ keyStorage: 'keychain' })
  })
})

describe('a locked collection', () => {
  it('gets one unlock request at a time: reads that arrive meanwhile share its outcome', async () => {
    let lookups = 0
    let dismiss: () => void = () => undefined
    const keyring: KeytarLike = {
      // libsecret's lookup of a locked item: the unlock prompt is up until dismissed; then null.
      getPassword: () => {
        lookups++
        return new Promise((done) => (dismiss = () => done(null)))
      },
      setPassword: async () => undefined,
      deletePassword: async () => true,
      locate: async () => 'locked',
    }
    const store = new KeytarSecretStore(keyring, 'x')
    const reads = Array.from({ length: 5 }, (_, i) =>
      store.get(`acct-${i % 2}`).then(
        () => 'read',
        (e: AppError) => english(e),
      ),
    )
    await expect.poll(() => lookups).toBe(1)
    dismiss()
    const outcomes = await Promise.all(reads)
    expect(lookups).toBe(1)
    for (const o of outcomes) expect(o).toMatch(/The system keychain is locked.*do not replace it/)
  })

  it('dbus-send’s answer is read as the Secret Service gives it: unlocked items first, then locked', () => {
    const reply = (unlocked: string[], locked: string[]) =>
      `method return time=1 sender=:1.0 -> destination=:1.2 serial=11 reply_serial=2\n   array [\n${unlocked.map((p) => `      object path "${p}"\n`).join('')}   ]\n   array [\n${locked.map((p) => `      object path "${p}"\n`).join('')}   ]\n`
    expect(placeIn(reply(['/org/freedesktop/secrets/collection/login/1'], []))).toBe('unlocked')
    expect(placeIn(reply([], ['/org/freedesktop/secrets/collection/login/1']))).toBe('locked')
    expect(placeIn(reply([], []))).toBe('absent')
    expect(placeIn('Error org.freedesktop.DBus.Error.ServiceUnknown')).toBeUndefined()
  })
})
