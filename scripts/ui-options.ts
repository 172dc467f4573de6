/**
 * What `npm run ui` gives the harness: its own data folder (accounts, log) and its own entries in
 * the system keychain, under a service name of its own, so keys are kept between runs as the
 * app keeps them (the end-to-end tests use a throwaway name per run instead). Without a Secret
 * Service the keys are kept for the session only, and the accounts screen says so.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'
import { KeytarSecretStore, loadKeytar, type SecretStore } from '../src/main/accounts/secret-store'
import { startHarness, type Harness } from '../support/harness'

/** The keychain service name of `npm run ui`'s keys (apart from the app's own, hosting-admin.api-key). */
export const UI_KEYCHAIN_SERVICE = 'hosting-admin-ui.api-key'

export const uiDataDir = (env: NodeJS.ProcessEnv = process.env): string =>
  env.HOSTING_ADMIN_UI_DIR ?? join(homedir(), '.config', 'hosting-admin-ui')

/** The harness's options for `npm run ui` (a part of support/harness.ts's HarnessOptions). */
export interface UiOptions {
  userDataDir: string
  logDir: string
  keychain?: SecretStore
  /** The keys outlive the window: closing it is not removing the accounts. */
  keepKeys: true
}

export async function uiHarnessOptions(userDataDir: string): Promise<UiOptions> {
  const keychain = await loadKeytar()
    .then((k) => new KeytarSecretStore(k, UI_KEYCHAIN_SERVICE))
    .catch(() => undefined)
  return { userDataDir, logDir: join(userDataDir, 'logs'), keepKeys: true, ...(keychain ? { keychain } : {}) }
}

/** The service part of `npm run ui`: main's services and the renderer's server, without the window. */
export async function startUiServices(userDataDir: string): Promise<Harness> {
  return startHarness(await uiHarnessOptions(userDataDir))
}
