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

/**
 * The executable, or why there is none: a variable the user set names a file that is not there
 * (`variable`, `path`: the user's own choice, not something to fetch), or Electron's binary is not
 * installed in node_modules (`notInstalled`: Electron's installer can fetch it).
 */
export function findElectron(env = process.env) {
  if (env.ELECTRON_EXEC_PATH)
    return existsSync(env.ELECTRON_EXEC_PATH)
      ? { file: env.ELECTRON_EXEC_PATH }
      : { variable: 'ELECTRON_EXEC_PATH', path: env.ELECTRON_EXEC_PATH }
  let packageDir
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'))
  } catch {
    return { notInstalled: true }
  }
  const pathFile = join(packageDir, 'path.txt')
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const file = join(env.ELECTRON_OVERRIDE_DIST_PATH, name || 'electron')
    return existsSync(file) ? { file } : { variable: 'ELECTRON_OVERRIDE_DIST_PATH', path: file }
  }
  const file = name ? join(packageDir, 'dist', name) : undefined
  return file && existsSync(file) ? { file } : { notInstalled: true }
}
