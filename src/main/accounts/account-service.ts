/**
 * Accounts as the rest of the app sees them: profiles from the profile store, keys
 * from the keychain (or memory, for this session, when the user chose that), the
 * built-in demo account, and an API client per account. The key never leaves the
 * main process: views learn only where a key is kept.
 */
import { LIVE_DDNS_URL } from '@shared/service/ddns'
import { randomUUID } from 'node:crypto'
import { createApiClient, type ApiClient } from '../http'
import { AppError } from '../base/app-error'
import type { ErrorData } from '@shared/errors'
import type { ConnectionResult } from '@shared/ipc/contract'
import {
  DEMO_ACCOUNT_ID,
  DEFAULT_TIMEOUT_MS,
  DEMO_ACCOUNT_NAME,
  DEMO_MARKS,
  type AccountProfile,
  type AccountView,
  type KeyStorage,
  type ProfileFields,
} from '@shared/accounts'
import { lowersSafety, writeSafetyOf, type WriteSafety } from '@shared/accounts/write-safety'
import { activeIdIn, type ProfileStore } from './profile-store'
import { SessionSecretStore, type SecretStore } from './secret-store'

/** The built-in demo: a sandbox started in-process when the demo account is used, with a key made for this run. */
export interface DemoBackend {
  /** Its words and labels, known without starting it. */
  describe(): Promise<Pick<ProfileFields, 'serverKinds' | 'nsTypes'>>
  /** Starts it (once; later calls return the running one). */
  start(): Promise<{
    baseUrl: string
    apiKey: string
    serverKinds: ProfileFields['serverKinds']
    nsTypes: ProfileFields['nsTypes']
  }>
  /** Whether it runs now. */
  running(): boolean
  /** Stops it; its data is kept in memory for the next start. */
  close(): Promise<void>
}

/** Whether an account's URL and key work: yes, or the error the service gave. */

export interface AccountServiceOptions {
  profiles: ProfileStore
  /** The keychain; a function so that a missing keychain fails when a key is used, not at start-up. */
  keychain: () => Promise<SecretStore>
  demo: DemoBackend
  /** The User-Agent of every request (the shell names Electron; tests and the UI runner name Node). */
  userAgent?: string
  /** Told every key as it is read or stored, so the log can redact it. */
  onKey?: (key: string) => void
  /** Whether a write of the demo account is running (the demo's sandbox then keeps running). */
  demoInUse?: () => boolean
  /** An account was removed: what is kept of it elsewhere (the portfolio store) goes too. */
  onRemoved?: (id: string) => void
  /** An account's profile was changed here (team mode shares its identity: label, colour, tag, write safety level). */
  onUpdated?: (id: string, fields: ProfileFields) => void
}

/** What the team shares of an account (team/team-shared.ts): its label, colour, tag and write safety level. */
export interface SharedIdentity {
  label: string
  colour: ProfileFields['colour']
  environment: ProfileFields['environment']
  writeSafety: WriteSafety
}

export class AccountService {
  private readonly session = new SessionSecretStore()
  private readonly clients = new Map<string, { client: ApiClient; stamp: string }>()
  private demoInfo: Awaited<ReturnType<DemoBackend['start']>> | undefined
  /** Accounts whose key we know is in the keychain (learned when stored or read). */
  private readonly inKeychain = new Set<string>()

  constructor(private readonly opts: AccountServiceOptions) {}

  /** The demo's sandbox, started now if it is not running (it runs only while the demo account is used). */
  private async demo() {
    if (!this.opts.demo.running()) this.demoInfo = undefined
    this.demoInfo ??= await this.opts.demo.start()
    this.opts.onKey?.(this.demoInfo.apiKey)
    return this.demoInfo
  }

  /** The demo as listed: its address only while its sandbox runs; listing it never starts it. */
  private async demoProfile(): Promise<AccountProfile> {
    const running = this.opts.demo.running() ? this.demoInfo : undefined
    const words = running ?? (await this.opts.demo.describe())
    // The sandbox serves the dynamic DNS update address too, at the live one's path beside its API.
    const ddnsUrl = running ? `${new URL(running.baseUrl).origin}${new URL(LIVE_DDNS_URL).pathname}` : undefined
    return {
      id: DEMO_ACCOUNT_ID,
      name: DEMO_ACCOUNT_NAME,
      baseUrl: running?.baseUrl ?? '',
      ...(ddnsUrl ? { ddnsUrl } : {}),
      serverKinds: words.serverKinds,
      nsTypes: words.nsTypes,
      timeoutMs: DEFAULT_TIMEOUT_MS,
      ...DEMO_MARKS,
    }
  }

  /** Stops the demo's sandbox when another account is chosen and no demo write is running. */
  async stopDemoIfUnused(): Promise<void> {
    if (this.activeId() === DEMO_ACCOUNT_ID || !this.opts.demo.running() || this.opts.demoInUse?.()) return
    this.clients.delete(DEMO_ACCOUNT_ID)
    this.demoInfo = undefined
    await this.opts.demo.close()
  }

  /**
   * Where the account's key is, as the card says it: asked of the keychain without unlocking it
   * (listing the accounts never starts an unlock prompt), in the same words as the banner of a
   * read that needs the key: locked, gone from the keychain, or no keychain reachable.
   */
  private async keyStorage(id: string): Promise<KeyStorage> {
    if (this.session.has(id)) return 'session'
    const putThere = this.opts.profiles.find(id)?.keyKept === 'keychain'
    try {
      const store = await this.opts.keychain()
      const place = await store.locate?.(id)
      if (place === 'unlocked') return 'keychain'
      if (place === 'locked') return 'locked'
      if (place === 'absent') return putThere ? 'missing' : 'none'
      // The keychain cannot say where: what this run learned, else a read.
      if (this.inKeychain.has(id)) return 'keychain'
      const key = await store.get(id)
      if (key) {
        this.inKeychain.add(id)
        return 'keychain'
      }
    } catch (err) {
      // No keychain to ask: the account has no usable key now; the card says why.
      if (putThere) return err instanceof AppError && err.data.code === 'keychain.keyLocked' ? 'locked' : 'unreachable'
    }
    return 'none'
  }

  /** Every account, the demo first; the demo is listed only while no other account exists, or when it is active. */
  async list(): Promise<{ accounts: AccountView[]; activeId: string; problem?: ErrorData | undefined }> {
    const stored = this.opts.profiles.current.accounts
    const views: AccountView[] = []
    for (const p of stored) views.push({ ...p, demo: false, keyStorage: await this.keyStorage(p.id) })
    const activeId = this.activeId()
    views.unshift({ ...(await this.demoProfile()), demo: true, keyStorage: 'session' })
    return { accounts: views, activeId, problem: this.opts.profiles.problem }
  }

  /** The name the user gave an account ('' for the built-in demo, whose name the renderer words). */
  nameOf(id: string): string {
    return id === DEMO_ACCOUNT_ID ? '' : (this.opts.profiles.find(id)?.name ?? '')
  }

  /** How the account's writes are guarded (never more than 'none' for the demo): the runner checks it at prepare and start. */
  writeSafety(id: string): WriteSafety {
    if (id === DEMO_ACCOUNT_ID) return 'none'
    const p = this.opts.profiles.find(id)
    return p ? writeSafetyOf(p) : 'none'
  }

  /** Whether the account is still set up (the demo always is). */
  exists(id: string): boolean {
    return id === DEMO_ACCOUNT_ID || this.opts.profiles.find(id) !== undefined
  }

  /** Whether the user made this account read-only (the demo never is). */
  readOnly(id: string): boolean {
    return id !== DEMO_ACCOUNT_ID && this.opts.profiles.find(id)?.readOnly === true
  }

  /** The chosen account, or the demo when none is chosen or the chosen one is gone. */
  activeId(): string {
    return activeIdIn(this.opts.profiles.current)
  }

  async setActive(id: string): Promise<void> {
    if (id !== DEMO_ACCOUNT_ID) this.profile(id)
    await this.opts.profiles.update((d) => {
      d.activeId = id
    })
    await this.stopDemoIfUnused()
  }

  private profile(id: string): AccountProfile {
    const p = this.opts.profiles.find(id)
    if (!p) throw AppError.of('no-account', { code: 'account.notFound' })
    return p
  }

  /** Adds an account; stores its key first, so a keychain failure leaves nothing half-made. */
  async create(fields: ProfileFields, apiKey: string, storage: 'keychain' | 'session'): Promise<AccountView> {
    this.opts.onKey?.(apiKey)
    refuseKeyInUrl(fields.baseUrl, apiKey)
    const id = randomUUID()
    await this.storeKey(id, apiKey, storage)
    const profile: AccountProfile = { id, ...fields, keyKept: storage }
    try {
      const demoRunning = this.opts.demo.running()
      await this.opts.profiles.update((d) => {
        // Adding never switches away from the account in use, which the window then asks about:
        // a chosen one, or the demo while it runs (a window showing it). Only where nothing is in
        // use (no choice made, the demo idle: a set-up by a script or the command line) does a
        // first account become the active one. The one in use is pinned before the new account is
        // stored, as no choice means the first account stored.
        const nothingInUse = d.accounts.length === 0 && !d.activeId && !demoRunning
        d.activeId = nothingInUse ? id : activeIdIn(d)
        d.accounts.push(profile)
      })
    } catch (err) {
      await this.forgetKey(id)
      throw err
    }
    return { ...profile, demo: false, keyStorage: storage }
  }

  /**
   * `typedName`: what the user typed to lower the account's safety (a lower level, read-only
   * turned off): compared here with the name saved, never with a name the window sends back.
   */
  async update(id: string, fields: ProfileFields, typedName?: string): Promise<AccountView> {
    this.assertNotDemo(id)
    const was = this.profile(id)
    if (lowersSafety(was, fields) && typedName?.trim() !== was.name.trim())
      throw AppError.of('validation', { code: 'account.lowerSafetyNeedsName', params: { name: was.name } })
    // The level is written as a level from now on; the older flag is only read.
    const saved: ProfileFields = { ...fields, writeSafety: writeSafetyOf(fields) }
    delete saved.confirmByName
    fields = saved
    const key = await this.readKey(id).catch(() => undefined)
    if (key) refuseKeyInUrl(fields.baseUrl, key)
    await this.opts.profiles.update((d) => {
      const i = d.accounts.findIndex((a) => a.id === id)
      // Where the key was put stays as it was: an edit of the profile does not move the key.
      d.accounts[i] = { id, ...fields, ...(d.accounts[i]?.keyKept ? { keyKept: d.accounts[i]?.keyKept } : {}) }
    })
    this.clients.delete(id)
    this.opts.onUpdated?.(id, fields)
    return { id, ...fields, demo: false, keyStorage: await this.keyStorage(id) }
  }

  /** The account's identity as this workstation keeps it, to share with the team. */
  sharedIdentity(id: string): SharedIdentity | undefined {
    const p = id === DEMO_ACCOUNT_ID ? undefined : this.opts.profiles.find(id)
    return p
      ? { label: p.name, colour: p.colour, environment: p.environment, writeSafety: writeSafetyOf(p) }
      : undefined
  }

  /**
   * The team's identity of the account applied here: another member changed it (their app asked
   * them for the name before lowering its level). Nothing is sent; the next confirmation follows it.
   */
  async applyShared(id: string, shared: SharedIdentity): Promise<void> {
    const now = this.sharedIdentity(id)
    if (
      !now ||
      (now.label === shared.label &&
        now.colour === shared.colour &&
        now.environment === shared.environment &&
        now.writeSafety === shared.writeSafety)
    )
      return
    await this.opts.profiles.update((d) => {
      const p = d.accounts.find((a) => a.id === id)
      if (!p) return
      Object.assign(p, {
        name: shared.label,
        colour: shared.colour,
        environment: shared.environment,
        writeSafety: shared.writeSafety,
      })
      delete p.confirmByName
    })
  }

  async remove(id: string): Promise<void> {
    this.assertNotDemo(id)
    // A key this app put in the keychain goes first: with the keychain out of reach (no D-Bus
    // session, a locked keyring, a command given a key file) the account stays as it was, rather
    // than its key staying behind in the keychain with no account left to name it.
    if (this.profile(id).keyKept === 'keychain') {
      try {
        await (await this.opts.keychain()).delete(id)
      } catch {
        throw AppError.of('keychain-unavailable', { code: 'keychain.keyStays' })
      }
    }
    await this.opts.profiles.update((d) => {
      d.accounts = d.accounts.filter((a) => a.id !== id)
      if (d.activeId === id) d.activeId = null
    })
    this.clients.delete(id)
    await this.forgetKey(id)
    this.opts.onRemoved?.(id)
  }

  async replaceKey(id: string, apiKey: string, storage: 'keychain' | 'session'): Promise<void> {
    this.assertNotDemo(id)
    this.opts.onKey?.(apiKey)
    refuseKeyInUrl(this.profile(id).baseUrl, apiKey)
    await this.storeKey(id, apiKey, storage)
    await this.opts.profiles.update((d) => {
      const p = d.accounts.find((a) => a.id === id)
      if (p) p.keyKept = storage
    })
    this.clients.delete(id)
  }

  /** A cheap read that tells whether the account's URL and key work. */
  async testConnection(id: string): Promise<ConnectionResult> {
    return probe(() => this.client(id))
  }

  /**
   * The same read with a key for an account not kept yet (the command line's `accounts add`
   * tests the key before anything is stored): nothing is kept, the client is thrown away.
   */
  async testKey(fields: ProfileFields, apiKey: string): Promise<ConnectionResult> {
    this.opts.onKey?.(apiKey)
    refuseKeyInUrl(fields.baseUrl, apiKey)
    const key = apiKey.trim()
    const { baseUrl, serverKinds, timeoutMs } = fields
    return probe(async () =>
      createApiClient({ baseUrl, apiKey: key, serverPaths: paths(serverKinds), timeoutMs, ...this.agent() }),
    )
  }

  /** Whether the OS keychain works right now (it is probed with a harmless read). */
  async keychainStatus(): Promise<{ available: boolean; problem?: ErrorData | undefined }> {
    try {
      await (await this.opts.keychain()).get('__probe__')
      return { available: true }
    } catch (err) {
      return {
        available: false,
        problem: err instanceof AppError ? err.toData() : { kind: 'keychain-unavailable', code: 'keychain.refused' },
      }
    }
  }

  /** The API client for an account, made with its key; cached until the profile or key changes. */
  async client(id: string): Promise<ApiClient> {
    if (id === DEMO_ACCOUNT_ID) {
      const d = await this.demo()
      const stamp = `${d.baseUrl}`
      const cached = this.clients.get(id)
      if (cached?.stamp === stamp) return cached.client
      const client = createApiClient({
        baseUrl: d.baseUrl,
        apiKey: d.apiKey,
        serverPaths: paths(d.serverKinds),
        ...this.agent(),
      })
      this.clients.set(id, { client, stamp })
      return client
    }
    const p = this.profile(id)
    const stamp = JSON.stringify(p)
    const cached = this.clients.get(id)
    if (cached?.stamp === stamp) return cached.client
    const key = await this.readKey(id)
    const client = createApiClient({
      baseUrl: p.baseUrl,
      apiKey: key,
      serverPaths: paths(p.serverKinds),
      timeoutMs: p.timeoutMs,
      ...this.agent(),
    })
    this.clients.set(id, { client, stamp })
    return client
  }

  private agent(): { userAgent?: string } {
    return this.opts.userAgent ? { userAgent: this.opts.userAgent } : {}
  }

  /**
   * An account's key when this workstation keeps one, else undefined: for team mode's keyed
   * fingerprint only (open-team.ts), which never leaves this process with the key in it.
   */
  keyIfKept(id: string): Promise<string | undefined> {
    return this.readKey(id).catch(() => undefined)
  }

  private async readKey(id: string): Promise<string> {
    const fromSession = await this.session.get(id)
    if (fromSession) {
      this.opts.onKey?.(fromSession)
      return fromSession
    }
    const store = await this.opts.keychain()
    const key = await store.get(id)
    if (!key) {
      if (this.opts.profiles.find(id)?.keyKept === 'keychain') {
        // Put there by this app and not given back. The keychain says which: not there any more
        // (another program removed it: a new key is the fix), or it cannot say (locked or gone).
        const place = await store.locate?.(id).catch(() => undefined)
        if (place === 'absent') throw AppError.of('no-key', { code: 'keychain.keyAbsent' })
        throw AppError.of('keychain-unavailable', { code: 'keychain.keyNotGiven' })
      }
      throw AppError.of('no-key', { code: 'account.noKey' })
    }
    this.opts.onKey?.(key)
    this.inKeychain.add(id)
    return key
  }

  private async storeKey(id: string, apiKey: string, storage: 'keychain' | 'session'): Promise<void> {
    const key = apiKey.trim()
    if (!key) throw AppError.invalid('account.keyEmpty', [{ path: 'apiKey', code: 'field.required' }])
    this.opts.onKey?.(apiKey)
    if (storage === 'session') {
      await this.session.set(id, key)
      this.inKeychain.delete(id)
      return
    }
    await (await this.opts.keychain()).set(id, key)
    this.inKeychain.add(id)
    await this.session.delete(id)
  }

  private async forgetKey(id: string): Promise<void> {
    await this.session.delete(id)
    this.inKeychain.delete(id)
    try {
      await (await this.opts.keychain()).delete(id)
    } catch {
      // No keychain: nothing of this account can be in it.
    }
  }

  private assertNotDemo(id: string): void {
    if (id === DEMO_ACCOUNT_ID) throw AppError.of('validation', { code: 'account.demoReadOnly' })
  }

  async close(): Promise<void> {
    await this.opts.demo.close()
  }
}

/** The cheap read (one line of the service's log): the service's refusal or failure as data. */
async function probe(clientOf: () => Promise<ApiClient>): Promise<ConnectionResult> {
  try {
    await (await clientOf()).call('logs.list', { limit: 1 })
    return { ok: true }
  } catch (err) {
    if (err instanceof AppError) return { ok: false, ...err.toData() }
    throw err
  }
}

/** A base URL that holds the key would put the key in every log line and address bar on the way. */
function refuseKeyInUrl(baseUrl: string, apiKey: string): void {
  const key = apiKey.trim()
  if (key.length >= 4 && (baseUrl.includes(key) || safeDecode(baseUrl).includes(key) || hostHolds(baseUrl, key))) {
    throw AppError.invalid('account.keyInBaseUrl', [{ path: 'baseUrl', code: 'account.keyInBaseUrl' }])
  }
}

/** A host is kept lower-cased once the URL is read, so a key in a host label is looked for regardless of case. */
function hostHolds(baseUrl: string, key: string): boolean {
  try {
    return new URL(baseUrl).hostname.includes(key.toLowerCase())
  } catch {
    return false
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

function paths(kinds: ProfileFields['serverKinds']) {
  return { a: kinds.a.path, b: kinds.b.path, c: kinds.c.path }
}
