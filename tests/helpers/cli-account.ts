/**
 * A data folder as the command finds it once a user has set the app up: one account of the
 * sandbox, its key in the keychain, made the active one through the app's own router; then the
 * app is closed again, so that the command holds the folder itself.
 */
import { createAppServices } from '../../src/main/app/app-services'
import type { Sandbox } from '../../src/sandbox'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from './router-calls'

/** The store worker as the build makes it (npm run build): what the app and the command run. */
export const BUILT_STORE_WORKER = new URL('../../out/main/store-worker.js', import.meta.url)

/** Sets up `dataDir` with the active account `name` of `sb`; answers the account's id. */
export async function setUpAccount(sb: Sandbox, dataDir: string, name: string): Promise<string> {
  const services = await createAppServices({
    userDataDir: dataDir,
    allowedOrigins: [APP],
    storeWorkerUrl: BUILT_STORE_WORKER,
  })
  try {
    const { ok } = routerCalls(() => services)
    const { id } = await ok('accounts.create', {
      fields: profileFor(sb, name),
      apiKey: sb.keys.full,
      storage: 'keychain',
    })
    await ok('accounts.setActive', { id })
    return id
  } finally {
    await services.close()
  }
}
