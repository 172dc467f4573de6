import { SessionSecretStore } from '../../src/main/accounts/secret-store'

/** A keychain that holds its keys but, locked, gives none back (as a locked GNOME Keyring does). */
export class LockableKeychain extends SessionSecretStore {
  locked = false
  override async get(accountId: string) {
    return this.locked ? undefined : super.get(accountId)
  }
}
