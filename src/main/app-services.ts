/**
 * Everything behind the IPC boundary, wired once: profiles, keychain, demo account and
 * the IPC router. Plain Node, so the Electron shell and the end-to-end bridge build the
 * very same thing.
 */
import { join } from 'node:path'
import { AccountService, type DemoBackend } from './accounts/account-service'
import { ProfileStore } from './accounts/profile-store'
import { KeytarSecretStore, loadKeytar, type SecretStore } from './accounts/secret-store'
import { sandboxDemo } from './accounts/demo'
import { createIpcRouter, type IpcRouter } from './ipc/router'
import { createChannelHandlers } from './ipc/handlers'
import { RunningCalls } from './ipc/running-calls'

export interface AppServicesOptions {
  userDataDir: string
  allowedOrigins: string[]
  /** Defaults to the OS keychain through keytar. */
  keychain?: () => Promise<SecretStore>
  demo?: DemoBackend
}

export interface AppServices {
  accounts: AccountService
  router: IpcRouter
  profiles: ProfileStore
  close(): Promise<void>
}

export async function createAppServices(opts: AppServicesOptions): Promise<AppServices> {
  const profiles = new ProfileStore(join(opts.userDataDir, 'accounts.json'))
  await profiles.load()
  let keychain: Promise<SecretStore> | undefined
  const defaultKeychain = () => {
    // Retried on each use after a failure: the user may unlock or start the keyring meanwhile.
    keychain ??= loadKeytar()
      .then((k) => new KeytarSecretStore(k))
      .catch((err: unknown) => {
        keychain = undefined
        throw err
      })
    return keychain
  }
  const accounts = new AccountService({ profiles, keychain: opts.keychain ?? defaultKeychain, demo: opts.demo ?? sandboxDemo() })
  const calls = new RunningCalls()
  const router = createIpcRouter({ handlers: createChannelHandlers({ accounts, calls }), calls, allowedOrigins: opts.allowedOrigins })
  return { accounts, router, profiles, close: () => accounts.close() }
}
