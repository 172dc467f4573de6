/**
 * The setup's last step (issue 39 point 12): scripts/setup.sh runs `node scripts/fetch-electron.mjs
 * setup`, which, offline, ended in "TypeError: fetch failed" and a stack with no word of what was
 * fetched. Offline here is a loopback port nobody listens on, named as the mirror; the step must
 * say what it fetched and from where, and what to try (a mirror, a proxy, npm run ui), in lines of
 * its own, without a stack. (Skipped where Electron's binary is installed: nothing is fetched.)
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { closedLoopbackPort } from '../../support/free-port'

const root = join(__dirname, '../..')

describe('the setup’s last step, offline', () => {
  it.skipIf(existsSync(join(root, 'node_modules/electron/path.txt')))(
    'says what it fetched, from where, and what to try, without a stack',
    async () => {
      const mirror = `http://127.0.0.1:${await closedLoopbackPort()}/`
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !k.startsWith('ELECTRON_') && !k.startsWith('LC_')),
      )
      // As setup.sh runs it.
      const r = spawnSync(process.execPath, ['scripts/fetch-electron.mjs', 'setup'], {
        cwd: root,
        env: { ...env, LANG: 'C.UTF-8', ELECTRON_MIRROR: mirror },
        encoding: 'utf8',
        timeout: 60_000,
      })
      expect(r.status).toBe(1)
      const { version } = z
        .object({ version: z.string() })
        .parse(JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')))
      const file = `electron-v${version}-${process.platform}-${process.arch}.zip`
      expect(r.stdout).toContain(`setup: fetching Electron ${version} (${file}, about 100 MB, once) from ${mirror}`)
      const lines = r.stderr.trim().split('\n')
      expect(lines[0]).toMatch(
        new RegExp(
          `^setup: could not fetch Electron ${version.replace(/\./g, '\\.')} \\(${file.replace(/\./g, '\\.')}\\) from ${mirror.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: the installer said “.*fetch failed.*”\\.$`,
        ),
      )
      expect(lines.slice(1).join('\n')).toMatch(/ELECTRON_MIRROR=\S+ npm start/)
      expect(lines.slice(1).join('\n')).toMatch(/HTTPS_PROXY=\S+ ELECTRON_GET_USE_PROXY=1 npm start/)
      expect(lines.slice(1).join('\n')).toContain('npm run ui')
      expect(lines).toHaveLength(4)
      expect(r.stderr).not.toMatch(/^\s+at /m)
    },
  )

  it.skipIf(existsSync(join(root, 'node_modules/electron/path.txt')))(
    'says it in Japanese where the user’s language is Japanese',
    async () => {
      const mirror = `http://127.0.0.1:${await closedLoopbackPort()}/`
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !k.startsWith('ELECTRON_') && !k.startsWith('LC_')),
      )
      const r = spawnSync(process.execPath, ['scripts/fetch-electron.mjs', 'setup'], {
        cwd: root,
        env: { ...env, LANG: 'ja_JP.UTF-8', ELECTRON_MIRROR: mirror },
        encoding: 'utf8',
        timeout: 60_000,
      })
      expect(r.status).toBe(1)
      expect(r.stdout).toMatch(
        new RegExp(
          `^setup: Electron \\S+ \\(electron-v\\S+\\.zip、約 100 MB、初回のみ\\) を ${mirror.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} から取得しています`,
          'm',
        ),
      )
      const lines = r.stderr.trim().split('\n')
      expect(lines[0]).toMatch(
        /^setup: Electron \S+ \(\S+\) を \S+ から取得できませんでした。インストーラーのメッセージ: 「.*fetch failed.*」$/,
      )
      expect(lines.slice(1).join('\n')).toContain('ミラーから取得する')
      expect(lines.slice(1).join('\n')).toContain('プロキシを通す')
      expect(lines.slice(1).join('\n')).toContain('npm run ui')
      expect(lines).toHaveLength(4)
    },
  )
})
