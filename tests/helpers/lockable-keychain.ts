import { AppError } from '../../src/main/base/app-error'
import { SessionSecretStore, type KeyPlace } from '../../src/main/accounts/secret-store'

/**
 * A keychain that holds its keys and can be locked, answering as the app's keychain store answers
 * a locked GNOME Keyring (the real one: tests/integration/keychain-truth.test.ts): it says where a
 * key is without unlocking, and a read of a key it keeps locked is refused as locked.
 */
export class LockableKeychain extends SessionSecretStore {
  locked = false
  override async get(accountId: string) {
    if (this.locked && this.has(accountId)) throw AppError.of('keychain-unavailable', { code: 'keychain.keyLocked' })
    return super.get(accountId)
  }
  async locate(accountId: string): Promise<KeyPlace> {
    if (!this.has(accountId)) return 'absent'
    return this.locked ? 'locked' : 'unlocked'
  }
}
