// Fetches Electron's binary with Electron's own installer (node_modules/electron/install.js), for
// `npm start` and the setup's last step. When that fails (offline, a firewall, a proxy) it says
// what was fetched and from where, and what to try: a mirror (ELECTRON_MIRROR), a proxy, or
// `npm run ui` without Electron; not the installer's stack trace.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { say } from './setup-words.mjs'

const GITHUB_RELEASES = 'https://github.com/electron/electron/releases/download/'

/** Runs the installer; true when it put the binary in place. `who` starts every line (npm start, setup). */
export function fetchElectron(who, env = process.env) {
  const require = createRequire(import.meta.url)
  const packageDir = dirname(require.resolve('electron/package.json'))
  const version = require('electron/package.json').version
  const from = env.ELECTRON_MIRROR || GITHUB_RELEASES
  const file = `electron-v${version}-${env.ELECTRON_INSTALL_PLATFORM || process.platform}-${env.ELECTRON_INSTALL_ARCH || process.arch}.zip`
  console.log(say('setup.electron.fetching', { who, version, file, from }, env))
  const r = spawnSync(process.execPath, [join(packageDir, 'install.js')], {
    env,
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
  })
  if (r.status === 0) return true
  // The installer prints its error's stack: its first line says what failed; the rest is its code.
  const said =
    (r.stderr ?? '')
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? `exit code ${r.status ?? r.signal}`
  console.error(
    [
      say('setup.electron.failed', { who, version, file, from, said }, env),
      say('setup.electron.mirror', {}, env),
      say('setup.electron.proxy', {}, env),
      say('setup.electron.withoutElectron', {}, env),
    ].join('\n'),
  )
  return false
}

// Run as the setup's last step: `node scripts/fetch-electron.mjs setup`.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  process.exit(fetchElectron(process.argv[2] || 'setup') ? 0 : 1)
