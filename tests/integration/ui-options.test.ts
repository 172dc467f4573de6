/**
 * `npm run ui` keeps its keys between runs: its harness options name the system keychain under a
 * service name of their own (not a throwaway one per run, as the end-to-end tests do), so an
 * account added in one run finds its key in the next.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { UI_KEYCHAIN_SERVICE, uiDataDir, uiHarnessOptions } from '../../scripts/ui-options'
import { APP, routerCalls } from '../helpers/router-calls'
import { KeytarSecretStore, loadKeytar } from '../../src/main/accounts/secret-store'

describe('npm run ui', () => {
  it('keeps its data under ~/.config/hosting-admin-ui unless told otherwise', () => {
    expect(uiDataDir({ HOSTING_ADMIN_UI_DIR: '/x/y' })).toBe('/x/y')
    expect(uiDataDir({})).toMatch(/\.config[/\\]hosting-admin-ui$/)
  })

  it.skipIf(!process.env.DBUS_SESSION_BUS_ADDRESS)(
    'keeps an account’s key in the system keychain from one run to the next',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ui-run-'))
      const run = async (): Promise<AppServices> => {
        const opts = await uiHarnessOptions(dir)
        expect(opts.keychain).toBeInstanceOf(KeytarSecretStore)
        const keychain = opts.keychain
        if (!keychain) throw new Error('no keychain')
        return createAppServices({ userDataDir: dir, allowedOrigins: [APP], keychain: async () => keychain })
      }
      let services = await run()
      const { ok } = routerCalls(() => services)
      const fields = {
        name: 'Kept',
        baseUrl: 'https://api.example.com/v1',
        serverKinds: {
          a: { path: 'web', label: 'Web' },
          b: { path: 'managed', label: 'Managed' },
          c: { path: 'cloud', label: 'Cloud' },
        },
        timeoutMs: 30_000,
      }
      const created = await ok('accounts.create', { fields, apiKey: 'ui-kept-key-0123456789', storage: 'keychain' })
      await services.close()
      services = await run()
      try {
        const listed = await ok('accounts.list', {})
        expect(listed.accounts.find((a) => a.id === created.id)).toMatchObject({ keyStorage: 'keychain' })
        expect(UI_KEYCHAIN_SERVICE).not.toBe('hosting-admin.api-key')
      } finally {
        await ok('accounts.remove', { id: created.id })
        await services.close()
      }
    },
  )

  // The window's process, with its real service part: it used to run the tests' teardown when the
  // window closed, which removed every key from the keychain (and the next run blamed a locked keyring).
  it.skipIf(!process.env.DBUS_SESSION_BUS_ADDRESS || !existsSync('out/main/store-worker.js'))(
    'keys outlive the window: after the services close, the key is still in the system keychain',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ui-window-'))
      const key = 'ui-outlives-window-0123456789'
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'tests/helpers/ui-services-run.ts', dir], {
        input: key,
        encoding: 'utf8',
        timeout: 60_000,
      })
      expect(r.status, r.stderr).toBe(0)
      const id = r.stdout.trim().split('\n').at(-1) ?? ''
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
      const keychain = new KeytarSecretStore(await loadKeytar(), UI_KEYCHAIN_SERVICE)
      try {
        expect(await keychain.get(id)).toBe(key)
      } finally {
        await keychain.delete(id)
      }
    },
  )
})
