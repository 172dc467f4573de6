/**
 * The built `hosting-admin` command (bin/hosting-admin.mjs → out/main/cli.js), run as a real
 * process by Node against the sandbox over loopback, with the account's key in the real
 * keychain (the private D-Bus session of `npm test`) and the app's own data folder: what it
 * prints, how it exits, what reaches the service, and that its writes are in the app's history.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { DDNS_BURST } from '../../src/sandbox/ddns'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { startLockChild } from '../helpers/child-processes'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)

let sb: Sandbox
let outside: ApiClient
let dataDir: string
let services: AppServices | undefined
const { call, ok } = routerCalls(() => services)
const openServices = async () =>
  (services = await createAppServices({ userDataDir: dataDir, allowedOrigins: [APP], storeWorkerUrl: WORKER }))
const closeServices = async () => {
  await services?.close()
  services = undefined
}

const cli = (...args: string[]) => runCli(args, { dataDir })

const puts = () => sb.received.filter((r) => r.endpoint === 'domains.dns.set' && r.method === 'PUT').length
const twelve = [
  'a @ 192.0.2.1',
  'a www 192.0.2.1',
  'mx mail.example.net. 10',
  'txt @ v=spf1 ip4:192.0.2.1 -all',
  ...Array.from({ length: 8 }, (_, i) => `a h${i} 198.51.100.${i + 1}`),
]
let domain: string
let prodDomain: string

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
  'the hosting-admin command (skipped: no D-Bus session; run through npm test)',
  () => {
    beforeAll(async () => {
      sb = await startSandbox({ domains: 6 })
      outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      const editable = sb.state.domains.filter((d) => nsFlavour(d) !== 'registrar').map((d) => d.domainname)
      ;[domain, prodDomain] = [editable[0]!, editable[1]!]
      // Saved in the zone's own ns_type: the service keeps records per ns_type and answers the one in use.
      for (const d of [domain, prodDomain]) {
        const { ns_type } = await outside.call('domains.dns.get', { domain: d })
        await outside.call('domains.dns.set', { domain: d, ns_type, records: twelve.join('\n'), ttl: 3600 })
      }
      dataDir = mkdtempSync(join(tmpdir(), 'cli-data-'))
      await openServices()
      const main = await ok('accounts.create', {
        fields: { ...profileFor(sb, 'Main'), ddnsUrl: `${new URL(sb.url).origin}/cgi-bin/dyn.fcg` },
        apiKey: sb.keys.full,
        storage: 'keychain',
      })
      await ok('accounts.create', {
        fields: { ...profileFor(sb, 'Live shop'), environment: 'production' },
        apiKey: sb.keys.full,
        storage: 'keychain',
      })
      await ok('accounts.setActive', { id: main.id })
      await closeServices()
    })
    afterAll(async () => {
      await closeServices()
      await sb?.close()
    })

    it('lists the accounts, the active one marked, and as JSON; no key is printed', async () => {
      const text = await cli('accounts')
      expect(text.code).toBe(0)
      expect(text.out).toMatch(/^\* Main\t/m)
      expect(text.out).toMatch(/^ {2}Live shop\tproduction/m)
      expect(text.out).toMatch(/^ {2}Demo \(local sandbox\)\ttest/m)
      const json = await cli('accounts', '--json')
      expect(JSON.parse(json.out)).toMatchObject({
        accounts: [
          { id: 'demo' },
          { name: 'Main', active: true },
          { name: 'Live shop', environment: 'production', active: false },
        ],
      })
      for (const r of [text, json]) expect(r.out + r.err).not.toContain(sb.keys.full)
    })

    it('exports the zone in the service records form and as BIND', async () => {
      const records = await cli('dns', 'export', domain)
      expect(records.code).toBe(0)
      expect(records.out.trim().split('\n')).toEqual(twelve)
      const bind = await cli('dns', 'export', domain, '--bind')
      expect(bind.code).toBe(0)
      expect(bind.out).toMatch(/^\$TTL 3600$/m)
      expect(bind.out).toMatch(new RegExp(`^@?\\s.*MX\\s+10\\s+mail\\.example\\.net\\.`, 'm'))
      const json = await cli('dns', 'export', domain, '--json')
      expect(JSON.parse(json.out)).toMatchObject({ domain, ttl: 3600, records: twelve.join('\n') })
    })

    it('plan prints what a file would change and sends nothing; check exits 0 when equal and 4 when the zone differs', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cli-files-'))
      const same = join(dir, 'same.txt')
      writeFileSync(same, twelve.join('\n') + '\n')
      const changed = join(dir, 'changed.txt')
      writeFileSync(changed, [...twelve, 'txt _dmarc "v=DMARC1; p=none"'].join('\n'))
      const before = puts()
      expect(await cli('dns', 'check', domain, same)).toMatchObject({ code: 0 })
      const plan = await cli('dns', 'plan', domain, changed)
      expect(plan.code).toBe(0)
      expect(plan.out).toContain('+ add TXT _dmarc "v=DMARC1; p=none"')
      const check = await cli('dns', 'check', domain, changed, '--json')
      expect(check.code).toBe(4)
      expect(JSON.parse(check.out)).toMatchObject({ domain, same: false, changes: 1 })
      expect(puts()).toBe(before)
    })

    it('refuses a file with records the service would refuse (exit 2), naming the record; nothing sent', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'cli-files-')), 'bad.txt')
      writeFileSync(file, [...twelve, 'a host 999.1.1.1'].join('\n'))
      const before = puts()
      const r = await cli('dns', 'apply', domain, file)
      expect(r.code).toBe(2)
      expect(r.err).toMatch(/record 13:/)
      expect(puts()).toBe(before)
    })

    it('apply of a BIND file shows its plan, is refused over the rule without --force, and saves with it', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'cli-files-')), 'zone.bind')
      // 8 of 12 records move to a new address: over 30 % of a zone of 10 or more.
      const bind = [
        '$TTL 3600',
        `$ORIGIN ${domain}.`,
        '@ IN A 192.0.2.1',
        'www IN A 192.0.2.1',
        '@ IN MX 10 mail.example.net.',
        '@ IN TXT "v=spf1 ip4:192.0.2.1 -all"',
        ...Array.from({ length: 8 }, (_, i) => `h${i} IN A 203.0.113.${i + 1}`),
      ]
      writeFileSync(file, bind.join('\n') + '\n')
      const before = puts()
      const refused = await cli('dns', 'apply', domain, file)
      expect(refused.code).toBe(2)
      expect(refused.err).toContain('~ change A h0: 198.51.100.1 → 203.0.113.1')
      expect(refused.err).toMatch(/add --force/)
      expect(puts()).toBe(before)
      const saved = await cli('dns', 'apply', domain, file, '--force')
      expect(saved).toMatchObject({ code: 0 })
      expect(saved.out).toMatch(/Saved: 8 changes/)
      expect(puts()).toBe(before + 1)
      expect((await outside.call('domains.dns.get', { domain })).records).toContain('a h7 203.0.113.8')
      // Applied again: nothing to change, nothing sent.
      expect(await cli('dns', 'apply', domain, file, '--force')).toMatchObject({ code: 0 })
      expect(puts()).toBe(before + 1)
    })

    it('a production account needs its name; a wrong one is refused by main, said to be wrong (exit 2); the right one saves', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'cli-files-')), 'prod.txt')
      writeFileSync(file, [...twelve, 'txt _dmarc "v=DMARC1; p=none"'].join('\n'))
      const before = puts()
      const bare = await cli('dns', 'apply', prodDomain, file, '--account', 'Live shop')
      expect(bare.code).toBe(2)
      expect(bare.err).toMatch(/--confirm-account/)
      const wrong = await cli('dns', 'apply', prodDomain, file, '--account', 'Live shop', '--confirm-account', 'Main')
      // Bad input (exit 2), said to be the wrong name rather than a missing one; nothing sent.
      expect(wrong.code).toBe(2)
      expect(wrong.err).toContain('"Main" is not the name of the account Live shop')
      expect(wrong.err).not.toMatch(/add --confirm-account/)
      const wrongJson = await cli(
        'dns',
        'apply',
        prodDomain,
        file,
        '--account',
        'Live shop',
        '--confirm-account',
        'Main',
        '--json',
      )
      expect(wrongJson.code).toBe(2)
      expect(JSON.parse(wrongJson.out)).toMatchObject({
        ok: false,
        error: { kind: 'bad-input', code: 'cli.wrongName', params: { given: 'Main', account: 'Live shop' } },
      })
      expect(puts()).toBe(before)
      const right = await cli(
        'dns',
        'apply',
        prodDomain,
        file,
        '--account',
        'Live shop',
        '--confirm-account',
        'Live shop',
        '--json',
      )
      expect(right.code).toBe(0)
      expect(JSON.parse(right.out)).toMatchObject({ ok: true, domain: prodDomain, account: 'Live shop' })
      expect(puts()).toBe(before + 1)
    })

    it('bad input is exit 2 with a clear message: an unknown command, an unknown account, a missing file', async () => {
      const unknown = await cli('dns', 'frobnicate', domain)
      expect(unknown).toMatchObject({ code: 2 })
      expect(unknown.err).toContain('Unknown command "dns frobnicate"')
      const account = await cli('dns', 'export', domain, '--account', 'Nobody')
      expect(account.code).toBe(2)
      expect(account.err).toContain(
        'No account is named "Nobody". The accounts: Demo (local sandbox), Main, Live shop.',
      )
      const missing = await cli('dns', 'plan', domain, '/nonexistent/zone.txt')
      expect(missing.code).toBe(2)
      expect(missing.err).toContain('Cannot read /nonexistent/zone.txt (ENOENT)')
    })

    it('its writes are in the app’s history, marked as the command’s', async () => {
      await openServices()
      const { accounts } = await ok('accounts.list', {})
      const targets = []
      for (const a of accounts.filter((x) => x.id !== 'demo')) {
        const history = await ok('history.list', { accountId: a.id })
        targets.push(...history.filter((h) => h.purpose === 'cli').map((h) => `${a.name} ${h.subject}`))
      }
      expect(targets.sort()).toEqual([`Main ${domain}`, `Live shop ${prodDomain}`].sort())
      await closeServices()
    })

    it('apply says where what the service kept differs from the file: a TTL under its minimum kept as 3600', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'cli-files-')), 'low-ttl.bind')
      const bind = [
        '$TTL 60',
        `$ORIGIN ${domain}.`,
        '@ IN A 192.0.2.1',
        'www IN A 192.0.2.1',
        '@ IN MX 10 mail.example.net.',
        '@ IN TXT "v=spf1 ip4:192.0.2.1 -all"',
        ...Array.from({ length: 8 }, (_, i) => `h${i} IN A 203.0.113.${i + 1}`),
      ]
      writeFileSync(file, bind.join('\n') + '\n')
      sb.service.minTtl = 120
      try {
        // --force: run alone, this test finds the zone as the first one set it (8 records away from the file).
        const saved = await cli('dns', 'apply', domain, file, '--force')
        expect(saved.code).toBe(0)
        expect(saved.err).toContain('The service changed this')
        expect(saved.err).toContain('TTL 60 was stored as 3600.')
        expect(saved.out).toMatch(/^Saved/m)
      } finally {
        sb.service.minTtl = undefined
      }
    })

    it('renew lists what expires within the period and sends nothing without --yes; a production account needs its name; with --yes each is renewed once', async () => {
      const limit = Date.now() + 30 * 86_400_000
      const due = sb.state.domains.filter((d) => Date.parse(d.expirationdate) <= limit).map((d) => d.domainname)
      expect(due.length).toBeGreaterThan(0)
      const renewals = () => sb.received.filter((r) => r.endpoint === 'domains.expiration.renew').length
      const listed = await cli('renew', '--expiring-within', '30d', '--json')
      expect(listed.code).toBe(0)
      expect(JSON.parse(listed.out)).toMatchObject({ renewed: false, years: 1 })
      expect(
        z
          .object({ domains: z.array(z.object({ domain: z.string() })) })
          .parse(JSON.parse(listed.out))
          .domains.map((d) => d.domain)
          .sort(),
      ).toEqual([...due].sort())
      const text = await cli('renew', '--expiring-within', '30d')
      expect(text.err).toContain(`Would renew ${due.length} domain`)
      expect(text.err).toContain('add --yes')
      const production = await cli('renew', '--expiring-within', '30d', '--yes', '--account', 'Live shop')
      expect(production.code).toBe(2)
      expect(production.err).toMatch(/--confirm-account/)
      expect(renewals()).toBe(0)
      const yearOf = (name: string) =>
        Number(sb.state.domains.find((d) => d.domainname === name)!.expirationdate.slice(0, 4))
      const before = new Map(due.map((n) => [n, yearOf(n)]))
      const renewed = await cli('renew', '--expiring-within', '30d', '--yes')
      expect(renewed.code).toBe(0)
      expect(renewed.out).toContain(`Renewed: ${due.length}.`)
      expect(renewals()).toBe(due.length)
      for (const n of due) expect(yearOf(n)).toBe(before.get(n)! + 1)
      expect(await cli('renew', '--expiring-within', 'soon')).toMatchObject({ code: 2 })
    })

    it('ddns update sets a host through the dynamic DNS address with the password read through the API, never printed; refusals say why; each update is in the app’s history', async () => {
      const password = 'ddns-Secret-Pass-42'
      await outside.call('domains.dynamicdns.set', { domain, dynamicdns: 1, password })
      const zoneText = () => {
        const d = sb.state.domains.find((x) => x.domainname === domain)!
        const { ns_type } = { ns_type: nsFlavour(d) }
        return ns_type === 'svc1' || ns_type === 'svc11' ? d.dns[ns_type].records : ''
      }
      const fixed = await cli('ddns', 'update', domain, '--host', 'www', '--ip', '198.51.100.77')
      expect(fixed).toMatchObject({ code: 0, out: `www.${domain} now points at 198.51.100.77.\n` })
      expect(zoneText()).toMatch(/^a www 198\.51\.100\.77$/m)
      const detected = await cli('ddns', 'update', domain, '--host', 'www', '--detect', '--json')
      expect(detected.code).toBe(0)
      expect(JSON.parse(detected.out)).toMatchObject({ ok: true, host: 'www', ip: '127.0.0.1' })
      expect(zoneText()).toMatch(/^a www 127\.0\.0\.1$/m)
      const noRecord = await cli('ddns', 'update', domain, '--host', 'nothere', '--ip', '192.0.2.9')
      expect(noRecord.code).toBe(1)
      expect(noRecord.err).toContain('the service answered status 8 (the zone has no A record for this host to update)')
      // The reason line the service answers after the status is shown as it came.
      expect(noRecord.err).toContain('saying “no record to update”')
      const off = await cli('ddns', 'update', prodDomain, '--account', 'Live shop', '--ip', '192.0.2.9')
      expect(off.code).toBe(1)
      expect(off.err).toContain(`Dynamic DNS is off for ${prodDomain}`)
      expect(await cli('ddns', 'update', domain, '--ip', '300.1.1.1')).toMatchObject({ code: 2 })
      expect(await cli('ddns', 'update', domain, '--ip', '192.0.2.1', '--every', '10s')).toMatchObject({ code: 2 })
      for (const r of [fixed, detected, noRecord, off]) expect(r.out + r.err).not.toContain(password)
      const sent = sb.received.filter((r) => r.path === '/cgi-bin/dyn.fcg' && r.query.d === domain)
      // www twice, nothere once; --detect asked ?ip first.
      expect(sent.length).toBe(3)
      expect(sb.received.some((r) => r.path === '/cgi-bin/dyn.fcg' && 'ip' in r.query && r.query.d === undefined)).toBe(
        true,
      )
      expect(JSON.stringify(sent)).not.toContain(password)

      // --every: the first address is sent at once; meanwhile the data folder is free for the app.
      let appStarted = false
      const every = await runCli(
        ['ddns', 'update', domain, '--host', 'www', '--ip', '198.51.100.78', '--every', '5m'],
        {
          dataDir,
          onOut: (soFar, child) => {
            if (!soFar.includes('now points at 198.51.100.78') || appStarted) return
            appStarted = true
            void openServices()
              .then(closeServices)
              .then(() => child.kill('SIGTERM'))
          },
        },
      )
      expect(appStarted).toBe(true)
      expect(every.code).toBe(0)
      expect(zoneText()).toMatch(/^a www 198\.51\.100\.78$/m)

      await openServices()
      const history = await ok('history.list', {
        accountId: (await ok('accounts.list', {})).accounts.find((a) => a.name === 'Main')!.id,
      })
      const updates = history.filter((h) => h.operation === 'ddns.update')
      expect(updates.map((h) => [h.outcome, h.after])).toEqual([
        ['done', { host: 'www', ip: '198.51.100.78' }],
        ['failed', { host: 'nothere', ip: '192.0.2.9' }],
        ['done', { host: 'www', ip: '127.0.0.1' }],
        ['done', { host: 'www', ip: '198.51.100.77' }],
      ])
      expect(JSON.stringify(updates)).not.toContain(password)
      await closeServices()

      // Repeated updates within a minute: the service's overload status (503, as a published updater
      // documents it) is said with its meaning and the reason line, in English and Japanese, never
      // as "another error". Five updates sent straight to the address fill the sandbox's window.
      const address = `${new URL(sb.url).origin}/cgi-bin/dyn.fcg`
      for (let i = 0; i < DDNS_BURST.updates; i++)
        await fetch(`${address}?d=${domain}&p=${encodeURIComponent(password)}&h=www&i=198.51.100.${90 + i}`)
      const overloaded = await cli('ddns', 'update', domain, '--host', 'www', '--ip', '198.51.100.99')
      expect(overloaded.code).toBe(1)
      expect(overloaded.err).toContain(
        'the service answered status 503 (too many updates in a short time (an overload); wait a few minutes before the next)',
      )
      expect(overloaded.err).toContain('saying “too many accesses; try again later”')
      const overloadedJa = await runCli(['ddns', 'update', domain, '--host', 'www', '--ip', '198.51.100.98'], {
        dataDir,
        env: { LANG: 'ja_JP.UTF-8' },
      })
      expect(overloadedJa.code).toBe(1)
      expect(overloadedJa.err).toContain('短時間に更新が続いたための過負荷です')
      expect(overloaded.err + overloadedJa.err).not.toContain(password)
    })

    it('while the app runs, goes through it: a target the app is writing is refused, and its write is the app’s own job', async () => {
      await openServices()
      try {
        const { accounts } = await ok('accounts.list', {})
        const mainId = accounts.find((a) => a.name === 'Main')!.id
        const zone = await outside.call('domains.dns.get', { domain })
        // The app saves the zone; the service holds the request, so the save is on its way.
        sb.faults.inject('domains.dns.set', { hold: true })
        const appSave = call('jobs.submit', {
          accountId: mainId,
          operation: 'domains.dns.set',
          items: [
            {
              params: { domain, ns_type: zone.ns_type, records: `${zone.records}\ntxt app-side from-the-window` },
              guard: { records: zone.records, ttl: zone.ttl, ns_type: zone.ns_type },
            },
          ],
        })
        // Journaled, then across the loopback: expect.poll's 1 s default is short on a loaded machine.
        await expect.poll(() => sb.faults.held(), { timeout: 10_000 }).toBe(1)
        const file = join(mkdtempSync(join(tmpdir(), 'cli-files-')), 'zone.txt')
        writeFileSync(file, `${zone.records}\ntxt cli-side from-a-script`)
        const busy = await cli('dns', 'apply', domain, file)
        expect(busy.err).toContain('The app is open on this data folder: the command runs through it')
        expect(busy.err).toContain('is already on its way')
        expect(busy.code).toBe(1)
        sb.faults.release(1)
        expect(await appSave).toMatchObject({ ok: true })
        sb.faults.clear()

        const live = await outside.call('domains.dns.get', { domain })
        writeFileSync(file, `${live.records}\ntxt cli-side from-a-script`)
        const through = await cli('dns', 'apply', domain, file, '--json')
        expect(through.code).toBe(0)
        expect(JSON.parse(through.out)).toMatchObject({ ok: true, domain })
        // The app ran it: its own runner has the job (its Writes list shows it), marked as the command's.
        expect(
          services!.jobs
            .list()
            .filter((j) => j.purpose === 'cli' && j.items[0]?.label === domain)
            .at(0)?.items[0],
        ).toMatchObject({ state: 'done' })
        expect((await outside.call('domains.dns.get', { domain })).records).toContain('txt cli-side from-a-script')
      } finally {
        await closeServices()
      }
    })

    it('a folder the app holds but whose door does not answer: exit 1, naming the process', async () => {
      // A real holder of the folder's lock, advertising a door nobody listens at.
      const other = await startLockChild(dataDir, 'app')
      try {
        await other.next('ready')
        expect(await other.ask('take', 'took')).toMatchObject({ ok: true })
        expect(await other.ask(`door ${join(dataDir, 'run', 'nothing.sock')} ${'x'.repeat(48)}`, 'door')).toMatchObject(
          { ok: true },
        )
        const r = await cli('accounts')
        expect(r.code).toBe(1)
        expect(r.err).toContain(`The app (process ${other.pid}) has the data folder`)
        const ja = await runCli(['accounts'], { dataDir, env: { LANG: 'ja_JP.UTF-8' } })
        expect(ja.code).toBe(1)
        expect(ja.err).toContain(`アプリ（プロセス ${other.pid}）がデータフォルダー`)
      } finally {
        await other.kill9()
      }
      expect(await cli('accounts')).toMatchObject({ code: 0, err: '' })
    })
  },
)
