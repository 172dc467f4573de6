/**
 * Lays out the hosting-admin command as the installers ship it, in out/command (npm run dist runs
 * this between electron-vite build and electron-builder; electron-builder.yml's extraResources
 * copies the folder to the app's resources/cli, outside app.asar, where the system's Node can
 * read it: Electron's RunAsNode fuse is off, so the app's own binary cannot run it).
 *
 *   resources/cli/hosting-admin       POSIX launcher (Linux, macOS): runs hosting-admin.mjs with `node`
 *   resources/cli/hosting-admin.cmd   Windows launcher
 *   resources/cli/hosting-admin.mjs   checks the Node.js version, then starts main/cli.js
 *   resources/cli/main/               out/main's cli.js, store-worker.js and chunks/ (not the app's index.js)
 *   resources/cli/node_modules/       the production dependencies, as npm installed them (nothing rebuilt)
 *
 * It also writes out/deb/hosting-admin, a relative link to the launcher as the deb installs it,
 * which the deb target installs as /usr/bin/hosting-admin (electron-builder.yml deb.fpm).
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sanitizeFileName } from 'builder-util/out/filename'
import { z } from 'zod'
import { texts } from '../src/cli/text'

const manifestSchema = z.object({
  name: z.string(),
  version: z.string(),
  productName: z.string().optional(),
  engines: z.object({ node: z.string() }).partial().optional(),
  dependencies: z.record(z.string(), z.string()).optional(),
  optionalDependencies: z.record(z.string(), z.string()).optional(),
})
type Manifest = z.infer<typeof manifestSchema>
const readManifest = (dir: string): Manifest =>
  manifestSchema.parse(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')))

/** The folder a package's `require(name)` finds, as Node looks it up: node_modules of the package, then of each folder above it, up to the project. */
function packageDirOf(name: string, from: string, projectDir: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dir === projectDir || dirname(dir) === dir) return undefined
  }
}

/** A libsql binary for musl (Alpine): the installers are glibc Linux, macOS and Windows, as electron-builder.yml's files say. */
const isMuslBuild = (name: string) => /^@libsql\/.*-musl/.test(name)

/**
 * keytar's dependencies for `npm install` only: prebuild-install puts its prebuilt binary in place
 * and node-addon-api has the headers to compile one. At run time keytar loads build/Release/keytar.node.
 */
const INSTALL_ONLY = new Set(['prebuild-install', 'node-addon-api'])

/**
 * The folders (relative to projectDir) of every package the app needs at run time: its
 * dependencies and theirs, each where npm installed it; optional ones only when installed
 * (npm installs only this platform's libsql binary).
 */
export function productionPackages(projectDir: string): string[] {
  const found = new Set<string>()
  const visit = (from: string, manifest: Manifest) => {
    const wanted = [
      ...Object.keys(manifest.dependencies ?? {}).map((n) => [n, true] as const),
      ...Object.keys(manifest.optionalDependencies ?? {}).map((n) => [n, false] as const),
    ]
    for (const [name, required] of wanted) {
      if (isMuslBuild(name) || INSTALL_ONLY.has(name)) continue
      const dir = packageDirOf(name, from, projectDir)
      if (!dir) {
        if (required)
          throw new Error(`stage-command: ${name}, needed by ${manifest.name}, is not installed (run npm ci)`)
        continue
      }
      const key = relative(projectDir, dir)
      if (found.has(key)) continue
      found.add(key)
      visit(dir, readManifest(dir))
    }
  }
  visit(projectDir, readManifest(projectDir))
  return [...found].sort()
}

/** What of a package's folder is left out (as electron-builder.yml's files leave it out of the app): nested packages (staged on their own), TypeScript, maps, docs, keytar's build tree. */
export function keep(packageDir: string, file: string): boolean {
  const inside = relative(packageDir, file).split(sep)
  if (inside[0] === '') return true
  if (inside.includes('node_modules')) return false
  if (/\.(ts|mts|cts|map|md|markdown)$/.test(file)) return false
  if (basename(packageDir) === 'keytar') {
    // The module and its loader; not its sources, the vendored libsecret headers or the objects of its build.
    if (inside[0] === 'src' || inside[0] === 'deps') return false
    if (inside[0] === 'build') return inside.length < 3 || inside.join('/') === 'build/Release/keytar.node'
  }
  return true
}

/** The Node.js version the command needs, from package.json's engines (">=20.19.0" → [20, 19, 0]). */
function minimumNode(manifest: Manifest): [number, number, number] {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(manifest.engines?.node ?? '')
  if (!m) throw new Error('stage-command: package.json has no engines.node of the form >=X.Y.Z')
  return [Number(m[1]), Number(m[2]), Number(m[3])]
}

/** A POSIX shell single-quoted string. */
export const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/** The launcher for Linux and macOS: follows the links that put it on PATH, then runs hosting-admin.mjs beside it with `node`. */
function posixLauncher(minimum: string): string {
  const [en, ja] = (['en', 'ja'] as const).map((l) => texts(l).t('cli.nodeMissing', { minimum }))
  return `#!/bin/sh
# hosting-admin, as installed: the command shipped beside this file, run by the system's Node.js
# (${minimum} or later). /usr/bin/hosting-admin (the deb) or a link of the user's may point here.
self=$0
while [ -L "$self" ]; do
  target=$(readlink "$self")
  case $target in
    /*) self=$target ;;
    *) self=\${self%/*}/$target ;;
  esac
done
here=\${self%/*}
[ "$here" = "$self" ] && here=.
if ! command -v node >/dev/null 2>&1; then
  # The language rule of the command (src/cli/text.ts): LC_ALL, LC_MESSAGES or LANG starting with "ja".
  case \${LC_ALL:-\${LC_MESSAGES:-\${LANG:-}}} in
    [jJ][aA]*) printf '%s\\n' ${shQuote(ja ?? '')} >&2 ;;
    *) printf '%s\\n' ${shQuote(en ?? '')} >&2 ;;
  esac
  exit 1
fi
exec node "$here/hosting-admin.mjs" "$@"
`
}

/** The Windows launcher. Without node on PATH, cmd.exe says so itself, in the system's language. */
const windowsLauncher = () => `@echo off\r
rem hosting-admin, as installed: the command shipped beside this file, run by the system's Node.js.\r
node "%~dp0hosting-admin.mjs" %*\r
exit /b %ERRORLEVEL%\r
`

/**
 * The entry Node runs: plain JavaScript any Node.js parses, so that an older one says which it
 * needs instead of failing on what it cannot read in the command.
 */
function entry(minimum: [number, number, number]): string {
  const shown = minimum.join('.')
  const text = {
    en: texts('en').t('cli.nodeTooOld', { minimum: shown, have: '{have}' }),
    ja: texts('ja').t('cli.nodeTooOld', { minimum: shown, have: '{have}' }),
  }
  return `// hosting-admin, as installed: checks the Node.js that runs it, then starts the command (main/cli.js).
var MINIMUM = ${JSON.stringify(minimum)}
var TEXT = ${JSON.stringify(text)}
var have = process.versions.node.split('.').map(Number)
var older = false
for (var i = 0; i < 3; i++) {
  if (have[i] !== MINIMUM[i]) {
    older = have[i] < MINIMUM[i]
    break
  }
}
if (older) {
  var tag = process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG || ''
  process.stderr.write((/^ja/i.test(tag) ? TEXT.ja : TEXT.en).replace('{have}', process.versions.node) + '\\n')
  process.exit(1)
}
import('./main/cli.js')
`
}

export interface Staged {
  /** out/command: becomes resources/cli. */
  command: string
  /** out/deb/hosting-admin: becomes /usr/bin/hosting-admin in the deb. */
  debLink: string
  packages: string[]
}

export function stageCommand(projectDir: string = resolve('.')): Staged {
  const built = join(projectDir, 'out', 'main')
  if (!existsSync(join(built, 'cli.js')))
    throw new Error('stage-command: out/main/cli.js is missing: run electron-vite build first')
  const manifest = readManifest(projectDir)
  const command = join(projectDir, 'out', 'command')
  rmSync(command, { recursive: true, force: true })
  mkdirSync(join(command, 'main'), { recursive: true })

  for (const part of ['cli.js', 'store-worker.js', 'chunks'])
    cpSync(join(built, part), join(command, 'main', part), { recursive: true })
  const packages = productionPackages(projectDir)
  for (const dir of packages) {
    const from = join(projectDir, dir)
    cpSync(from, join(command, dir), { recursive: true, filter: (file) => keep(from, file) })
  }
  // The built files are ES modules (the project's package.json says "type": "module").
  writeFileSync(
    join(command, 'package.json'),
    `${JSON.stringify({ name: `${manifest.name}-command`, version: manifest.version, private: true, type: 'module' }, null, 2)}\n`,
  )

  const minimum = minimumNode(manifest)
  writeFileSync(join(command, 'hosting-admin.mjs'), entry(minimum))
  writeFileSync(join(command, 'hosting-admin'), posixLauncher(minimum.join('.')))
  chmodSync(join(command, 'hosting-admin'), 0o755)
  writeFileSync(join(command, 'hosting-admin.cmd'), windowsLauncher())

  // The deb installs the app in /opt/<productName as electron-builder sanitizes it> (its LinuxTargetHelper.installPrefix).
  const installed = `opt/${sanitizeFileName(manifest.productName ?? manifest.name)}/resources/cli/hosting-admin`
  const debLink = join(projectDir, 'out', 'deb', 'hosting-admin')
  rmSync(dirname(debLink), { recursive: true, force: true })
  mkdirSync(dirname(debLink), { recursive: true })
  // Relative (/usr/bin/../../opt/…), so that it also resolves inside a root other than /.
  symlinkSync(`../../${installed}`, debLink)
  return { command, debLink, packages }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const staged = stageCommand()
  console.log(
    `stage-command: ${relative('.', staged.command)} (${staged.packages.length} packages) and ${relative('.', staged.debLink)}`,
  )
}
