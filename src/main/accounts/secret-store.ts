/**
 * API keys: in the OS keychain through keytar, one entry per account; or, when the
 * user chose it because no keychain is available, in memory for this session only.
 * Never on disk in plain text.
 */
import { AppError } from '../base/app-error'
import { locateSecret, type KeyPlace } from './secret-service'

export type { KeyPlace } from './secret-service'

export interface SecretStore {
  /** The key; undefined when the store has none to give. A key in a locked keychain throws keychain.keyLocked. */
  get(accountId: string): Promise<string | undefined>
  set(accountId: string, secret: string): Promise<void>
  delete(accountId: string): Promise<void>
  /**
   * Where the key is, as the keychain itself says, without unlocking it (no prompt); undefined
   * when this store cannot tell (then a key it does not give may be locked or gone).
   */
  locate?(accountId: string): Promise<KeyPlace | undefined>
}

const KEYCHAIN_SERVICE = 'hosting-admin.api-key'

/** The part of keytar we use; injectable so a test can stand in for a broken keychain. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
  /** Where an item is, without unlocking anything (what keytar cannot say); absent on stand-ins that cannot tell. */
  locate?(service: string, account: string): Promise<KeyPlace | undefined>
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
  const code =
    /autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|Could not connect|org\.freedesktop\.secrets|was not provided by any \.service/i.test(
      detail,
    )
      ? 'keychain.noSecretService'
      : /locked|unlock|prompt|dismissed|denied|cancel/i.test(detail)
        ? 'keychain.locked'
        : 'keychain.refused'
  return AppError.of('keychain-unavailable', { code })
}

export class KeytarSecretStore implements SecretStore {
  /**
   * The read that asks the keychain to unlock (the system's unlock prompt), while it runs: other
   * reads wait for its outcome instead of each starting a prompt of its own.
   */
  private unlocking: Promise<unknown> | undefined

  constructor(
    private readonly keytar: KeytarLike,
    private readonly service = KEYCHAIN_SERVICE,
  ) {}

  async locate(accountId: string): Promise<KeyPlace | undefined> {
    try {
      return await this.keytar.locate?.(this.service, accountId)
    } catch (err) {
      throw keychainError(err)
    }
  }

  async get(accountId: string): Promise<string | undefined> {
    const place = await this.locate(accountId)
    if (place === 'absent') return undefined
    if (place === 'locked') return this.unlockAndRead(accountId)
    return this.read(accountId)
  }

  private async read(accountId: string): Promise<string | undefined> {
    try {
      return (await this.keytar.getPassword(this.service, accountId)) ?? undefined
    } catch (err) {
      throw keychainError(err)
    }
  }

  /** A key in a locked collection: one unlock request at a time, its outcome shared by every read. */
  private async unlockAndRead(accountId: string): Promise<string | undefined> {
    if (this.unlocking) {
      await this.unlocking.catch(() => undefined)
      if ((await this.locate(accountId)) === 'locked') throw keyLocked()
      return this.read(accountId)
    }
    // libsecret asks the Secret Service to unlock the collection (its prompt) before it reads.
    const attempt = this.read(accountId)
    this.unlocking = attempt
    try {
      const key = await attempt
      if (key !== undefined) return key
    } finally {
      this.unlocking = undefined
    }
    // The prompt was dismissed, or could not be shown (no display): the collection stays locked.
    throw keyLocked()
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

/** The account's key is in the keychain, which keeps it locked: unlocking is the fix, not a new key. */
function keyLocked(): AppError {
  return AppError.of('keychain-unavailable', { code: 'keychain.keyLocked' })
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
  noEmptyBusAddress(process.env)
  try {
    const mod: { default?: KeytarLike } & KeytarLike = await import('keytar')
    const keytar = mod.default ?? mod
    return {
      getPassword: keytar.getPassword,
      setPassword: keytar.setPassword,
      deletePassword: keytar.deletePassword,
      locate: locatorFor(keytar),
    }
  } catch (err) {
    throw keychainError(err)
  }
}

/**
 * An empty session bus address (`DBUS_SESSION_BUS_ADDRESS=` in a crontab or a unit) is no
 * address: libsecret and dbus-send would take it as one and fail with "The given address is
 * empty", which reads as a refusal, not as "no Secret Service here". Removed from the process's
 * environment (where both read it) before either looks, it is what an address not set is.
 */
function noEmptyBusAddress(env: NodeJS.ProcessEnv): void {
  if (env.DBUS_SESSION_BUS_ADDRESS === '') delete env.DBUS_SESSION_BUS_ADDRESS
}

/**
 * How to tell where an item is. On Linux, the Secret Service is asked over D-Bus (keytar's null
 * is a locked item and an absent one alike). On macOS and Windows a lookup's null means absent:
 * their keychains ask the user themselves, and a refusal is an error, not null.
 */
function locatorFor(keytar: KeytarLike): KeytarLike['locate'] {
  if (process.platform === 'linux') return (service, account) => locateSecret(service, account)
  return async (service, account) => ((await keytar.getPassword(service, account)) === null ? 'absent' : 'unlocked')
}
