/**
 * The real ACME clients administrators run, none of them written here, issuing a certificate for a
 * name and its wildcard through `hosting-admin acme`: Debian's certbot (manual hooks) and lego
 * (exec provider) against pebble, Let's Encrypt's test CA, whose DNS-01 validation asks an
 * authoritative nameserver on loopback that serves the sandbox's zone as the service holds it at
 * that moment (support/loopback-dns.ts). A certificate exists only if the hooks put the
 * right values where the CA looked. Everything runs on loopback; the zone's nameservers are mapped
 * to that server for the hooks' own propagation wait (HOSTING_ADMIN_NS_ADDRESSES, passed by the
 * clients to their hooks). Each run is done with the app's door open (the app's services running
 * on the data folder in this process) and closed, two runs at once, and with no D-Bus session.
 *
 * `scripts/setup.sh --test` installs certbot, lego, pebble and openssl, so CI always runs this;
 * it skips only where they are missing.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { X509Certificate } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { createApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import type { DomainRec } from '../../src/sandbox/state'
import {
  certbotIssue,
  killClients,
  legoIssue,
  namesCovered,
  type ClientRun,
  type HookOptions,
  type Issued,
} from '../helpers/acme-clients'
import { startZoneDns, type LoopbackDns, type ServedZone } from '../../support/loopback-dns'
import { onPath, startPebble, type Pebble } from '../helpers/pebble'
import { APP, routerCalls } from '../helpers/router-calls'
import { BUILT_STORE_WORKER, setUpAccount } from '../helpers/cli-account'

const missing = ['certbot', 'lego', 'pebble', 'openssl'].filter((p) => !onPath(p))
const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const skipReason =
  missing.length > 0
    ? `skipped: ${missing.join(', ')} not installed (bash scripts/setup.sh --test installs them)`
    : !hasSecretService
      ? 'skipped: no D-Bus session for the keychain; run through npm test or /work/keyring-run.sh'
      : 'certbot, lego and pebble installed'
/** Each client run is killed after this long; one takes a few seconds. */
const RUN_LIMIT_MS = 90_000

let sb: Sandbox
let dns: LoopbackDns
let pebble: Pebble
let dataDir: string
let keyDir: string
let keyFile: string
let zone: DomainRec
let services: AppServices | undefined
const { ok } = routerCalls(() => services)
const issued: Issued[] = []
/** Every certbot run of this file, for the check of what certbot shows of the hooks' stderr. */
const certbotRuns: ClientRun[] = []

const isServiceDns = (d: DomainRec) => nsFlavour(d) === 'svc1' || nsFlavour(d) === 'svc11'
/** The zone's records text at the sandbox now ('' for a domain the service's DNS does not serve). */
const recordsOf = (d: DomainRec) => {
  const f = nsFlavour(d)
  return f === 'svc1' || f === 'svc11' ? d.dns[f].records : ''
}
/** What the service holds now, read from the sandbox's state at each question (never a copy). */
const servedZones = (): ServedZone[] =>
  sb.state.domains.filter(isServiceDns).map((d) => ({ domain: d.domainname, ns: d.ns, records: recordsOf(d) }))
const liveRecords = () => recordsOf(sb.state.domains.find((d) => d.domainname === zone.domainname)!)
const puts = () => sb.received.filter((r) => r.endpoint === 'domains.dns.set' && r.method === 'PUT').length
const zoneReads = () => sb.received.filter((r) => r.endpoint === 'domains.dns.get' && r.status !== 0).length
const logReads = () => sb.received.filter((r) => r.endpoint === 'logs.list').length

/**
 * The hooks' options: the account, the data folder, a short poll, a bounded wait (long enough for
 * a hook that finds its zone busy to wait its turn behind a save held 15 s); the nameservers on
 * loopback.
 */
function hooks(extra: { cliArgs?: string[]; env?: NodeJS.ProcessEnv; dropEnv?: string[] } = {}): HookOptions {
  return {
    cliArgs: [
      '--account',
      'Certs',
      '--data-dir',
      dataDir,
      '--poll-every',
      '50ms',
      '--timeout',
      '60s',
      ...(extra.cliArgs ?? []),
    ],
    env: { HOSTING_ADMIN_NS_ADDRESSES: zone.ns.map((ns) => `${ns}=${dns.address}`).join(','), ...extra.env },
    dropEnv: extra.dropEnv,
    limitMs: RUN_LIMIT_MS,
  }
}

/** The environment of a cron job or a systemd unit: no desktop session, so no Secret Service. */
const NO_DBUS = ['DBUS_SESSION_BUS_ADDRESS']

/** Opens the app's services on the data folder: its door is then open to the hooks. */
async function openApp(): Promise<void> {
  services = await createAppServices({
    userDataDir: dataDir,
    allowedOrigins: [APP],
    storeWorkerUrl: BUILT_STORE_WORKER,
  })
}
/** The zone saves the open app has run (with its door open, the hooks' saves are the app's jobs). */
const appZoneSaves = async () => (await ok('jobs.list', {})).filter((j) => j.operation === 'domains.dns.set').length
async function closeApp(): Promise<void> {
  await services?.close()
  services = undefined
}

/** The certificate a run got covers exactly `names` and was issued by pebble's CA as it is now. */
async function expectCertificateFor(result: Issued, names: string[]): Promise<void> {
  expect(result.run.timedOut, result.run.output).toBe(false)
  expect(result.run.code, result.run.output).toBe(0)
  expect(result.certificateFile, result.run.output).toBeDefined()
  const { names: covered, certificate } = namesCovered(result.certificateFile!)
  expect(covered).toEqual([...names].sort())
  const intermediate = new X509Certificate(await pebble.intermediate())
  expect(certificate.checkIssued(intermediate)).toBe(true)
  expect(certificate.verify(intermediate.publicKey)).toBe(true)
}

/** A client's run, its folder removed in afterAll whatever the test's outcome. */
function kept<T extends Issued>(run: T): T {
  issued.push(run)
  return run
}

describe.skipIf(missing.length > 0 || !hasSecretService)(
  `real certbot and lego through the hooks (${skipReason})`,
  () => {
    beforeAll(async () => {
      sb = await startSandbox({ domains: 6 })
      zone = sb.state.domains.find(isServiceDns)!
      // A zone of the service's own form, with a TXT of its own and no final newline.
      const outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      const { ns_type } = await outside.call('domains.dns.get', { domain: zone.domainname })
      await outside.call('domains.dns.set', {
        domain: zone.domainname,
        ns_type,
        ttl: 3600,
        records: 'a @ 192.0.2.1\nmx mail.example.net. 10\ntxt @ v=spf1 -all',
      })
      dns = await startZoneDns(servedZones)
      pebble = await startPebble({ dnsServer: dns.address })
      dataDir = mkdtempSync(join(tmpdir(), 'real-acme-'))
      await setUpAccount(sb, dataDir, 'Certs')
      // The key as an unattended run reads it: a file only the user can read.
      keyDir = mkdtempSync(join(tmpdir(), 'real-acme-key-'))
      keyFile = join(keyDir, 'hosting-admin.key')
      writeFileSync(keyFile, `${sb.keys.full}\n`, { mode: 0o600 })
      chmodSync(keyFile, 0o600)
    }, 60_000)

    afterEach(async () => {
      await closeApp()
      sb.faults.clear()
    })

    afterAll(async () => {
      killClients()
      await closeApp()
      await pebble?.close()
      await dns?.close()
      await sb?.close()
      for (const r of issued) r.remove()
      for (const dir of [dataDir, keyDir]) if (dir) rmSync(dir, { recursive: true, force: true })
    })

    const base = () => zone.domainname
    const wildcard = () => `*.${zone.domainname}`

    for (const door of ['closed', 'open'] as const) {
      it(`certbot: a name and its wildcard, the app's door ${door}; the zone byte for byte after the cleanups`, async () => {
        if (door === 'open') await openApp()
        const appSavesBefore = door === 'open' ? await appZoneSaves() : 0
        const before = liveRecords()
        const sent = puts()
        const r = kept(await certbotIssue(pebble, [base(), wildcard()], hooks()))
        certbotRuns.push(r.run)
        await expectCertificateFor(r, [base(), wildcard()])
        // Two values added and two removed, each by one save.
        expect(puts() - sent).toBe(4)
        if (door === 'open') expect((await appZoneSaves()) - appSavesBefore).toBe(4)
        expect(liveRecords()).toBe(before)
      }, 120_000)

      it(`lego: a name and its wildcard through the exec provider, the app's door ${door}; the zone byte for byte after the cleanups`, async () => {
        if (door === 'open') await openApp()
        const appSavesBefore = door === 'open' ? await appZoneSaves() : 0
        const before = liveRecords()
        const sent = puts()
        const r = kept(await legoIssue(pebble, [base(), wildcard()], dns.address, hooks()))
        await expectCertificateFor(r, [base(), wildcard()])
        expect(puts() - sent).toBe(4)
        if (door === 'open') expect((await appZoneSaves()) - appSavesBefore).toBe(4)
        expect(liveRecords()).toBe(before)
      }, 120_000)

      // depends on point 4: until it is merged, the second hook to write fails with exit 1,
      // "already on its way" with the app open, "Another process … is using the data folder" with
      // it closed; certbot then asks the CA anyway and gets no certificate for that name.
      it(`two certbot runs at once, two names in one zone, the app's door ${door}: both issued, the zone byte for byte`, async () => {
        if (door === 'open') await openApp()
        const before = liveRecords()
        const names = [`one.${zone.domainname}`, `two.${zone.domainname}`]
        // The first save is held until the other hook is about to write too, so that the two
        // writes meet whatever the machine's speed. A hook reads the zone, then its write reads the
        // service's log and the zone again before the save: the held save has had two zone reads
        // and one log read; a third zone read and a second log read are the other hook's (answers
        // are recorded as they are sent). With the app closed, the other hook cannot read before the
        // first lets the data folder go, so 15 s (less than the account's 30 s request time-out and
        // the hooks' 60 s --timeout) let the save go, as does a run that ends.
        const zoneReadsBefore = zoneReads()
        const logReadsBefore = logReads()
        sb.faults.inject('domains.dns.set', { hold: true, times: 1 })
        let ended = 0
        const runs = Promise.all(
          names.map((n) =>
            certbotIssue(pebble, [n], hooks())
              .then(kept)
              .finally(() => (ended += 1)),
          ),
        )
        const otherAboutToWrite = () =>
          sb.faults.held('domains.dns.set') === 1 &&
          zoneReads() - zoneReadsBefore >= 3 &&
          logReads() - logReadsBefore >= 2
        const since = Date.now()
        while (Date.now() - since < 15_000 && ended === 0 && !otherAboutToWrite())
          await new Promise((go) => setTimeout(go, 20))
        sb.faults.release()
        const results = await runs
        for (const r of results) certbotRuns.push(r.run)
        for (const [i, r] of results.entries()) await expectCertificateFor(r, [names[i]!])
        expect(liveRecords()).toBe(before)
      }, 150_000)
    }

    // depends on point 1: until it is merged, the hooks stop with exit 2 "unknown option --key-file".
    it('certbot with no D-Bus session at all (as cron or a systemd timer runs it), the key from a 0600 key file: issued, the zone byte for byte', async () => {
      const before = liveRecords()
      const r = kept(
        await certbotIssue(pebble, [base(), wildcard()], hooks({ cliArgs: ['--key-file', keyFile], dropEnv: NO_DBUS })),
      )
      certbotRuns.push(r.run)
      await expectCertificateFor(r, [base(), wildcard()])
      expect(liveRecords()).toBe(before)
    }, 120_000)

    // depends on point 1: until it is merged, the hooks ignore HOSTING_ADMIN_KEY_FILE and stop at
    // the missing Secret Service (exit 1).
    it('lego with no D-Bus session at all, the key file named by HOSTING_ADMIN_KEY_FILE: issued, the zone byte for byte', async () => {
      const before = liveRecords()
      const r = kept(
        await legoIssue(
          pebble,
          [base(), wildcard()],
          dns.address,
          hooks({ env: { HOSTING_ADMIN_KEY_FILE: keyFile }, dropEnv: NO_DBUS }),
        ),
      )
      await expectCertificateFor(r, [base(), wildcard()])
      expect(liveRecords()).toBe(before)
    }, 120_000)

    // depends on point 7: until it is merged, the hooks' progress lines on stderr are reported by
    // certbot as "ran with error output".
    it('certbot shows no error output of a successful hook in any run above', () => {
      expect(certbotRuns.length).toBeGreaterThan(0)
      const reported: string[] = []
      for (const run of certbotRuns) {
        // certbot says "Hook '<option>' for <name> ran with error output:" for any stderr, and
        // "… reported error code N" before it when the hook failed.
        for (const m of run.output.matchAll(/^Hook '([^']+)' for (\S+) ran with error output:\n(.*)$/gm)) {
          if (!run.output.includes(`Hook '${m[1]}' for ${m[2]} reported error code`))
            reported.push(`${m[1]} for ${m[2]}: ${m[3]}`)
        }
      }
      expect(reported).toEqual([])
    })
  },
)
