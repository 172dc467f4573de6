/**
 * The Team section's IPC channels (issue 37 point 1) through the real router of the app's
 * services, a real PostgreSQL that asks for a password (scram-sha-256) and the real keychain:
 * only the app's page may call them, a malformed form is refused before anything is tried, the
 * password goes in once and is in no answer and no file of the data folder, and the status names
 * this workstation. Runs inside a D-Bus session with an unlocked keyring (npm test, /work/keyring-run.sh).
 */
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KeytarSecretStore, loadKeytar, type SecretStore } from '../../src/main/accounts/secret-store'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SCHEMA_VERSION } from '../../src/main/team/schema'
import { teamPasswordKey } from '../../src/main/team/team-settings'
import type { Progress } from '@shared/ipc/contract'
import { english } from '../helpers/english'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { match } from '../helpers/matchers'

const APP = 'app://app'
const sender = (url = `${APP}/index.html`) => ({
  url,
  key: 'page',
  sendProgress: (_p: Progress) => undefined,
  sendJob: () => true,
})
const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const PASSWORD = `team-ipc-pw-${randomUUID()}`

/** Every file under a folder, as text (the data folder is small: accounts, team.json, the store, the log). */
function everyFileText(dir: string): string {
  let out = ''
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    const st = statSync(path)
    // Regular files only: the data folder holds the command line's socket too.
    if (st.isDirectory()) out += everyFileText(path)
    else if (st.isFile()) out += readFileSync(path, 'latin1')
  }
  return out
}

describe.skipIf(!hasSecretService)('team.* channels (skipped: no D-Bus session; run through npm test)', () => {
  let db: TestPostgres
  let dataDir: string
  let keychain: SecretStore
  let services: AppServices
  beforeAll(async () => {
    db = await startTestPostgres({ password: PASSWORD })
    dataDir = mkdtempSync(join(tmpdir(), 'team-ipc-'))
    keychain = new KeytarSecretStore(await loadKeytar(), `hosting-admin-test-team-ipc-${randomUUID()}`)
    services = await createAppServices({
      userDataDir: dataDir,
      allowedOrigins: [APP],
      keychain: async () => keychain,
      cliDoor: false,
    })
  }, 60_000)
  afterAll(async () => {
    await services?.close()
    if (db) await keychain?.delete(teamPasswordKey(conn())).catch(() => undefined)
    db?.remove()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  const conn = () => ({
    host: db.host,
    port: db.port,
    database: db.database,
    user: db.user,
    sslmode: 'disable' as const,
  })
  const form = (password?: string) => ({
    connection: conn(),
    member: 'alice',
    workstation: 'host-a',
    ...(password !== undefined ? { password } : {}),
  })
  const dispatch = (channel: string, payload: unknown, from = sender()) =>
    services.router.dispatch(channel, payload, from)

  it('a page of another origin is refused on every team channel, and nothing is connected', async () => {
    for (const channel of ['team.test', 'team.connect', 'team.status', 'team.disconnect']) {
      expect(await dispatch(channel, form(PASSWORD), sender('https://evil.example.com/'))).toEqual({
        ok: false,
        error: { kind: 'forbidden', code: 'ipc.foreignSender' },
      })
    }
    expect(existsSync(join(dataDir, 'team.json'))).toBe(false)
    expect(await keychain.get(teamPasswordKey(conn()))).toBeUndefined()
  })

  it('a malformed form is refused before the database is tried: the fields concerned, no password in the answer', async () => {
    const bad = { ...form(PASSWORD), connection: { ...form().connection, port: '5432', sslmode: 'prefer' } }
    const r = await dispatch('team.connect', bad)
    expect(r).toMatchObject({ ok: false, error: { kind: 'validation', code: 'ipc.invalidPayload' } })
    const paths = r.ok ? [] : (r.error.issues ?? []).map((i) => i.path)
    expect(paths).toEqual(expect.arrayContaining(['connection.port', 'connection.sslmode']))
    expect(JSON.stringify(r)).not.toContain(PASSWORD)
    expect(await dispatch('team.test', { ...form(), member: '' })).toMatchObject({
      ok: false,
      error: { code: 'ipc.invalidPayload', issues: [{ path: 'member', code: 'field.required' }] },
    })
    expect(existsSync(join(dataDir, 'team.json'))).toBe(false)
  })

  it('before connecting: not configured, with this machine’s names offered', async () => {
    const r = await dispatch('team.status', {})
    expect(r).toMatchObject({
      ok: true,
      value: { configured: false, defaults: { member: match.any(String), workstation: match.any(String) } },
    })
  })

  it('a wrong password is said as the database refusing, in words; nothing is kept', async () => {
    const wrong = `wrong-${randomUUID()}`
    for (const channel of ['team.test', 'team.connect']) {
      const r = await dispatch(channel, form(wrong))
      expect(r).toMatchObject({
        ok: false,
        error: { kind: 'team-database', code: 'team.passwordRefused', params: { user: db.user } },
      })
      if (!r.ok) expect(english(r.error)).toMatch(/did not accept the password of user postgres/)
      expect(JSON.stringify(r)).not.toContain(wrong)
    }
    expect(existsSync(join(dataDir, 'team.json'))).toBe(false)
  })

  it('test, connect, status, disconnect: the password kept in the keychain only, never answered', async () => {
    const answers: unknown[] = []
    const call = async (channel: string, payload: unknown) => {
      const r = await dispatch(channel, payload)
      answers.push(r)
      return r
    }
    expect(await call('team.test', form(PASSWORD))).toEqual({ ok: true, value: { schema: 'absent' } })
    const connected = await call('team.connect', form(PASSWORD))
    expect(connected).toMatchObject({
      ok: true,
      value: {
        configured: true,
        member: 'alice',
        workstation: 'host-a',
        version: SCHEMA_VERSION,
        where: `${db.database}@${db.host}:${db.port}`,
        workstations: [{ member: 'alice', workstation: 'host-a' }],
      },
    })
    expect(await call('team.test', form(PASSWORD))).toEqual({
      ok: true,
      value: { schema: 'current', version: SCHEMA_VERSION },
    })
    // The status reads the password from the keychain: the form sends it no more.
    expect(await call('team.status', {})).toMatchObject({
      ok: true,
      value: { configured: true, workstation: 'host-a', version: SCHEMA_VERSION },
    })
    expect(await keychain.get(teamPasswordKey(conn()))).toBe(PASSWORD)
    expect(JSON.parse(readFileSync(join(dataDir, 'team.json'), 'utf8'))).toMatchObject({
      member: 'alice',
      workstation: 'host-a',
      connection: { host: db.host, port: db.port },
    })
    expect(everyFileText(dataDir)).not.toContain(PASSWORD)

    expect(await call('team.disconnect', {})).toMatchObject({ ok: true, value: { configured: false } })
    expect(existsSync(join(dataDir, 'team.json'))).toBe(false)
    expect(await keychain.get(teamPasswordKey(conn()))).toBeUndefined()
    expect(await call('team.status', {})).toMatchObject({ ok: true, value: { configured: false } })
    expect(JSON.stringify(answers)).not.toContain(PASSWORD)
  })

  it('the database away is said as unreachable', async () => {
    db.stopServer()
    try {
      const r = await dispatch('team.test', form(PASSWORD))
      expect(r).toMatchObject({ ok: false, error: { kind: 'team-unreachable', code: 'team.unreachable' } })
    } finally {
      db.startServer()
    }
  })
})
