/**
 * The Team section's main side (issue 37 point 1) against a real PostgreSQL that asks for a
 * password (scram-sha-256) and the real keychain: the password kept in the keychain and in no
 * file, the schema created on connect, the status naming this workstation, a wrong password
 * refused. Runs inside a D-Bus session with an unlocked keyring (npm test, /work/keyring-run.sh).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KeytarSecretStore, loadKeytar, type SecretStore } from '../../src/main/accounts/secret-store'
import { SCHEMA_VERSION } from '../../src/main/team/schema'
import { TeamSettingsService } from '../../src/main/team/team-settings-service'
import { teamPasswordKey } from '../../src/main/team/team-settings'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const PASSWORD = `team-pw-${randomUUID()}`

describe.skipIf(!hasSecretService)(
  'Team settings with the real keychain (skipped: no D-Bus session; run through npm test)',
  () => {
    let db: TestPostgres
    let dataDir: string
    let keychain: SecretStore
    beforeAll(async () => {
      db = await startTestPostgres({ password: PASSWORD })
      dataDir = mkdtempSync(join(tmpdir(), 'team-settings-'))
      keychain = new KeytarSecretStore(await loadKeytar(), `hosting-admin-test-team-${randomUUID()}`)
    }, 60_000)
    afterAll(() => {
      db?.remove()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    })

    const settings = () => ({
      connection: { host: db.host, port: db.port, database: db.database, user: db.user, sslmode: 'disable' as const },
      member: 'alice',
      workstation: 'host-a',
    })

    it('a wrong password is refused and nothing is kept', async () => {
      const service = new TeamSettingsService(dataDir, async () => keychain)
      await expect(service.test(settings(), 'wrong')).rejects.toMatchObject({
        code: 'team.passwordRefused',
        params: { user: db.user },
      })
      await expect(service.connect(settings(), 'wrong')).rejects.toMatchObject({
        code: 'team.passwordRefused',
        params: { user: db.user },
      })
      expect(readdirSync(dataDir)).toEqual([])
      expect(await service.status()).toEqual({ configured: false })
    })

    it('connect creates the schema, keeps the password in the keychain only, and status names the workstation', async () => {
      const service = new TeamSettingsService(dataDir, async () => keychain)
      expect(await service.test(settings(), PASSWORD)).toEqual({ schema: 'absent' })
      const st = await service.connect(settings(), PASSWORD)
      expect(st).toMatchObject({
        configured: true,
        member: 'alice',
        workstation: 'host-a',
        version: SCHEMA_VERSION,
        workstations: [{ member: 'alice', workstation: 'host-a' }],
      })
      expect(await keychain.get(teamPasswordKey(settings().connection))).toBe(PASSWORD)
      for (const f of readdirSync(dataDir)) expect(readFileSync(join(dataDir, f), 'utf8')).not.toContain(PASSWORD)
      // A later start reads the password from the keychain.
      expect(await new TeamSettingsService(dataDir, async () => keychain).status()).toMatchObject({
        configured: true,
        version: SCHEMA_VERSION,
      })
      await service.disconnect()
      expect(await keychain.get(teamPasswordKey(settings().connection))).toBeUndefined()
      expect(await service.status()).toEqual({ configured: false })
    })
  },
)
