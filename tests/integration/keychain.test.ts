/**
 * The real OS keychain through keytar. `npm test` runs inside dbus-run-session with an
 * unlocked gnome-keyring (scripts/test-all.sh); outside one, the first block is skipped
 * with that reason and the second still shows the clear message.
 */
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { writeFileSync, mkdtempSync } from 'node:fs'
import { z } from 'zod'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KeytarSecretStore, loadKeytar, SessionSecretStore } from '../../src/main/accounts/secret-store'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)

describe.skipIf(!hasSecretService)(
  'keytar with a real Secret Service (skipped: no D-Bus session; run through npm test)',
  () => {
    const service = `hosting-admin-test-${randomUUID()}`

    it('stores, reads, replaces and deletes a key; two accounts are kept apart', async () => {
      const store = new KeytarSecretStore(await loadKeytar(), service)
      const a = `acct-${randomUUID()}`
      const b = `acct-${randomUUID()}`
      expect(await store.get(a)).toBeUndefined()
      await store.set(a, 'key-for-a-1')
      await store.set(b, 'key-for-b-1')
      expect(await store.get(a)).toBe('key-for-a-1')
      expect(await store.get(b)).toBe('key-for-b-1')
      await store.set(a, 'key-for-a-2')
      expect(await store.get(a)).toBe('key-for-a-2')
      expect(await store.get(b)).toBe('key-for-b-1')
      await store.delete(a)
      expect(await store.get(a)).toBeUndefined()
      expect(await store.get(b)).toBe('key-for-b-1')
      await store.delete(b)
      expect(await store.get(b)).toBeUndefined()
    })
  },
)

describe('without a Secret Service', () => {
  it('keytar fails with a clear message that says what is missing and how to fix it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nokeyring-'))
    const script = join(dir, 'probe.mts')
    const modulePath = resolve('src/main/accounts/secret-store.ts')
    const englishPath = resolve('tests/helpers/english.ts')
    writeFileSync(
      script,
      `import { KeytarSecretStore, loadKeytar } from ${JSON.stringify(modulePath)}
import { english } from ${JSON.stringify(englishPath)}
try {
  const store = new KeytarSecretStore(await loadKeytar(), 'hosting-admin-test-nokeyring')
  await store.set('x', 'secret-value-123')
  console.log(JSON.stringify({ stored: true }))
} catch (err) {
  console.log(JSON.stringify({ kind: err.kind, message: english(err) }))
}
`,
    )
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: dir }
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { env, encoding: 'utf8', timeout: 60_000 })
    const line = r.stdout.trim().split('\n').at(-1) ?? ''
    const out = z
      .object({ kind: z.string().optional(), message: z.string().optional(), stored: z.boolean().optional() })
      .parse(JSON.parse(line))
    expect(out.stored).toBeUndefined()
    expect(out.kind).toBe('keychain-unavailable')
    expect(out.message).toMatch(/No Secret Service is reachable on D-Bus/)
    expect(out.message).toMatch(/GNOME Keyring or KWallet/)
    expect(out.message).toMatch(/this session only/)
    expect(out.message).not.toContain('secret-value-123')
  })

  it('a session-only key works in memory and is gone with the store', async () => {
    const s = new SessionSecretStore()
    await s.set('a', 'k1')
    expect(await s.get('a')).toBe('k1')
    expect(s.has('a')).toBe(true)
    await s.delete('a')
    expect(await s.get('a')).toBeUndefined()
  })
})
