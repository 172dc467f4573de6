// npm start: the app, built and started in Electron (electron-vite preview). Electron's binary is
// fetched first when it is not installed (an install whose download failed or was skipped); a
// fetch that fails, or a variable naming an executable that is not there, stops it at once,
// before the build, with lines that say what to do instead of a stack trace after it.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { findElectron } from './electron-binary.mjs'
import { fetchElectron } from './fetch-electron.mjs'
import { say } from './setup-words.mjs'

let found = findElectron()
if (found.variable) {
  console.error(say('setup.start.execPathMissing', { variable: found.variable, path: found.path }))
  process.exit(1)
}
if (found.notInstalled) {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    console.error(say('setup.start.notFetched'))
    process.exit(1)
  }
  if (!fetchElectron('npm start')) process.exit(1)
  found = findElectron()
  if (!found.file) {
    console.error(say('setup.start.noExecutable'))
    process.exit(1)
  }
}
// electron-vite starts what ELECTRON_EXEC_PATH names: the executable found above, by the same rules.
// Its command line, as its package.json "bin" names it (the package does not export the file).
const require = createRequire(import.meta.url)
const cli = join(
  dirname(require.resolve('electron-vite/package.json')),
  require('electron-vite/package.json').bin['electron-vite'],
)
const child = spawn(process.execPath, [cli, 'preview', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, ELECTRON_EXEC_PATH: found.file },
})
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
