/**
 * The Debian package as an administrator meets it (issue 52 points 4 and 5): built offline by
 * scripts/build-deb.ts, checked by lintian (nothing said, or said and justified in its overrides),
 * installed with `apt-get install ./….deb` on this machine, `hosting-admin --help` and `accounts`
 * run from PATH by a throwaway user on a system where no `node` can be run (each one on PATH is
 * covered by /dev/null in a mount namespace of the test's own), upgraded over itself by a second
 * build of a higher version, then removed and purged: the files of the package's folders listed
 * before and after are the same. Whatever happens, the package and the user are gone at the end.
 *
 * It installs into this machine's /usr, so it runs only as root with dpkg, apt and lintian
 * (scripts/setup.sh --test installs them), and not where a hosting-admin package is installed
 * already (it would replace it).
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildDeb, type BuiltDeb } from '../../scripts/build-deb'

const PACKAGE = 'hosting-admin'
const USER = `ha-deb-${process.pid}`
/** Where the package puts files; /usr/bin and dpkg's own records are shared with everything else, so only our names count there. */
const ROOTS = [
  '/usr/lib/hosting-admin',
  '/usr/lib/systemd/system',
  '/usr/share/man/man1',
  '/usr/share/man/ja/man1',
  '/usr/share/doc',
  '/usr/share/applications',
  '/usr/share/icons/hicolor',
  '/usr/share/bash-completion',
  '/usr/share/zsh',
  '/usr/share/lintian/overrides',
  '/etc/systemd/system',
]
const SHARED_ROOTS = ['/usr/bin', '/var/lib/dpkg/info']

/**
 * The test's builds carry a version of their own (before the release's: `~` sorts first), so a
 * package a killed run left behind is known as the test's and purged by the next run.
 */
const TEST_MARK = '~debtest'
const versionInstalled = () => spawnSync('dpkg-query', ['-W', '-f=${Version}', PACKAGE], { encoding: 'utf8' }).stdout

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0
const installed = () =>
  spawnSync('dpkg-query', ['-W', '-f=${Status}', PACKAGE], { encoding: 'utf8' }).stdout.includes('installed')

function skipReason(): string | undefined {
  if (process.platform !== 'linux') return 'not Linux'
  if (process.getuid?.() !== 0) return 'installs a package: needs root'
  for (const cmd of [
    'apt-get',
    'dpkg-deb',
    'dpkg-shlibdeps',
    'fakeroot',
    'lintian',
    'useradd',
    'unshare',
    'runuser',
    'strip',
    'npm',
  ])
    if (!has(cmd)) return `${cmd} is missing (bash scripts/setup.sh --test installs it)`
  if (!existsSync('out/main/cli.js')) return 'the app is not built (npm run build)'
  if (installed() && !versionInstalled().includes(TEST_MARK))
    return `a ${PACKAGE} package is installed on this machine already: not replaced by a test`
  return undefined
}
const skipped = skipReason()

/** Every path under the roots (and ours under the shared ones), sorted. */
function fileList(): string[] {
  const found: string[] = []
  const walk = (dir: string, ours: boolean) => {
    if (!existsSync(dir)) return
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name)
      if (ours && !/hosting[-_]admin/.test(e.name)) continue
      found.push(path)
      if (e.isDirectory()) walk(path, false)
    }
  }
  for (const r of ROOTS) walk(r, false)
  for (const r of SHARED_ROOTS) walk(r, true)
  return found.sort()
}

const MINUTE = 60_000
function run(cmd: string, args: string[], timeout = 5 * MINUTE): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, {
    encoding: 'utf8',
    timeout,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
  if (r.error) throw r.error
  return r
}
function ok(cmd: string, args: string[], timeout?: number): string {
  const r = run(cmd, args, timeout)
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`)
  return r.stdout
}

/**
 * A command as the throwaway user, from a login-like environment (PATH as Debian sets it), in a
 * mount namespace where every `node` on that PATH is /dev/null: nothing it starts can be Node of PATH.
 */
function asUser(home: string, script: string): SpawnSyncReturns<string> {
  const path = '/usr/local/bin:/usr/bin:/bin'
  const nodes = [
    ...new Set(
      path
        .split(':')
        .map((d) => join(d, 'node'))
        .filter((f) => existsSync(f)),
    ),
  ]
  const hide = nodes.map((f) => `mount --bind /dev/null ${f}`).join(' && ')
  const inner = `env -i PATH=${path} HOME=${home} LANG=C.UTF-8 sh -c '${script.replace(/'/g, `'\\''`)}'`
  return run('unshare', ['-m', 'sh', '-c', `${hide || 'true'} && exec runuser -u ${USER} -- ${inner}`], MINUTE)
}

describe.skipIf(skipped !== undefined)(`the Debian package${skipped ? ` (skipped: ${skipped})` : ''}`, () => {
  const work = mkdtempSync(join(tmpdir(), 'deb-test-'))
  const home = join(work, 'home')
  const version = z.object({ version: z.string() }).parse(JSON.parse(readFileSync('package.json', 'utf8'))).version
  let before: string[] = []
  let first: BuiltDeb | undefined

  beforeAll(() => {
    // What a run killed before its afterAll left: its package, its user.
    if (installed()) ok('dpkg', ['--purge', PACKAGE])
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const pid = /^ha-deb-(\d+):/.exec(line)?.[1]
      if (pid && !existsSync(`/proc/${pid}`)) spawnSync('userdel', ['--remove', `ha-deb-${pid}`])
    }
    // The user's home is inside: the folder must let it through.
    chmodSync(work, 0o755)
    before = fileList()
    execFileSync('useradd', ['--home-dir', home, '--create-home', '--shell', '/bin/sh', USER])
  })

  afterAll(() => {
    // Whatever failed: no package, no user, no files of the test's own left.
    if (installed() || spawnSync('dpkg-query', ['-W', PACKAGE]).status === 0)
      spawnSync('dpkg', ['--purge', PACKAGE], { timeout: 5 * MINUTE })
    spawnSync('userdel', ['--remove', USER], { timeout: MINUTE })
    rmSync(work, { recursive: true, force: true })
  }, 6 * MINUTE)

  it(
    "is built offline with Debian's tools, and lintian says nothing it was not told why",
    () => {
      first = buildDeb({ version: `${version}${TEST_MARK}1`, outDir: work, workDir: join(work, 'build-1'), fast: true })
      expect(statSync(first.deb).size).toBeGreaterThan(first.runtimeBytes / 4)
      const contents = ok('dpkg-deb', ['--contents', first.deb])
      for (const path of [
        './usr/bin/hosting-admin',
        './usr/lib/hosting-admin/node',
        './usr/lib/hosting-admin/app/out/main/cli.js',
        './usr/share/man/man1/hosting-admin.1.gz',
        './usr/share/man/ja/man1/hosting-admin.1.gz',
        './usr/share/bash-completion/completions/hosting-admin',
        './usr/share/zsh/vendor-completions/_hosting-admin',
        './usr/lib/systemd/system/hosting-admin-ddns@.timer',
        './usr/share/applications/hosting-admin.desktop',
        './usr/share/icons/hicolor/256x256/apps/hosting-admin.png',
        './usr/share/doc/hosting-admin/copyright',
      ]) {
        expect(contents).toContain(path)
      }
      // Root warns that lintian runs as root; anything else is a finding without an override.
      const said = run('lintian', [first.deb], 5 * MINUTE)
      expect(
        `${said.stdout}${said.stderr}`
          .split('\n')
          .filter((l) => l.trim() !== '' && !/running with root privileges/.test(l)),
      ).toEqual([])
      expect(said.status).toBe(0)
    },
    12 * MINUTE,
  )

  it(
    'installs with apt, and the user runs the command from PATH with no node to be had',
    () => {
      if (!first) throw new Error('not built')
      ok('apt-get', ['install', '-y', '--no-install-recommends', resolve(first.deb)])
      const r = asUser(
        home,
        'command -v node && echo "node found"; command -v hosting-admin; hosting-admin --help && hosting-admin accounts; echo "exit $?"',
      )
      expect(r.stderr).toBe('')
      expect(r.stdout).not.toContain('node found')
      expect(r.stdout).toContain('/usr/bin/hosting-admin\n')
      expect(r.stdout).toContain('Usage: hosting-admin <command> [options]')
      // An empty data folder lists the built-in demo, the active account.
      expect(r.stdout).toMatch(/^\* Demo \(local sandbox\)\ttest\tdemo$/m)
      expect(r.stdout).toContain('exit 0')
      // Listing reads the user's own accounts file (none yet) without the app's services: the quick
      // start (npm run bench -- cli-start) opens no store, so none is made in the user's data folder.
      expect(existsSync(join(home, '.config', 'Hosting Admin', 'portfolio.db'))).toBe(false)
    },
    10 * MINUTE,
  )

  it('has its man page and completions from the command table', () => {
    expect(ok('man', ['-P', 'cat', PACKAGE], MINUTE)).toContain('dns apply')
    const completed = ok('bash', [
      '-c',
      `source /usr/share/bash-completion/completions/${PACKAGE}; COMP_WORDS=(hosting-admin dns ''); COMP_CWORD=2; _hosting_admin; echo "\${COMPREPLY[*]}"`,
    ])
    expect(completed.trim().split(' ').sort()).toEqual(['apply', 'check', 'export', 'plan', 'served'])
    const flags = ok('bash', [
      '-c',
      `source /usr/share/bash-completion/completions/${PACKAGE}; COMP_WORDS=(hosting-admin renew --y); COMP_CWORD=2; _hosting_admin; echo "\${COMPREPLY[*]}"`,
    ])
    expect(flags.trim().split(' ').sort()).toEqual(['--years', '--yes'])
  })

  it(
    'upgrades over itself, then is removed and purged leaving nothing behind',
    () => {
      const second = buildDeb({
        version: `${version}${TEST_MARK}2`,
        outDir: work,
        workDir: join(work, 'build-2'),
        fast: true,
      })
      ok('apt-get', ['install', '-y', '--no-install-recommends', resolve(second.deb)])
      expect(ok('dpkg-query', ['-W', '-f=${Version}', PACKAGE])).toBe(`${version}${TEST_MARK}2`)
      const r = asUser(home, 'hosting-admin accounts')
      expect(r.status).toBe(0)
      expect(r.stdout).toContain('Demo (local sandbox)')

      ok('apt-get', ['remove', '-y', PACKAGE])
      // A package with no conffiles is forgotten at its removal; one that kept some is purged of them.
      if (spawnSync('dpkg-query', ['-W', PACKAGE]).status === 0) ok('apt-get', ['purge', '-y', PACKAGE])
      expect(spawnSync('dpkg-query', ['-W', PACKAGE]).status).not.toBe(0)
      expect(fileList()).toEqual(before)
    },
    12 * MINUTE,
  )
})
