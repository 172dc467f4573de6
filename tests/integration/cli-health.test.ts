/**
 * `hosting-admin dns served` and the health of `dns plan`, as a real process against the sandbox
 * over loopback with the real keychain. The zones' nameservers are DNS servers on loopback
 * (support/loopback-dns.ts, on dns-packet) serving the sandbox's zones as they are now; the
 * second serves one zone as it was before its last save (lagging). Their names are mapped to
 * loopback with HOSTING_ADMIN_NS_ADDRESSES, as the ACME hook's test does.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import type { DomainRec } from '../../src/sandbox/state'
import { BUILT_STORE_WORKER, setUpAccount } from '../helpers/cli-account'
import { APP, routerCalls } from '../helpers/router-calls'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { servedChangeSchema } from '@shared/dns/health/finding-schema'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { startRecordsDns, type LoopbackDns, type Zone } from '../../support/loopback-dns'
import { z } from 'zod'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)

let sb: Sandbox
let outside: ApiClient
let dataDir: string
let current: DomainRec
let lagging: DomainRec
let ns1: LoopbackDns
let ns2: LoopbackDns
/** What the second nameserver holds of the lagging zone: the zone before its last save. */
let lagged = ''
let services: AppServices | undefined
const { ok, call } = routerCalls(() => services)

/** What the app's history holds of a zone's served comparisons, newest first, read as the window reads it. */
async function servedHistory(domain: string) {
  services = await createAppServices({
    userDataDir: dataDir,
    allowedOrigins: [APP],
    storeWorkerUrl: BUILT_STORE_WORKER,
  })
  try {
    const accountId = (await ok('accounts.list', {})).accounts.find((a) => a.name === 'Zones')?.id ?? ''
    const codes = (v: unknown) => servedChangeSchema.parse(v).findings.map((f) => f.code)
    const entries = (await ok('history.list', { accountId, subject: domain })).filter((h) => h.aspect === 'served')
    // The window may not record comparisons of its own through the command's channel.
    const forged = await call('dns.servedRecord', { accountId, zones: [{ domain, findings: [] }] })
    return { accountId, forged, entries: entries.map((h) => ({ before: codes(h.before), after: codes(h.after) })) }
  } finally {
    await services.close()
    services = undefined
  }
}

const recordsOf = (d: DomainRec) => {
  const f = nsFlavour(d)
  return f === 'svc1' || f === 'svc11' ? d.dns[f].records : ''
}
const served = (): Zone[] => sb.state.domains.map((d) => ({ domain: d.domainname, records: recordsOf(d) }))
const addresses = () =>
  [...new Set([current, lagging].flatMap((d) => d.ns))]
    .map((n, i) => `${n}=${i % 2 === 0 ? ns1.address : ns2.address}`)
    .join(',')
const cli = (...args: string[]) => runCli(args, { dataDir, env: { HOSTING_ADMIN_NS_ADDRESSES: addresses() } })

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
  'dns served and plan health (skipped: no D-Bus session; run through npm test)',
  () => {
    beforeAll(async () => {
      sb = await startSandbox({ domains: 6 })
      outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      const editable = sb.state.domains.filter((d) => nsFlavour(d) === 'svc1' || nsFlavour(d) === 'svc11')
      ;[current, lagging] = [editable[0]!, editable[1]!]
      for (const d of [current, lagging]) {
        const { ns_type } = await outside.call('domains.dns.get', { domain: d.domainname })
        await outside.call('domains.dns.set', {
          domain: d.domainname,
          ns_type,
          ttl: 3600,
          records: 'a @ 192.0.2.1\na www 192.0.2.2\ntxt @ v=spf1 -all',
        })
      }
      lagged = recordsOf(lagging)
      const { ns_type } = await outside.call('domains.dns.get', { domain: lagging.domainname })
      await outside.call('domains.dns.set', {
        domain: lagging.domainname,
        ns_type,
        ttl: 3600,
        records: 'a @ 192.0.2.1\na www 192.0.2.50\ntxt @ v=spf1 -all',
      })
      ns1 = await startRecordsDns(served)
      ns2 = await startRecordsDns(() =>
        served().map((z) => (z.domain === lagging.domainname ? { ...z, records: lagged } : z)),
      )
      dataDir = mkdtempSync(join(tmpdir(), 'cli-health-'))
      await setUpAccount(sb, dataDir, 'Zones')
    })
    afterAll(async () => {
      await Promise.all([ns1?.close(), ns2?.close()])
      await sb?.close()
    })

    it('exits 0 when both nameservers serve what is saved, 4 naming the one behind when one lags', async () => {
      // Each zone's first nameserver name maps to ns1, its second to ns2.
      const same = await cli('dns', 'served', current.domainname)
      expect(same.code).toBe(0)
      expect(same.out).toContain(`${current.domainname}: every nameserver serves what the service holds.`)
      const behind = await cli('dns', 'served', lagging.domainname)
      expect(behind.code).toBe(4)
      expect(behind.out).toContain(`does not serve A www.${lagging.domainname} 192.0.2.50, which the service holds`)
      const json = await cli('dns', 'served', lagging.domainname, '--json')
      expect(JSON.parse(json.out)).toMatchObject({
        differs: true,
        zones: [
          { domain: lagging.domainname, same: false, findings: [{ code: 'served.missing' }, { code: 'served.extra' }] },
        ],
      })
    })

    it('--all compares every zone of the account and exits 4 when any differs', async () => {
      const all = await cli('dns', 'served', '--all', '--json')
      expect(all.code).toBe(4)
      const { zones } = z
        .object({ zones: z.array(z.object({ domain: z.string(), same: z.boolean() })) })
        .parse(JSON.parse(all.out))
      expect(zones.find((z) => z.domain === current.domainname)?.same).toBe(true)
      expect(zones.find((z) => z.domain === lagging.domainname)?.same).toBe(false)
    })

    it('records in the app’s history, as the window does, the findings that appear and the ones that go away; the window cannot record them', async () => {
      expect((await cli('dns', 'served', lagging.domainname)).code).toBe(4)
      const behind = await servedHistory(lagging.domainname)
      expect(behind.forged).toMatchObject({ ok: false, error: { code: 'ipc.foreignSender' } })
      expect(behind.entries[0]).toEqual({ before: [], after: ['served.missing', 'served.extra'] })
      // The same findings again: nothing new to record.
      expect((await cli('dns', 'served', '--all')).code).toBe(4)
      expect((await servedHistory(lagging.domainname)).entries).toHaveLength(behind.entries.length)
      expect((await servedHistory(current.domainname)).entries).toEqual([])
      // The second nameserver catches up: the findings that went away are recorded.
      const was = lagged
      lagged = recordsOf(lagging)
      try {
        expect((await cli('dns', 'served', lagging.domainname)).code).toBe(0)
      } finally {
        lagged = was
      }
      const caughtUp = await servedHistory(lagging.domainname)
      expect(caughtUp.entries).toHaveLength(behind.entries.length + 1)
      expect(caughtUp.entries[0]).toEqual({ before: ['served.missing', 'served.extra'], after: [] })
    })

    it('dns plan shows the health of the zone after the plan, the findings it introduces first, and never refuses for them', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'cli-health-files-')), 'zone.txt')
      writeFileSync(
        file,
        'a @ 192.0.2.1\na www 192.0.2.2\ntxt @ v=spf1 -all\ntxt @ v=spf1 include:_spf.example.net ~all\n',
      )
      const plan = await cli('dns', 'plan', current.domainname, file, '--offline')
      expect(plan.code).toBe(0)
      expect(plan.err).toContain(`Health of ${current.domainname} after this plan (never blocks the save):`)
      expect(plan.err).toContain('! Error [new] spf.multiple: More than one SPF record at this name (2)')
      const json = await cli('dns', 'check', current.domainname, file, '--offline', '--json')
      expect(json.code).toBe(4)
      expect(z.object({ health: z.unknown() }).parse(JSON.parse(json.out)).health).toEqual([
        expect.objectContaining({ rule: 'spf.multiple', introduced: true }),
        expect.objectContaining({ rule: 'spf.multiple', introduced: true }),
      ])
    })

    it('dns apply saves a zone whose health has errors, with the findings said, and exits 0: a finding never blocks a save', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'cli-health-files-')), 'zone.txt')
      writeFileSync(file, 'a @ 192.0.2.1\na www 192.0.2.2\ntxt @ v=spf1 -all\ntxt @ "v=spf1 ip4:192.0.2.300 ~all"\n')
      const applied = await cli('dns', 'apply', current.domainname, file, '--offline')
      expect(applied.code).toBe(0)
      expect(applied.err).toContain('! Error [new] spf.multiple: More than one SPF record at this name (2)')
      expect(applied.err).toContain('! Error [new] spf.syntax:')
      expect((await outside.call('domains.dns.get', { domain: current.domainname })).records).toContain(
        'v=spf1 ip4:192.0.2.300 ~all',
      )
    })
  },
)
