/**
 * npm run deb: the Debian package, made offline with Debian's own tools (dpkg-shlibdeps,
 * fakeroot, dpkg-deb) from the electron-vite build. electron-builder's deb target cannot run here:
 * it downloads fpm. docs/debian-package.md says what the package holds and why.
 *
 *   /usr/bin/hosting-admin                     the command, run on the package's own Node.js
 *   /usr/lib/hosting-admin/node                that Node.js (scripts/deb/node-runtime.ts)
 *   /usr/lib/hosting-admin/app/                the built app (out/main, out/preload, out/renderer) and
 *                                              its production node_modules; the command is its out/main/cli.js
 *   /usr/lib/hosting-admin/hosting-admin-app   the window's launcher (the desktop entry runs it)
 *   /usr/share/man/{,ja/}man1/hosting-admin.1.gz, bash and zsh completions: from the command table
 *   /usr/lib/systemd/system/                   docs/systemd's units (not enabled)
 *   /usr/share/applications, /usr/share/icons/hicolor   the desktop entry and icons
 *
 * Usage: tsx scripts/build-deb.ts [--version <v>] [--out <folder>] [--fast]
 * (--version: another version than package.json's, as the upgrade test builds; --fast: gzip
 * instead of xz, for tests).
 */
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { z } from 'zod'
import { texts } from '../src/cli/text'
import { bashCompletion, zshCompletion } from './deb/completions'
import { manPage } from './deb/man-page'
import { nodeRuntime, NODE_RUNTIME_VERSION } from './deb/node-runtime'
import { keep, productionPackages, shQuote } from './stage-command'

const PACKAGE = 'hosting-admin'
const LIB = `/usr/lib/${PACKAGE}`
/** Placeholders until the project has a home page and a contact address (as electron-builder.yml's). */
const MAINTAINER = 'Hosting Admin <hosting-admin@example.com>'
const HOMEPAGE = 'https://example.com/hosting-admin'

const manifestSchema = z.object({
  name: z.string(),
  version: z.string(),
  productName: z.string(),
  description: z.string(),
})

/** gzip as Debian wants it in a package: the most compression, no name or time in the header (zlib writes neither). */
const gzip = (text: string | Buffer) => gzipSync(text, { level: 9 })

function write(file: string, content: string | Buffer, mode = 0o644) {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, content)
  chmodSync(file, mode)
}

/** Every file under dir, relative to it, sorted. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name), base) : [relative(base, join(dir, e.name))]))
    .sort()
}

/**
 * Modes as Debian wants them whatever the checkout's umask: folders and programs 0755, the rest
 * 0644 (a file stays executable only if it was, and a Node-API module is a shared library: 0644).
 */
function normaliseModes(dir: string) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name)
    if (e.isSymbolicLink()) continue
    if (e.isDirectory()) {
      chmodSync(path, 0o755)
      normaliseModes(path)
    } else chmodSync(path, statSync(path).mode & 0o111 && !e.name.endsWith('.node') ? 0o755 : 0o644)
  }
}

/** Removes the empty folders under dir (npm packages ship some); true when dir itself is left empty. */
function pruneEmpty(dir: string): boolean {
  let empty = true
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && pruneEmpty(join(dir, e.name))) rmSync(join(dir, e.name), { recursive: true })
    else empty = false
  }
  return empty
}

/** The command on PATH: the package's own Node.js, never a `node` of PATH (Debian's is too old). */
const commandLauncher = () => `#!/bin/sh
# hosting-admin, as the Debian package installs it (scripts/build-deb.ts): the command runs on the
# Node.js installed with it (${NODE_RUNTIME_VERSION}), whatever node is on PATH.
exec ${LIB}/node ${LIB}/app/out/main/cli.js "$@"
`

/** The window's launcher: this package holds no Electron (it could not be fetched where it was built), which it says. */
function windowLauncher(): string {
  const [en, ja] = (['en', 'ja'] as const).map((l) => texts(l).t('deb.windowNotBuilt'))
  return `#!/bin/sh
# The Hosting Admin window, as this package installs it: its code is in ${LIB}/app, but the package
# was built without Electron (scripts/build-deb.ts), so this says so. The language rule of the command (src/cli/text.ts).
case \${LC_ALL:-\${LC_MESSAGES:-\${LANG:-}}} in
  [jJ][aA]*) printf '%s\\n' ${shQuote(ja ?? '')} >&2 ;;
  *) printf '%s\\n' ${shQuote(en ?? '')} >&2 ;;
esac
exit 1
`
}

function desktopEntry(productName: string): string {
  return `[Desktop Entry]
Type=Application
Name=${productName}
Comment=${texts('en').t('deb.desktop.comment')}
Comment[ja]=${texts('ja').t('deb.desktop.comment')}
Keywords=hosting;domain;DNS;server;
Exec=${LIB}/hosting-admin-app %U
Icon=${PACKAGE}
Terminal=false
Categories=Network;
StartupWMClass=${PACKAGE}
`
}

/** A Debian changelog entry (native package: the version is the app's). */
const changelog = (version: string, date: string) => `${PACKAGE} (${version}) unstable; urgency=medium

  * Built from the app's sources by scripts/build-deb.ts.

 -- ${MAINTAINER}  ${date}
`

/** A free-form copyright file: the app's terms, then Node.js's licence (its own and its bundled libraries'). */
const copyright = (nodeLicense: string) => `This is the Debian package of Hosting Admin, built by scripts/build-deb.ts.

Hosting Admin
Copyright: the Hosting Admin authors. All rights reserved; no licence to redistribute is granted
beyond what its authors give you.

The JavaScript libraries in ${LIB}/app/node_modules keep their own licence
files beside their code.

${LIB}/node is Node.js ${NODE_RUNTIME_VERSION}, as built by the Node.js project, under these terms:

${nodeLicense}`

/**
 * What lintian says that is true of this package on purpose, each with why (lintian reads the
 * comment lines as the justification).
 */
const LINTIAN_OVERRIDES = `# Node.js's official build, pinned by integrity (scripts/deb/node-runtime.ts), links zlib, OpenSSL
# and others statically, as the Node.js project ships it; Debian's own nodejs shares them but is too
# old for the command (18 on Debian 12), which is why the package brings this one.
${PACKAGE}: embedded-library * [usr/lib/${PACKAGE}/node]
# Its statically linked libraries' terms, as Node.js's LICENSE lists them, are quoted whole in the
# copyright file (the Apache and GPL texts and the FSF's old address among them): that file is the
# Node.js project's own statement of what its binary holds, not this package's licence.
${PACKAGE}: copyright-file-contains-full-apache-2-license
${PACKAGE}: copyright-not-using-common-license-for-gpl
${PACKAGE}: old-fsf-address-in-copyright-file
# Node.js's official Linux build is linked without PIE by the Node.js project.
${PACKAGE}: hardening-no-pie [usr/lib/${PACKAGE}/node]
# Valid UTF-8: the built JavaScript holds U+10FFFF (the last code point, a sort key's upper bound,
# src/main/store), which lintian's encoding check takes for another encoding.
${PACKAGE}: national-encoding [usr/lib/${PACKAGE}/app/out/main/chunks/*]
`

/** The package's run-time dependencies, as dpkg-shlibdeps finds them for its ELF files. */
function sharedLibraryDepends(root: string): string {
  const elves = filesUnder(root)
    .map((f) => join(root, f))
    .filter(
      (f) =>
        !lstatSync(f).isSymbolicLink() &&
        readFileSync(f)
          .subarray(0, 4)
          .equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])),
    )
  // dpkg-shlibdeps wants a source package around it: a throwaway debian/control names this one.
  const work = join(dirname(root), 'shlibdeps')
  rmSync(work, { recursive: true, force: true })
  write(join(work, 'debian', 'control'), `Source: ${PACKAGE}\n\nPackage: ${PACKAGE}\nArchitecture: any\n`)
  // Its warnings are expected: the modules' napi_* symbols are Node's own, and no file is installed yet.
  const out = execFileSync('dpkg-shlibdeps', ['-O', ...elves.map((e) => `-e${e}`)], {
    cwd: work,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  rmSync(work, { recursive: true, force: true })
  const m = /^shlibs:Depends=(.*)$/m.exec(out)
  if (!m?.[1]) throw new Error(`build-deb: dpkg-shlibdeps said nothing of the dependencies:\n${out}`)
  return m[1]
}

/** A Description's extended lines: at most 79 columns each, each after one space. */
function wrapped(text: string): string {
  const lines: string[] = []
  for (const word of text.split(/\s+/)) {
    const last = lines.length - 1
    if (last >= 0 && (lines[last] ?? '').length + 1 + word.length <= 78) lines[last] = `${lines[last]} ${word}`
    else lines.push(word)
  }
  return lines.map((l) => ` ${l}`).join('\n')
}

export interface BuiltDeb {
  deb: string
  version: string
  /** The bytes the bundled Node.js adds, installed. */
  runtimeBytes: number
}

export interface DebOptions {
  projectDir?: string
  /** Else package.json's. */
  version?: string
  /** Where the .deb goes (else dist/). */
  outDir?: string
  /** Where the package's tree is laid out (else out/deb-build). */
  workDir?: string
  /** gzip instead of xz: a quicker build for tests. */
  fast?: boolean
}

export function buildDeb(opts: DebOptions = {}): BuiltDeb {
  const projectDir = resolve(opts.projectDir ?? '.')
  const manifest = manifestSchema.parse(JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')))
  const version = opts.version ?? manifest.version
  const arch = execFileSync('dpkg', ['--print-architecture'], { encoding: 'utf8' }).trim()
  // The release's date, from the last commit: two builds of one commit make the same pages.
  const released = new Date(
    execFileSync('git', ['log', '-1', '--format=%cI'], { cwd: projectDir, encoding: 'utf8' }).trim() || Date.now(),
  )

  const work = resolve(opts.workDir ?? join(projectDir, 'out', 'deb-build'))
  const root = join(work, 'root')
  rmSync(work, { recursive: true, force: true })
  const lib = join(root, LIB.slice(1))

  // The app as electron-vite built it; the command is its out/main/cli.js, beside the app's own main.
  for (const part of ['main', 'preload', 'renderer'])
    cpSync(join(projectDir, 'out', part), join(lib, 'app', 'out', part), { recursive: true })
  // The production dependencies as the installers ship them (stage-command.ts): what npm installed, nothing rebuilt.
  for (const dir of productionPackages(projectDir)) {
    const from = join(projectDir, dir)
    cpSync(from, join(lib, 'app', dir), { recursive: true, filter: (file) => keep(from, file) })
  }
  const appManifest = {
    name: manifest.name,
    productName: manifest.productName,
    version,
    private: true,
    type: 'module',
    main: 'out/main/index.js',
    desktopName: `${PACKAGE}.desktop`,
  }
  write(join(lib, 'app', 'package.json'), `${JSON.stringify(appManifest, null, 2)}\n`)
  // keytar's module comes from its own build with symbols: stripped, as Debian ships shared objects.
  for (const f of filesUnder(join(lib, 'app', 'node_modules')).filter((f) => f.endsWith('.node'))) {
    execFileSync('strip', [
      '--strip-unneeded',
      '--remove-section=.comment',
      '--remove-section=.note',
      join(lib, 'app', 'node_modules', f),
    ])
  }

  const runtime = nodeRuntime(join(projectDir, 'out', 'node-runtime'), arch)
  cpSync(runtime.node, join(lib, 'node'))
  write(join(lib, 'hosting-admin-app'), windowLauncher(), 0o755)
  write(join(root, 'usr', 'bin', PACKAGE), commandLauncher(), 0o755)

  const day = released.toISOString().slice(0, 10)
  write(join(root, 'usr/share/man/man1', `${PACKAGE}.1.gz`), gzip(manPage('en', version, day)))
  write(join(root, 'usr/share/man/ja/man1', `${PACKAGE}.1.gz`), gzip(manPage('ja', version, day)))
  write(join(root, 'usr/share/bash-completion/completions', PACKAGE), bashCompletion())
  write(join(root, 'usr/share/zsh/vendor-completions', `_${PACKAGE}`), zshCompletion())

  const units = join(projectDir, 'docs', 'systemd')
  for (const unit of readdirSync(units).filter((f) => /\.(service|timer)$/.test(f)))
    cpSync(join(units, unit), join(root, 'usr/lib/systemd/system', unit))

  write(join(root, 'usr/share/applications', `${PACKAGE}.desktop`), desktopEntry(manifest.productName))
  const icons = join(projectDir, 'build', 'icons')
  for (const icon of readdirSync(icons).filter((f) => /^\d+x\d+\.png$/.test(f))) {
    cpSync(
      join(icons, icon),
      join(root, 'usr/share/icons/hicolor', icon.replace(/\.png$/, ''), 'apps', `${PACKAGE}.png`),
    )
  }

  const doc = join(root, 'usr/share/doc', PACKAGE)
  write(join(doc, 'copyright'), copyright(readFileSync(runtime.license, 'utf8')))
  write(join(doc, 'changelog.gz'), gzip(changelog(version, released.toUTCString().replace('GMT', '+0000'))))
  write(join(root, 'usr/share/lintian/overrides', PACKAGE), LINTIAN_OVERRIDES)

  pruneEmpty(root)
  normaliseModes(root)
  const depends = sharedLibraryDepends(root)
  const installedKb = Number(execFileSync('du', ['-sk', '--apparent-size', root], { encoding: 'utf8' }).split('\t')[0])
  const md5sums = execFileSync('md5sum', filesUnder(root), { cwd: root, encoding: 'utf8' })
  const control = `Package: ${PACKAGE}
Version: ${version}
Architecture: ${arch}
Maintainer: ${MAINTAINER}
Installed-Size: ${installedKb}
Depends: ${depends}
Section: net
Priority: optional
Homepage: ${HOMEPAGE}
Description: ${manifest.productName}: servers, domains and DNS of hosting accounts
${wrapped(manifest.description)}
 .
 The hosting-admin command works on the same accounts, keys, journal and
 history as the window, from scripts, cron, systemd and ACME clients
 (certbot, lego). It runs on the Node.js ${NODE_RUNTIME_VERSION} this package installs.
`
  write(join(root, 'DEBIAN', 'control'), control)
  write(join(root, 'DEBIAN', 'md5sums'), md5sums)
  chmodSync(join(root, 'DEBIAN'), 0o755)

  const outDir = resolve(opts.outDir ?? join(projectDir, 'dist'))
  mkdirSync(outDir, { recursive: true })
  const deb = join(outDir, `${PACKAGE}_${version}_${arch}.deb`)
  // Owned by root in the package whoever builds it; gzip for a quick test build, xz otherwise.
  execFileSync(
    'fakeroot',
    ['--', 'dpkg-deb', '--root-owner-group', opts.fast ? '-Zgzip' : '-Zxz', '--build', root, deb],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  )
  return { deb, version, runtimeBytes: statSync(runtime.node).size }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { version: { type: 'string' }, out: { type: 'string' }, fast: { type: 'boolean' } },
  })
  if (!existsSync(join('out', 'main', 'cli.js')))
    throw new Error('build-deb: out/main/cli.js is missing: run npm run build first (npm run deb does)')
  const built = buildDeb({ version: values.version, outDir: values.out, fast: values.fast })
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`
  console.log(
    `build-deb: ${relative('.', built.deb)} (${mb(statSync(built.deb).size)}; the Node.js runtime adds ${mb(built.runtimeBytes)} installed)`,
  )
}
