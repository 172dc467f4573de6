/**
 * The key store of a command given a key file or a systemd credential (key-source.ts): it stands
 * where the keychain stands in the command's services, so no keychain (and no D-Bus) is asked at
 * all. It serves the key for one account only, the one the command acts on, so that a key meant
 * for one account is never sent to another account's address; and it keeps nothing: storing or
 * removing a key is the app's, with the keychain.
 */
import { AppError } from '../main/base/app-error'
import type { SecretStore } from '../main/accounts/secret-store'

export class KeySourceStore implements SecretStore {
  private accountId: string | undefined

  constructor(private readonly key: string) {}

  /** The account the command acts on, once chosen: until then no account has a key here. */
  serveFor(accountId: string): void {
    this.accountId = accountId
  }

  async get(accountId: string): Promise<string | undefined> {
    return accountId === this.accountId ? this.key : undefined
  }

  async set(): Promise<void> {
    throw AppError.of('keychain-unavailable', { code: 'keychain.refused' })
  }

  async delete(): Promise<void> {
    throw AppError.of('keychain-unavailable', { code: 'keychain.refused' })
  }
}
