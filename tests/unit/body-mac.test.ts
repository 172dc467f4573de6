/**
 * The journal's body MAC (body-mac.ts): one key per installation, made on first use in the
 * keychain, or in the data folder where no keychain answers (moved into the keychain later), so a
 * body journaled by one process is known again by the next; an older journal's plain digest still
 * matches; and without the key nothing matches.
 */
import { existsSync, mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AppError } from '../../src/main/base/app-error'
import { SessionSecretStore, type SecretStore } from '../../src/main/accounts/secret-store'
import { bodyDigest } from '../../src/main/jobs/ledger/at-rest'
import { BODY_KEY_ENTRY, BodyMac } from '../../src/main/jobs/ledger/body-mac'

const body = JSON.stringify({ domain: 'example.com', dynamicdns: 1, password: 'guessable' })
/** A keychain that cannot be reached (the command given a key file, no D-Bus). */
const unreachable: SecretStore = {
  get: () => Promise.reject(AppError.of('keychain-unavailable', { code: 'keychain.noSecretService' })),
  set: () => Promise.reject(AppError.of('keychain-unavailable', { code: 'keychain.noSecretService' })),
  delete: () => Promise.reject(AppError.of('keychain-unavailable', { code: 'keychain.noSecretService' })),
}

describe('the journal body MAC', () => {
  it('is made once in the keychain and known again by the next process; another key knows nothing', async () => {
    const keychain = new SessionSecretStore()
    const keyFile = join(mkdtempSync(join(tmpdir(), 'body-mac-')), 'journal.key')
    const kept = await new BodyMac({ keychain: async () => keychain, keyFile }).of(body)
    expect(kept).toMatch(/^hmac-sha256:[0-9a-f]{64}$/)
    expect(kept).not.toContain(bodyDigest(body))
    expect(await keychain.get(BODY_KEY_ENTRY)).toBeDefined()
    expect(existsSync(keyFile)).toBe(false)
    expect(await new BodyMac({ keychain: async () => keychain, keyFile }).matches(body, kept)).toBe(true)
    expect(await new BodyMac({ keychain: async () => new SessionSecretStore(), keyFile }).matches(body, kept)).toBe(
      false,
    )
  })

  it('without a keychain, keeps the key in the data folder (the user’s alone), and the app moves it into the keychain', async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), 'body-mac-')), 'journal.key')
    const kept = await new BodyMac({ keychain: async () => unreachable, keyFile }).of(body)
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    const keychain = new SessionSecretStore()
    expect(await new BodyMac({ keychain: async () => keychain, keyFile }).matches(body, kept)).toBe(true)
    expect(await keychain.get(BODY_KEY_ENTRY)).toBeDefined()
    expect(existsSync(keyFile)).toBe(false)
  })

  it('still knows the plain digest an older journal kept', async () => {
    expect(await BodyMac.ofThisProcess().matches(body, bodyDigest(body))).toBe(true)
    expect(await BodyMac.ofThisProcess().matches('{}', bodyDigest(body))).toBe(false)
  })
})
