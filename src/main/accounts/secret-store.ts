/**
 * API keys: in the OS keychain through keytar, one entry per account; or, when the
 * user chose it because no keychain is available, in memory for this session only.
 * Never on disk in plain text.
 */
import { AppError } from '../app/app-error'

export interface SecretStore {
  get(accountId: string): Promise<string | undefined>
  set(accountId: string, secret: string): Promise<void>
  delete(accountId: string): Promise<void>
}

const KEYCHAIN_SERVICE = 'hosting-admin.api-key'

/** The part of keytar we use; injectable so a test can stand in for a broken keychain. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

/**
 * Turns whatever the keychain threw into one clear error: why (a code the renderer words,
 * with how to fix it), never the keychain's own text, which may hold anything.
 */
function keychainError(err: unknown): AppError {
  const detail = err instanceof Error ? err.message : String(err)
  // No bus at all ("Cannot autolaunch D-Bus without X11 $DISPLAY"), a bus address that leads
  // nowhere ("Could not connect: No such file or directory", a session that ended), or a bus
  // without a Secret Service on it: in each, no Secret Service is reachable.
  const code = /autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|Could not connect|org\.freedesktop\.secrets|was not provided by any \.service/i.test(detail)
    ? 'keychain.noSecretService'
    : /locked|unlock|prompt|dismissed|denied|cancel/i.test(detail)
      ? 'keychain.locked'
      : 'keychain.refused'
  return AppError.of('keychain-unavailable', { code })
}

export class KeytarSecretStore implements SecretStore {
  constructor(
    private readonly keytar: KeytarLike,
    private readonly service = KEYCHAIN_SERVICE,
  ) {}

  async get(accountId: string): Promise<string | undefined> {
    try {
      return (await this.keytar.getPassword(this.service, accountId)) ?? undefined
    } catch (err) {
      throw keychainError(err)
    }
  }

  async set(accountId: string, secret: string): Promise<void> {
    try {
      await this.keytar.setPassword(this.service, accountId, secret)
    } catch (err) {
      throw keychainError(err)
    }
  }

  async delete(accountId: string): Promise<void> {
    try {
      await this.keytar.deletePassword(this.service, accountId)
    } catch (err) {
      throw keychainError(err)
    }
  }
}

/** Keys the user chose to keep for this session only. */
export class SessionSecretStore implements SecretStore {
  private readonly keys = new Map<string, string>()
  async get(accountId: string) {
    return this.keys.get(accountId)
  }
  async set(accountId: string, secret: string) {
    this.keys.set(accountId, secret)
  }
  async delete(accountId: string) {
    this.keys.delete(accountId)
  }
  has(accountId: string): boolean {
    return this.keys.has(accountId)
  }
}

/** Loads the real keytar lazily, so a machine without it fails with the clear message, not at start-up. */
export async function loadKeytar(): Promise<KeytarLike> {
  try {
    const mod: { default?: KeytarLike } & KeytarLike = await import('keytar')
    return mod.default ?? mod
  } catch (err) {
    throw keychainError(err)
  }
}
