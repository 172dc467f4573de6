/**
 * The app's data folder, as Electron names it (app.getPath('userData')): the platform's
 * application-data folder and the app's name, package.json's productName, which Electron reads
 * from the app's package.json both when installed and when run from a checkout.
 * HOSTING_ADMIN_DATA_DIR or --data-dir names another.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'

/** package.json's productName (tests/integration/packed-app.test.ts checks the packed app's). */
export const APP_FOLDER_NAME = 'Hosting Admin'

function appDataDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (platform === 'win32') return env.APPDATA ?? join(homedir(), 'AppData', 'Roaming')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support')
  return env.XDG_CONFIG_HOME || join(homedir(), '.config')
}

export function dataDirOf(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (flag) return flag
  if (env.HOSTING_ADMIN_DATA_DIR) return env.HOSTING_ADMIN_DATA_DIR
  return join(appDataDir(env, platform), APP_FOLDER_NAME)
}
