// Where the Electron executable is, found by the rules Electron's package and electron-vite
// use, without running Electron's package (its index.js downloads the binary when it is
// missing, which must not happen behind the user's back):
// - ELECTRON_EXEC_PATH: electron-vite starts this executable as it is;
// - ELECTRON_OVERRIDE_DIST_PATH: Electron's package looks in this folder;
// - otherwise node_modules/electron/path.txt names the executable inside node_modules/electron/dist,
//   which Electron's installer (node_modules/electron/install.js) writes when it fetches the binary.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** The executable's path when it is there; undefined when Electron's binary is not installed. */
export function electronExecutable(env = process.env) {
  if (env.ELECTRON_EXEC_PATH) return existsSync(env.ELECTRON_EXEC_PATH) ? env.ELECTRON_EXEC_PATH : undefined
  let packageDir
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'))
  } catch {
    return undefined
  }
  const pathFile = join(packageDir, 'path.txt')
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined
  const file = env.ELECTRON_OVERRIDE_DIST_PATH ? join(env.ELECTRON_OVERRIDE_DIST_PATH, name || 'electron') : name ? join(packageDir, 'dist', name) : undefined
  return file && existsSync(file) ? file : undefined
}
