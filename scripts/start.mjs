// npm start: the app, built and started in Electron (electron-vite preview). Without Electron's
// binary (an install with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or one whose download failed) it stops
// at once, before the build, with one line that says what to run, instead of a stack trace after it.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { electronExecutable } from './electron-binary.mjs'

const executable = electronExecutable()
if (!executable) {
  console.error('npm start: Electron is not installed here: run `bash scripts/setup.sh` (or `node node_modules/electron/install.js`), then `npm start` again.')
  process.exit(1)
}
// electron-vite starts what ELECTRON_EXEC_PATH names: the executable found above, by the same rules.
// Its command line, as its package.json "bin" names it (the package does not export the file).
const require = createRequire(import.meta.url)
const cli = join(dirname(require.resolve('electron-vite/package.json')), require('electron-vite/package.json').bin['electron-vite'])
const child = spawn(process.execPath, [cli, 'preview', ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, ELECTRON_EXEC_PATH: executable } })
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
