/**
 * The app's door for the command line (src/main/door/cli-server.ts), on real services and a real
 * socket: it answers only a client that shows the token of the data folder's lock file, and its
 * socket is the user's alone.
 */
import { statSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { currentHolder } from '../../src/main/base/data-lock'
import { APP, routerCalls } from '../helpers/router-calls'
import { startSandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { createApiClient } from '../../src/main/http'
import { sessionThroughApp } from '../../src/cli/app-door'
import type { Progress } from '@shared/ipc/contract'
import { profileFor } from '../../support/profile'
import { english } from '../helpers/english'
import { fromAppSchema } from '@shared/ipc/door-messages'

let services: AppServices
let dataDir: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cli-door-'))
  services = await createAppServices({
    userDataDir: dataDir,
    allowedOrigins: [APP],
    keychain: async () => new SessionSecretStore(),
  })
})
afterAll(async () => {
  await services.close()
})

/** Sends lines and collects what comes back until the server closes or `until` is seen. */
function exchange(
  socketPath: string,
  lines: object[],
  until?: (received: string[]) => boolean,
): Promise<{ received: string[]; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(socketPath)
    const received: string[] = []
    let buffered = ''
    let done = false
    const finish = (closedByServer: boolean) => {
      if (done) return
      done = true
      socket.destroy()
      resolve({ received, closedByServer })
    }
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      buffered += chunk
      const parts = buffered.split('\n')
      buffered = parts.pop() ?? ''
      received.push(...parts.filter(Boolean))
      if (until?.(received)) finish(false)
    })
    socket.on('close', () => finish(true))
    for (const l of lines) socket.write(`${JSON.stringify(l)}\n`)
  })
}

describe('the app’s door for the command line', () => {
  it('is written into the lock file with its token, and its socket is readable by the user only', async () => {
    const holder = await currentHolder(dataDir)
    expect(holder).toMatchObject({ who: 'app', pid: process.pid })
    expect(holder?.token).toMatch(/^[0-9a-f]{48}$/)
    expect(statSync(holder!.socket!).mode & 0o777).toBe(0o600)
    expect(statSync(join(dataDir, 'in-use.lock')).mode & 0o777).toBe(0o600)
  })

  it('hands a list read’s progress, through the door, to the call that asked for it', async () => {
    const many = await startSandbox({ domains: 450 })
    const { socket, token } = (await currentHolder(dataDir))!
    const session = await sessionThroughApp(socket!, token!)
    try {
      const created = await session.call('accounts.create', {
        fields: profileFor(many, 'Many'),
        apiKey: many.keys.full,
        storage: 'session',
      })
      if (!created.ok) throw new Error(english(created.error))
      const own: Progress[] = []
      const read = await session.call('all.domains.list', { accountId: created.value.id, callId: 'door-read' }, (p) =>
        own.push(p),
      )
      expect(read.ok && read.value.length).toBe(450)
      expect(own.length).toBeGreaterThan(1)
      expect(own.map((p) => p.callId)).toEqual(own.map(() => 'door-read'))
      expect(own.at(-1)).toMatchObject({ loadedItems: 450 })
      expect((await session.call('accounts.remove', { id: created.value.id })).ok).toBe(true)
    } finally {
      await session.close()
      await many.close()
    }
  })

  it('answers nothing without the token: a wrong one or a call first closes the connection', async () => {
    const { socket } = (await currentHolder(dataDir))!
    const wrong = await exchange(socket!, [
      { t: 'hello', token: 'f'.repeat(48) },
      { t: 'call', id: 1, channel: 'accounts.list', payload: {} },
    ])
    expect(wrong).toEqual({ received: [], closedByServer: true })
    const noHello = await exchange(socket!, [{ t: 'call', id: 1, channel: 'accounts.list', payload: {} }])
    expect(noHello).toEqual({ received: [], closedByServer: true })
  })

  it('with the token, runs calls through the app’s router, validated as the window’s are', async () => {
    const { socket, token } = (await currentHolder(dataDir))!
    const r = await exchange(
      socket!,
      [
        { t: 'hello', token },
        { t: 'call', id: 7, channel: 'accounts.list', payload: {} },
        { t: 'call', id: 8, channel: 'jobs.start', payload: { jobId: 'not-a-job' } },
      ],
      (got) => got.length >= 3,
    )
    const [welcome, ...answers] = r.received.map((l): unknown => JSON.parse(l))
    expect(welcome).toEqual({ t: 'welcome' })
    const byId = new Map(
      answers.map((a) => fromAppSchema.parse(a)).flatMap((m) => (m.t === 'result' ? [[m.id, m.result] as const] : [])),
    )
    expect(byId.get(7)).toMatchObject({ ok: true, value: { accounts: [{ id: 'demo' }] } })
    expect(byId.get(8)).toMatchObject({ ok: false, error: { code: 'ipc.invalidPayload' } })
  })

  it('sends the command’s dynamic DNS update itself and records it as answered; no caller can record an update that was not sent', async () => {
    const sb = await startSandbox({ domains: 3 })
    try {
      const outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      const domain = sb.state.domains.filter((d) => nsFlavour(d) !== 'registrar')[0]!.domainname
      const { ns_type } = await outside.call('domains.dns.get', { domain })
      await outside.call('domains.dns.set', { domain, ns_type, records: 'a www 192.0.2.1', ttl: 3600 })
      await outside.call('domains.dynamicdns.set', { domain, dynamicdns: 1, password: 'door-ddns-pass-1' })
      const window = routerCalls(() => services)
      const made = await window.ok('accounts.create', {
        fields: { ...profileFor(sb, 'DDNS'), ddnsUrl: `${new URL(sb.url).origin}/cgi-bin/dyn.fcg` },
        apiKey: sb.keys.full,
        storage: 'session',
      })
      const update = { accountId: made.id, domain, host: 'www', ip: '192.0.2.7' }
      // The window's sender may not ask for one.
      expect(await window.call('ddns.send', { ...update, ip: '192.0.2.66' })).toMatchObject({
        ok: false,
        error: { kind: 'forbidden', code: 'ipc.foreignSender' },
      })
      const { socket, token } = (await currentHolder(dataDir))!
      // A door client has no channel to write a history row of its own any more.
      const forged = await exchange(
        socket!,
        [
          { t: 'hello', token },
          { t: 'call', id: 3, channel: 'history.recordDdns', payload: { ...update, ok: true } },
        ],
        (got) => got.length >= 2,
      )
      expect(forged.received[1]).toContain('ipc.unknownChannel')
      const session = await sessionThroughApp(socket!, token!)
      try {
        expect(await session.call('ddns.send', update)).toEqual({ ok: true, value: { ok: true, status: 0 } })
        // Answered by the service: no record for this host (status 8), recorded as failed.
        expect(await session.call('ddns.send', { ...update, host: 'nothere', ip: '192.0.2.9' })).toMatchObject({
          ok: true,
          value: { ok: false, status: 8 },
        })
        // Validated as every payload is: not an address, nothing sent or recorded.
        expect(await session.call('ddns.send', { ...update, ip: 'not-an-ip' })).toMatchObject({
          ok: false,
          error: { kind: 'validation' },
        })
      } finally {
        await session.close()
      }
      expect(sb.received.filter((r) => r.path === '/cgi-bin/dyn.fcg' && r.query.d === domain)).toHaveLength(2)
      expect((await outside.call('domains.dns.get', { domain })).records).toMatch(/^a www 192\.0\.2\.7$/m)
      const recorded = (await window.ok('history.list', { accountId: made.id })).filter(
        (h) => h.operation === 'ddns.update',
      )
      expect(recorded.map((h) => [h.outcome, h.after])).toEqual([
        ['failed', { host: 'nothere', ip: '192.0.2.9' }],
        ['done', { host: 'www', ip: '192.0.2.7' }],
      ])
    } finally {
      await sb.close()
    }
  })

  it('refuses to quit the app for a door client: quitting while writes run answers the window’s own question', async () => {
    const { socket, token } = (await currentHolder(dataDir))!
    const session = await sessionThroughApp(socket!, token!)
    try {
      expect(await session.call('app.quit', {})).toMatchObject({
        ok: false,
        error: { kind: 'forbidden', code: 'ipc.foreignSender' },
      })
    } finally {
      await session.close()
    }
  })
})
