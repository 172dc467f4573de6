/**
 * The app's data folder, as Electron names it (app.getPath('userData')): the platform's
 * application-data folder and the app's name, "Hosting Admin" when installed (electron-builder
 * writes productName into the packed package.json) and "hosting-admin" when run from a checkout.
 * HOSTING_ADMIN_DATA_DIR or --data-dir names another.
 */
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

function appDataDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (platform === 'win32') return env.APPDATA ?? join(homedir(), 'AppData', 'Roaming')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support')
  return env.XDG_CONFIG_HOME || join(homedir(), '.config')
}

export function dataDirOf(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (flag) return flag
  if (env.HOSTING_ADMIN_DATA_DIR) return env.HOSTING_ADMIN_DATA_DIR
  const base = appDataDir(env, platform)
  const installed = join(base, 'Hosting Admin')
  const checkout = join(base, 'hosting-admin')
  return existsSync(installed) || !existsSync(checkout) ? installed : checkout
}
