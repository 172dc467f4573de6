/**
 * `hosting-admin acme` as certbot's manual hooks and lego's exec provider run it: the built
 * command as a process, the sandbox over loopback, the real keychain, and the zone's two
 * nameservers as authoritative servers on loopback (support/loopback-dns.ts, on
 * dns-packet), their names mapped to loopback for this test only. The second nameserver serves
 * the zone as it was at its last transfer, which the test makes happen when it chooses: the
 * command cannot finish before it, whatever the machine's speed.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync } from 'node:fs'
import { Resolver } from 'node:dns/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { readdirSync, rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { LIVE_RATE_LIMIT, scaledRateLimit, startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import type { DomainRec } from '../../src/sandbox/state'
import { noteAdded } from '../../src/cli/acme-ledger'
import { startAuthoritativeDns, txtInRecords, type LoopbackDns } from '../../support/loopback-dns'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { APP, routerCalls } from '../helpers/router-calls'
import { BUILT_STORE_WORKER, setUpAccount } from '../helpers/cli-account'
import { recordWaits } from '../helpers/asked-waits'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)

let sb: Sandbox
let outside: ApiClient
let dataDir: string
let accountId: string
let zone: DomainRec
let ns1: LoopbackDns
let ns2: LoopbackDns
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

/** A DNS-01 validation value as a CA makes it: base64url of a SHA-256 digest, 43 characters. */
const valueOf = (seed: string) => createHash('sha256').update(seed).digest('base64url')

/** A hook as certbot or lego runs it; `onOut` sees its progress (stdout) as it comes. */
function acme(args: string[], env: NodeJS.ProcessEnv = {}, onOut?: (soFar: string) => void) {
  const map = `${zone.ns[0]}=${ns1.address},${zone.ns[1]}=${ns2.address}`
  return runCli(['acme', ...args, '--poll-every', '50ms', '--timeout', '60s'], {
    dataDir,
    env: { HOSTING_ADMIN_NS_ADDRESSES: map, ...env },
    ...(onOut ? { onOut } : {}),
  })
}
/** Lets the second nameserver catch up once the first serves the value (the command is waiting by then). */
const transferWhenFirstServes = (soFar: string) => {
  if (soFar.includes(`${zone.ns[0]}: serves it`) && !soFar.includes(`${zone.ns[1]}: serves it`)) transfer()
}

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
  'acme hooks (skipped: no D-Bus session; run through npm test)',
  () => {
    beforeAll(async () => {
      sb = await startSandbox({ domains: 6 })
      outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      zone = sb.state.domains.find((d) => nsFlavour(d) === 'svc1' || nsFlavour(d) === 'svc11')!
      // A zone of the service's own form, with a TXT of its own and no final newline.
      const { ns_type } = await outside.call('domains.dns.get', { domain: zone.domainname })
      await outside.call('domains.dns.set', {
        domain: zone.domainname,
        ns_type,
        ttl: 3600,
        records: 'a @ 192.0.2.1\nmx mail.example.net. 10\ntxt @ v=spf1 -all',
      })
      transfer()
      ns1 = await startAuthoritativeDns((n) => txtInRecords(liveRecords(), zone.domainname, n))
      ns2 = await startAuthoritativeDns((n) => txtInRecords(transferred, zone.domainname, n))
      dataDir = mkdtempSync(join(tmpdir(), 'cli-acme-'))
      accountId = await setUpAccount(sb, dataDir, 'Certs')
    })
    afterAll(async () => {
      await services?.close()
      await Promise.all([ns1?.close(), ns2?.close()])
      await sb?.close()
    })

    it('certbot, a wildcard and its base name: two values at one name, each waited for on both nameservers; the cleanups leave the zone byte for byte', async () => {
      const [WILDCARD, BASE] = [valueOf('wildcard'), valueOf('base name')]
      const before = liveRecords()
      const sent = puts()
      const first = await acme(
        ['auth'],
        { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: WILDCARD },
        transferWhenFirstServes,
      )
      expect(first.code).toBe(0)
      // certbot shows a successful hook's stderr as "error output": there is none; its progress is on stdout.
      expect(first.err).toBe('')
      const lines = first.out.trim().split('\n')
      expect(lines[0]).toBe(`Added the TXT value at ${name()} to the zone ${zone.domainname}.`)
      expect(lines.slice(1, 3)).toEqual([
        `${zone.ns[0]}: waiting until it serves ${name()}…`,
        `${zone.ns[1]}: waiting until it serves ${name()}…`,
      ])
      expect(lines[3]).toMatch(new RegExp(`^${zone.ns[0]!.replace(/\./g, '\\.')}: serves it`))
      expect(lines[4]).toMatch(new RegExp(`^${zone.ns[1]!.replace(/\./g, '\\.')}: serves it`))
      // The second nameserver was asked before it had the value, and again after.
      expect(ns2.asked.filter((n) => n === name()).length).toBeGreaterThan(1)
      // The certificate's base name: a second value at the same name, the first kept.
      const second = await acme(
        ['auth'],
        { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: BASE },
        transferWhenFirstServes,
      )
      expect(second.code).toBe(0)
      expect(second.err).toBe('')
      expect(puts()).toBe(sent + 2)
      const resolver = new Resolver()
      resolver.setServers([ns2.address])
      expect((await resolver.resolveTxt(name())).map((c) => c.join('')).sort()).toEqual([BASE, WILDCARD].sort())
      expect(liveRecords()).toBe(`${before}\ntxt _acme-challenge ${WILDCARD}\ntxt _acme-challenge ${BASE}`)

      for (const value of [WILDCARD, BASE]) {
        const cleaned = await acme(['cleanup'], { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: value })
        expect(cleaned.code).toBe(0)
        expect(cleaned.err).toBe('')
        expect(cleaned.out).toContain(`Removed the TXT value at ${name()}`)
      }
      expect(liveRecords()).toBe(before)
      expect(puts()).toBe(sent + 4)
    })

    it('lego: present and cleanup by FQDN; a value it did not add is never removed', async () => {
      const www = `_acme-challenge.www.${zone.domainname}`
      const [elses, mine] = [valueOf('someone else'), valueOf('lego')]
      const { ns_type } = await outside.call('domains.dns.get', { domain: zone.domainname })
      await outside.call('domains.dns.set', {
        domain: zone.domainname,
        ns_type,
        ttl: 3600,
        records: `${liveRecords()}\ntxt _acme-challenge.www ${elses}`,
      })
      transfer()
      const before = liveRecords()
      const sent = puts()
      const present = await acme(['present', `${www}.`, elses])
      expect(present.code).toBe(0)
      expect(present.out).toContain('already holds this value')
      expect(puts()).toBe(sent)
      const cleanup = await acme(['cleanup', `${www}.`, elses])
      expect(cleanup.code).toBe(0)
      expect(cleanup.out).toContain('was not added by "acme auth"; it is left in place')
      expect(liveRecords()).toBe(before)

      const added = await acme(['present', `${www}.`, mine], {}, transferWhenFirstServes)
      expect(added.code).toBe(0)
      expect(liveRecords()).toBe(`${before}\ntxt _acme-challenge.www ${mine}`)
      expect(await acme(['cleanup', `${www}.`, mine, '--json'])).toMatchObject({ code: 0 })
      expect(liveRecords()).toBe(before)
    })

    it('a nameserver that never serves the value: exit 1 at the time-out, naming it; the value stays for the cleanup', async () => {
      const never = valueOf('never served')
      const before = liveRecords()
      const r = await runCli(['acme', 'auth', '--poll-every', '50ms', '--timeout', '1s'], {
        dataDir,
        env: {
          HOSTING_ADMIN_NS_ADDRESSES: `${zone.ns[0]}=${ns1.address},${zone.ns[1]}=${ns2.address}`,
          CERTBOT_DOMAIN: zone.domainname,
          CERTBOT_VALIDATION: never,
        },
      })
      expect(r.code).toBe(1)
      expect(r.err).toContain(`Not served after 1 s by: ${zone.ns[1]}.`)
      expect(liveRecords()).toContain(`txt _acme-challenge ${never}`)
      expect(await acme(['cleanup'], { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: never })).toMatchObject({
        code: 0,
      })
      expect(liveRecords()).toBe(before)
    })

    it('a name none of the account’s domains holds: exit 2, nothing sent', async () => {
      const sent = puts()
      const r = await acme(['present', '_acme-challenge.not-ours.example', valueOf('not ours')])
      expect(r.code).toBe(2)
      expect(r.err).toContain('None of the domains of Certs holds _acme-challenge.not-ours.example')
      expect(puts()).toBe(sent)
    })

    it('every save is in the app’s history, from the command line', async () => {
      services = await createAppServices({
        userDataDir: dataDir,
        allowedOrigins: [APP],
        storeWorkerUrl: BUILT_STORE_WORKER,
      })
      const history = await ok('history.list', { accountId })
      const fromCli = history.filter((h) => h.purpose === 'cli' && h.subject === zone.domainname)
      expect(fromCli.length).toBe(8)
      await services.close()
      services = undefined
    })

    it('refuses a name that is not a host name and a value that is not a validation value, newline or not: exit 2, nothing sent, in English and Japanese', async () => {
      const before = liveRecords()
      const sent = puts()
      const injected = `${valueOf('injected')}\ntxt @ injected-by-a-newline`
      const cases: { args: string[]; env?: NodeJS.ProcessEnv; says: string }[] = [
        {
          args: ['auth'],
          env: { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: injected },
          says: 'not a DNS-01 validation value',
        },
        {
          args: ['auth'],
          env: { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: 'short' },
          says: 'not a DNS-01 validation value',
        },
        {
          args: ['auth'],
          env: { CERTBOT_DOMAIN: `${zone.domainname}\ntxt @ injected`, CERTBOT_VALIDATION: valueOf('a') },
          says: 'Not a host name: "',
        },
        { args: ['present', `_acme-challenge.${zone.domainname}.`, injected], says: 'not a DNS-01 validation value' },
        { args: ['present', `_acme-challenge www.${zone.domainname}.`, valueOf('b')], says: 'Not a host name' },
        { args: ['cleanup', `_acme-challenge.${zone.domainname}\n`, valueOf('c')], says: 'Not a host name' },
      ]
      for (const k of cases) {
        const r = await acme(k.args, k.env)
        expect(r.code, k.says).toBe(2)
        expect(r.err).toContain(k.says)
      }
      // lego's raw mode: a key authorization that is not the token's.
      const raw = await runCli(
        ['acme', 'present', '--', zone.domainname, 'tokenA', `tokenB.${valueOf('thumbprint')}`],
        { dataDir },
      )
      expect(raw.code).toBe(2)
      expect(raw.err).toContain('raw mode')
      const ja = await acme(['auth'], {
        LANG: 'ja_JP.UTF-8',
        CERTBOT_DOMAIN: `${zone.domainname}\ntxt @ x`,
        CERTBOT_VALIDATION: valueOf('a'),
      })
      expect(ja.code).toBe(2)
      expect(ja.err).toContain('ホスト名ではありません')
      expect(puts()).toBe(sent)
      expect(liveRecords()).toBe(before)
    })

    it('lego’s raw mode (EXEC_MODE=RAW): domain, token and key authorization; the value is computed as lego computes it', async () => {
      const before = liveRecords()
      const token = 'evaGxfADs6pSRb2LAv9IZf17Dt3juxGJ-PCt92wr-oA'
      const keyAuthorization = `${token}.${valueOf('account key thumbprint')}`
      const value = createHash('sha256').update(keyAuthorization).digest('base64url')
      // As lego runs it: the options before the `--` (docs/command-line.md's wrapper puts them there).
      const raw = (verb: string) => [
        '--poll-every',
        '50ms',
        '--timeout',
        '60s',
        'acme',
        verb,
        '--',
        zone.domainname,
        token,
        keyAuthorization,
      ]
      const env = { HOSTING_ADMIN_NS_ADDRESSES: `${zone.ns[0]}=${ns1.address},${zone.ns[1]}=${ns2.address}` }
      const present = await runCli(raw('present'), { dataDir, env, onOut: transferWhenFirstServes })
      expect(present).toMatchObject({ code: 0, err: '' })
      expect(liveRecords()).toBe(`${before}\ntxt _acme-challenge ${value}`)
      expect(await runCli(raw('cleanup'), { dataDir, env })).toMatchObject({ code: 0, err: '' })
      expect(liveRecords()).toBe(before)
    })

    /**
     * Two certbot runs for two names of one zone, started so that the second reads the zone while
     * the first one's save is held at the service: the second waits its turn (with the app open,
     * the app's runner refuses a second write of a zone on its way; with the app closed, the first
     * command holds the data folder), then adds its line to the zone as the first left it.
     */
    async function twoRunsAtOnce(whileSecondWaits: () => Promise<void>, secondSays: string) {
      const before = liveRecords()
      const names = [zone.domainname, `www.${zone.domainname}`]
      const values = [valueOf(`${secondSays} one`), valueOf(`${secondSays} two`)]
      const env = (i: number) => ({ CERTBOT_DOMAIN: names[i], CERTBOT_VALIDATION: values[i] })
      sb.faults.inject('domains.dns.set', { hold: true, times: 1 })
      // A failed wait below must not leave the first save held for the tests after this one.
      onTestFinished(() => sb.faults.clear())
      const first = acme(['auth'], env(0), transferWhenFirstServes)
      await vi.waitFor(() => expect(sb.faults.held('domains.dns.set')).toBe(1), { timeout: 30_000, interval: 20 })
      let waiting = false
      const second = acme(['auth'], env(1), (soFar) => {
        if (soFar.includes(secondSays)) waiting = true
        transferWhenFirstServes(soFar)
      })
      await vi.waitFor(() => expect(waiting).toBe(true), { timeout: 30_000, interval: 20 })
      await whileSecondWaits()
      expect(sb.faults.release()).toBe(1)
      const [a, b] = await Promise.all([first, second])
      expect(a).toMatchObject({ code: 0, err: '' })
      expect(b).toMatchObject({ code: 0, err: '' })
      // However long it waited, it said so once.
      expect(b.out.split(secondSays)).toHaveLength(2)
      expect(liveRecords()).toBe(`${before}\ntxt _acme-challenge ${values[0]}\ntxt _acme-challenge.www ${values[1]}`)
      // Both cleanups at once too: each removes its own line, whichever goes first.
      const cleanups = await Promise.all([0, 1].map((i) => acme(['cleanup'], env(i))))
      for (const c of cleanups) expect(c).toMatchObject({ code: 0, err: '' })
      expect(liveRecords()).toBe(before)
    }

    it('two runs at once with the app open: the second waits for the first one’s save, then adds its line; both issued, the zone byte for byte after the cleanups', async () => {
      services = await createAppServices({
        userDataDir: dataDir,
        allowedOrigins: [APP],
        storeWorkerUrl: BUILT_STORE_WORKER,
      })
      try {
        // The second is refused more than once before the first's save ends: each refusal comes
        // after a read of the zone, so two more reads than when it first said it waits are two
        // rounds of waiting at least.
        const reads = () => sb.received.filter((r) => r.endpoint === 'domains.dns.get').length
        await twoRunsAtOnce(async () => {
          const from = reads()
          await vi.waitFor(() => expect(reads()).toBeGreaterThanOrEqual(from + 2), { timeout: 30_000, interval: 20 })
        }, 'Another write to the zone')
      } finally {
        await services.close()
        services = undefined
      }
    })

    it('two runs at once with the app closed: the second waits for the folder past the 10 s a command used to wait, then adds its line', async () => {
      await twoRunsAtOnce(() => new Promise((r) => setTimeout(r, 10_500)), 'is using the data folder')
    }, 90_000)

    it('a zone changed between the hook’s read and its save (the guard): nothing sent, read again, the line added to the zone as it is then', async () => {
      const before = liveRecords()
      const value = valueOf('guard')
      const f = nsFlavour(zone)
      if (f !== 'svc1' && f !== 'svc11') throw new Error('the zone is not one of the service’s')
      const sent = puts()
      // The hook's own read of the zone is held, then let go; the next read (main's, before the save) is held until the zone has changed.
      sb.faults.inject('domains.dns.get', { hold: true, times: 2 })
      onTestFinished(() => sb.faults.clear())
      const hook = acme(
        ['auth'],
        { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: value },
        transferWhenFirstServes,
      )
      await vi.waitFor(() => expect(sb.faults.held('domains.dns.get')).toBe(1), { timeout: 30_000, interval: 20 })
      sb.faults.release(1)
      await vi.waitFor(() => expect(sb.faults.held('domains.dns.get')).toBe(1), { timeout: 30_000, interval: 20 })
      // Someone else's change, between the two reads.
      const theirs = `${before}\ntxt @ someone-else-meanwhile`
      zone.dns[f].records = theirs
      sb.faults.release(1)
      const r = await hook
      expect(r).toMatchObject({ code: 0, err: '' })
      expect(r.out).toContain(
        `The zone ${zone.domainname} changed while this hook read it (nothing was sent): reading it again…`,
      )
      expect(puts()).toBe(sent + 1)
      expect(liveRecords()).toBe(`${theirs}\ntxt _acme-challenge ${value}`)
      expect(await acme(['cleanup'], { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: value })).toMatchObject({
        code: 0,
        err: '',
      })
      expect(liveRecords()).toBe(theirs)
      zone.dns[f].records = before
    })

    it('a new process on a key the service still blocks (its rate limit, at 0.3 of its durations): waits the block out, then goes on at once', async () => {
      const limit = scaledRateLimit(LIVE_RATE_LIMIT, 0.3)
      const value = valueOf('rate limited')
      const before = liveRecords()
      sb.service.rateLimit = limit
      try {
        // Another process's burst: the key's 60 answered, the 61st refused; the block runs from then.
        const statuses: number[] = []
        for (let i = 0; i <= limit.limit; i++)
          statuses.push(
            (await fetch(`${sb.url}/domains?limit=1`, { headers: { authorization: `Bearer ${sb.keys.full}` } })).status,
          )
        expect(statuses.at(-1)).toBe(429)
        const from = sb.received.length
        const waits = recordWaits()
        const r = await acme(
          ['auth'],
          { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: value, ...waits.env },
          transferWhenFirstServes,
        )
        expect(r).toMatchObject({ code: 0, err: '' })
        // It met the block (its first request refused) and waited it out: once a request went
        // through, none was refused again.
        const statusesOfHook = sb.received.slice(from).map((q) => q.status)
        expect(statusesOfHook[0]).toBe(429)
        expect(statusesOfHook.slice(statusesOfHook.indexOf(200))).not.toContain(429)
        // Then on at once: paced at one request a window (18 s here) after a block it did not
        // cause, it asked to wait most of a window before each request. What it asked to wait is
        // counted, not timed: its probes of the block each wait less than the block (5.4 s), and
        // nothing else waits as long as half a window.
        expect(waits.asked().length).toBeGreaterThan(0)
        expect(waits.asked().filter((ms) => ms >= limit.windowMs / 2)).toEqual([])
      } finally {
        sb.service.rateLimit = undefined
      }
      expect(await acme(['cleanup'], { CERTBOT_DOMAIN: zone.domainname, CERTBOT_VALIDATION: value })).toMatchObject({
        code: 0,
      })
      expect(liveRecords()).toBe(before)
    }, 90_000)

    it.skipIf(process.getuid?.() !== 0)(
      'a full disk: acme present says so in one line, leaves no temporary file, sends nothing',
      async () => {
        const full = mkdtempSync(join(tmpdir(), 'cli-acme-full-'))
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', full])
        try {
          execFileSync('cp', ['-a', `${dataDir}/.`, full])
          // A line an earlier run noted: its hook writes no note, and meets the journal instead.
          const journalFirst = valueOf('journal full')
          await noteAdded(full, {
            accountId,
            domain: zone.domainname,
            line: `txt _acme-challenge ${journalFirst}`,
            at: new Date().toISOString(),
          })
          // Fill what is left: the ledger (and the journal) can no longer grow.
          try {
            execFileSync('dd', ['if=/dev/zero', `of=${join(full, 'filler')}`, 'bs=4k'], { stdio: 'ignore' })
          } catch {
            // dd ends with "No space left on device": the point.
          }
          const sent = puts()
          const before = liveRecords()
          const r = await runCli(
            ['acme', 'present', `_acme-challenge.${zone.domainname}.`, valueOf('full disk'), '--timeout', '5s'],
            {
              dataDir: full,
              env: { HOSTING_ADMIN_NS_ADDRESSES: `${zone.ns[0]}=${ns1.address},${zone.ns[1]}=${ns2.address}` },
            },
          )
          expect(r.code).toBe(1)
          expect(r.err.trim().split('\n')).toHaveLength(1)
          expect(r.err).toMatch(/^Not sent: .*acme-added.* cannot be written \(ENOSPC\)/)
          expect(r.out).toBe('')
          const journalOnly = await runCli(
            ['acme', 'present', `_acme-challenge.${zone.domainname}.`, journalFirst, '--timeout', '5s'],
            { dataDir: full },
          )
          expect(journalOnly.code).toBe(1)
          expect(journalOnly.err.trim().split('\n')).toHaveLength(1)
          expect(journalOnly.err).toMatch(/^Not sent: the record of writes .* cannot be written \(ENOSPC\)/)
          expect(readdirSync(full, { recursive: true }).filter((f) => String(f).endsWith('.tmp'))).toEqual([])
          expect(puts()).toBe(sent)
          expect(liveRecords()).toBe(before)
        } finally {
          execFileSync('umount', [full])
          rmSync(full, { recursive: true, force: true })
        }
      },
    )
  },
)
