/**
 * `hosting-admin acme` as certbot's manual hooks and lego's exec provider run it: the built
 * command as a process, the sandbox over loopback, the real keychain, and the zone's two
 * nameservers as authoritative servers on loopback (tests/helpers/authoritative-dns.ts, on
 * dns-packet), their names mapped to loopback for this test only. The second nameserver serves
 * the zone as it was at its last transfer, which the test makes happen when it chooses: the
 * command cannot finish before it, whatever the machine's speed.
 */
import { existsSync, mkdtempSync } from 'node:fs'
import { Resolver } from 'node:dns/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app-services'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import type { DomainRec } from '../../src/sandbox/state'
import { startAuthoritativeDns, txtInRecords, type AuthoritativeDns } from '../helpers/authoritative-dns'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { profileFor } from '../helpers/profile'
import { APP, routerCalls } from '../helpers/router-calls'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)

let sb: Sandbox
let outside: ApiClient
let dataDir: string
let accountId: string
let zone: DomainRec
let ns1: AuthoritativeDns
let ns2: AuthoritativeDns
/** The zone as the second nameserver last received it. */
let transferred = ''
let services: AppServices | undefined
const { ok } = routerCalls(() => services)

const liveRecords = () => {
  const f = nsFlavour(zone)
  return f === 'svc1' || f === 'svc11' ? zone.dns[f].records : ''
}
const transfer = () => {
  transferred = liveRecords()
}
const name = () => `_acme-challenge.${zone.domainname}`
const puts = () => sb.received.filter((r) => r.endpoint === 'domains.dns.set' && r.method === 'PUT').length

function acme(args: string[], env: NodeJS.ProcessEnv = {}, onErr?: (soFar: string) => void) {
  const map = `${zone.ns[0]}=${ns1.address},${zone.ns[1]}=${ns2.address}`
  return runCli(['acme', ...args, '--poll-every', '50ms', '--timeout', '60s'], { dataDir, env: { HOSTING_ADMIN_NS_ADDRESSES: map, ...env }, onErr })
}
/** Lets the second nameserver catch up once the first serves the value (the command is waiting by then). */
const transferWhenFirstServes = (soFar: string) => {
  if (soFar.includes(`${zone.ns[0]}: serves it`) && !soFar.includes(`${zone.ns[1]}: serves it`)) transfer()
}

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))('acme hooks (skipped: no D-Bus session; run through npm test)', () => {
  beforeAll(async () => {
    sb = await startSandbox({ domains: 6 })
    outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    zone = sb.state.domains.find((d) => nsFlavour(d) === 'svc1' || nsFlavour(d) === 'svc11')!
    // A zone of the service's own form, with a TXT of its own and no final newline.
    const { ns_type } = await outside.call('domains.dns.get', { domain: zone.domainname })
    await outside.call('domains.dns.set', { domain: zone.domainname, ns_type, ttl: 3600, records: 'a @ 192.0.2.1\nmx mail.example.net. 10\ntxt @ v=spf1 -all' })
    transfer()
    ns1 = await startAuthoritativeDns((n) => txtInRecords(liveRecords(), zone.domainname, n))
    ns2 = await startAuthoritativeDns((n) => txtInRecords(transferred, zone.domainname, n))
    dataDir = mkdtempSync(join(tmpdir(), 'cli-acme-'))
    services = await createAppServices({ userDataDir: dataDir, allowedOrigins: [APP], storeWorkerUrl: WORKER })
    ;({ id: accountId } = await ok('accounts.create', { fields: profileFor(sb, 'Certs'), apiKey: sb.keys.full, storage: 'keychain' }))
    await ok('accounts.setActive', { id: accountId })
    await services.close()
    services = undefined
  })
  afterAll(async () => {
    await services?.close()
    await Promise.all([ns1?.close(), ns2?.close()])
    await sb?.close()
  })

  it('certbot, a wildcard and its base name: two values at one name, each waited for on both nameservers; the cleanups leave the zone byte for byte', async () => {
    const before = liveRecords()
    const sent = puts()
    const first = await acme(['auth'], { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: 'token-for-wildcard-0123456789abcdefghijklmnopq' }, transferWhenFirstServes)
    expect(first.code).toBe(0)
    const lines = first.err.trim().split('\n')
    expect(lines[0]).toBe(`Added the TXT value at ${name()} to the zone ${zone.domainname}.`)
    expect(lines.slice(1, 3)).toEqual([`${zone.ns[0]}: waiting until it serves ${name()}…`, `${zone.ns[1]}: waiting until it serves ${name()}…`])
    expect(lines[3]).toMatch(new RegExp(`^${zone.ns[0]!.replace(/\./g, '\\.')}: serves it`))
    expect(lines[4]).toMatch(new RegExp(`^${zone.ns[1]!.replace(/\./g, '\\.')}: serves it`))
    // The second nameserver was asked before it had the value, and again after.
    expect(ns2.asked.filter((n) => n === name()).length).toBeGreaterThan(1)
    // The certificate's base name: a second value at the same name, the first kept.
    const second = await acme(['auth'], { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: 'token-for-base-name-0123456789abcdefghijklmnop' }, transferWhenFirstServes)
    expect(second.code).toBe(0)
    expect(puts()).toBe(sent + 2)
    const resolver = new Resolver()
    resolver.setServers([ns2.address])
    expect((await resolver.resolveTxt(name())).map((c) => c.join('')).sort()).toEqual(['token-for-base-name-0123456789abcdefghijklmnop', 'token-for-wildcard-0123456789abcdefghijklmnopq'])
    expect(liveRecords()).toBe(`${before}\ntxt _acme-challenge token-for-wildcard-0123456789abcdefghijklmnopq\ntxt _acme-challenge token-for-base-name-0123456789abcdefghijklmnop`)

    for (const value of ['token-for-wildcard-0123456789abcdefghijklmnopq', 'token-for-base-name-0123456789abcdefghijklmnop']) {
      const cleaned = await acme(['cleanup'], { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: value })
      expect(cleaned.code).toBe(0)
      expect(cleaned.err).toContain(`Removed the TXT value at ${name()}`)
    }
    expect(liveRecords()).toBe(before)
    expect(puts()).toBe(sent + 4)
  })

  it('lego: present and cleanup by FQDN; a value it did not add is never removed', async () => {
    const www = `_acme-challenge.www.${zone.domainname}`
    const { ns_type } = await outside.call('domains.dns.get', { domain: zone.domainname })
    await outside.call('domains.dns.set', { domain: zone.domainname, ns_type, ttl: 3600, records: `${liveRecords()}\ntxt _acme-challenge.www someone-elses-value` })
    transfer()
    const before = liveRecords()
    const sent = puts()
    const present = await acme(['present', `${www}.`, 'someone-elses-value'])
    expect(present.code).toBe(0)
    expect(present.err).toContain('already holds this value')
    expect(puts()).toBe(sent)
    const cleanup = await acme(['cleanup', `${www}.`, 'someone-elses-value'])
    expect(cleanup.code).toBe(0)
    expect(cleanup.err).toContain('was not added by "acme auth"; it is left in place')
    expect(liveRecords()).toBe(before)

    const added = await acme(['present', `${www}.`, 'lego-value-0123456789'], {}, transferWhenFirstServes)
    expect(added.code).toBe(0)
    expect(liveRecords()).toBe(`${before}\ntxt _acme-challenge.www lego-value-0123456789`)
    expect(await acme(['cleanup', `${www}.`, 'lego-value-0123456789', '--json'])).toMatchObject({ code: 0 })
    expect(liveRecords()).toBe(before)
  })

  it('a nameserver that never serves the value: exit 1 at the time-out, naming it; the value stays for the cleanup', async () => {
    const before = liveRecords()
    const r = await runCli(['acme', 'auth', '--poll-every', '50ms', '--timeout', '1s'], {
      dataDir,
      env: { HOSTING_ADMIN_NS_ADDRESSES: `${zone.ns[0]}=${ns1.address},${zone.ns[1]}=${ns2.address}`, CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: 'never-served-0123456789' },
    })
    expect(r.code).toBe(1)
    expect(r.err).toContain(`Not served after 1 s by: ${zone.ns[1]}.`)
    expect(liveRecords()).toContain('txt _acme-challenge never-served-0123456789')
    expect(await acme(['cleanup'], { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: 'never-served-0123456789' })).toMatchObject({ code: 0 })
    expect(liveRecords()).toBe(before)
  })

  it('a name none of the account’s domains holds: exit 2, nothing sent', async () => {
    const sent = puts()
    const r = await acme(['present', '_acme-challenge.not-ours.example', 'x'])
    expect(r.code).toBe(2)
    expect(r.err).toContain('None of the domains of Certs holds _acme-challenge.not-ours.example')
    expect(puts()).toBe(sent)
  })

  it('every save is in the app’s history, from the command line', async () => {
    services = await createAppServices({ userDataDir: dataDir, allowedOrigins: [APP], storeWorkerUrl: WORKER })
    const history = await ok('history.list', { accountId })
    const fromCli = history.filter((h) => h.purpose === 'cli' && h.subject === zone.domainname)
    expect(fromCli.length).toBe(8)
    await services.close()
    services = undefined
  })
})
