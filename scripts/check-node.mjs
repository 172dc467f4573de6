// Checks this machine's Node.js against what the chosen use needs, with a message that says
// what to do. `app`: `npm start` runs Electron's installer, which declares its own minimum
// (read from the lock file, so it follows Electron upgrades). `test`: the project's own
// minimum (package.json "engines"); the tests never start Electron.
import { readFileSync } from 'node:fs'
import { say } from './setup-words.mjs'

const mode = process.argv[2] === 'test' ? 'test' : 'app'
const json = (file) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'))

const electron = json('package-lock.json').packages?.['node_modules/electron'] ?? {}
const [range, who] =
  mode === 'app'
    ? [electron.engines?.node ?? '>=22.12.0', say('setup.node.whoApp', { version: electron.version ?? '' })]
    : [json('package.json').engines?.node ?? '>=20.19.0', say('setup.node.whoTest')]

const parse = (v) => (v.match(/\d+(\.\d+){0,2}/)?.[0] ?? '0').split('.').map(Number)
const wanted = parse(range)
const have = parse(process.versions.node)
const older = (a, b) => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0)
  return false
}

// The versions of the same major that are refused, said in full: "22 or later" would read as if
// 22.0 to 22.11 were enough.
const [major, minor = 0, patch = 0] = wanted
const tooOld =
  patch > 0 ? `${major}.0 to ${major}.${minor}.${patch - 1}` : minor > 0 ? `${major}.0 to ${major}.${minor - 1}` : ''

if (older(have, wanted)) {
  const needed = wanted.join('.')
  console.error(
    [
      say('setup.node.tooOld', { who, wanted: needed, have: process.versions.node }),
      say('setup.node.install', {
        wanted: needed,
        major: wanted[0],
        refused: tooOld ? say('setup.node.refused', { range: tooOld }) : '',
      }),
      ...(mode === 'app' ? [say('setup.node.uiInstead')] : []),
    ].join('\n'),
  )
  process.exit(1)
}
console.log(say('setup.node.ok', { have: process.versions.node, who, range }))
