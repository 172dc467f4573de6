/**
 * History, snapshots and drift, through the real IPC router, the real job runner, a real store
 * file and the sandbox over loopback: a row for every kind of write, a snapshot before every
 * zone save, drift found after a change made directly on the sandbox and not for the app's own
 * change, a guarded save that refuses a zone changed since its plan, and a restore whose plan
 * brings the zone back to the snapshot exactly.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { endpoints, WRITE_ENDPOINT_NAMES } from '@shared/endpoints/table'
import type { JobPurpose, JobView } from '@shared/jobs'
import type { PagedEndpointName, WriteEndpointName } from '@shared/endpoints/names'
import { applyPlan, plan } from '@shared/dns/plan'
import { parse, records, serialise } from '@shared/dns/records'
import { makeFixture, sampleOf, type Fixture } from '../helpers/operation-samples'
import { asGuardedItem } from '../helpers/zone-guard'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'
import { portfolioFileOf } from '../../src/main/store'
import { nsFlavour } from '../../src/sandbox/nameservers'

let sb: Sandbox
let dir: string
let services: AppServices
let accountId: string
let outside: ApiClient

const { call, ok } = routerCalls(() => services)
/** A write as the app makes it: prepared, confirmed when it must be, sent. */
async function write(
  operation: WriteEndpointName,
  items: { params: Record<string, unknown>; guard?: { records: string } }[],
  purpose?: JobPurpose,
): Promise<JobView> {
  // A zone save without a guard of its own is planned from the zone as it is now.
  const guarded = await Promise.all(
    items.map(async (it) => (it.guard ? { ...it, overRule: true } : asGuardedItem(operation, it.params, outside))),
  )
  const { job, token } = await ok('jobs.prepare', {
    accountId,
    operation,
    items: guarded,
    ...(purpose ? { purpose } : {}),
  })
  return ok('jobs.start', { jobId: job.id, ...(token ? { token } : {}) })
}
const history = (q: Record<string, unknown> = {}) => ok('history.list', { accountId, ...q })
const readAll = (name: PagedEndpointName) =>
  ok(`all.${name}`, { accountId, callId: `r-${name.replaceAll('.', '-')}-${Math.random().toString(36).slice(2)}` })
/** The zone as the service holds it, read past the app. */
const zoneOf = (domain: string) => outside.call('domains.dns.get', { domain })
/** Domains whose DNS records can be changed (not on the registrar's nameservers), apart from the one the write samples use. */
const editable = () =>
  sb.state.domains.filter((d, i) => i !== 5 && nsFlavour(d) !== 'registrar').map((d) => d.domainname)
const recordSet = (text: string) =>
  records(parse(text))
    .map((r) => `${r.type} ${r.host} ${r.value}`)
    .sort()

beforeAll(async () => {
  sb = await startSandbox({ domains: 12 })
  dir = mkdtempSync(join(tmpdir(), 'history-'))
  services = await createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    keychain: async () => new SessionSecretStore(),
  })
  accountId = (
    await ok('accounts.create', { fields: profileFor(sb, 'Main', 1500), apiKey: sb.keys.full, storage: 'session' })
  ).id
  // Someone else at the same account: the provider's control panel, another tool.
  outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
})
afterAll(async () => {
  await services.close()
  await sb.close()
})

describe('history of writes', () => {
  let fixture: Fixture
  beforeAll(async () => {
    fixture = await makeFixture(sb, outside)
  })

  it.each(WRITE_ENDPOINT_NAMES.filter((n) => n !== 'domains.remove' && n !== 'freedns.remove'))(
    '%s leaves one row: operation, what was sent, outcome and request ID',
    async (name) => {
      const sample = sampleOf(name, fixture)
      const job = await write(name, [{ params: sample.input }])
      const item = job.items[0]!
      expect(item.state, JSON.stringify(item.error)).toMatch(/done|failed/)
      const rows = (await history({ limit: 500 })).filter((h) => h.jobId === job.id)
      expect(rows).toHaveLength(1)
      const row = rows[0]!
      expect(row).toMatchObject({ origin: 'app', operation: name, outcome: item.state, seen: true })
      expect(row.requestId).toBe(item.requestId)
      // What was sent, less the user's secrets.
      for (const [k, v] of Object.entries(sample.input))
        if (k !== 'authcode' && k !== 'password') expect(row.params?.[k], k).toEqual(v)
      if (endpoints[name].confirm) expect(job.confirm).toBe(true)
    },
  )

  it('removals are recorded too', async () => {
    const domain = sb.state.freedns[0]!.domainname
    const job = await write('freedns.remove', [{ params: { domain } }])
    expect((await history({ subjectKind: 'freedns', subject: domain }))[0]).toMatchObject({
      operation: 'freedns.remove',
      outcome: job.items[0]!.state,
    })
  })

  it('no key, transfer code or DDNS password reaches the file', async () => {
    const bytes =
      readFileSync(portfolioFileOf(dir)).toString('latin1') +
      readFileSync(`${portfolioFileOf(dir)}-wal`).toString('latin1')
    expect(bytes).not.toContain(sb.keys.full)
    for (const d of sb.state.domains) if (d.authcode) expect(bytes).not.toContain(d.authcode)
  })
})

describe('zone snapshots and restore', () => {
  it('a zone is snapshotted just before each save, and a restore plans the exact way back', async () => {
    const domain = editable()[0]!
    const { records: original, ns_type } = await zoneOf(domain)
    await ok('domains.dns.get', { accountId, domain })
    const edited = `${original}\na new 198.51.100.7\ntxt @ "v=restore-test"`
    const job = await write('domains.dns.set', [{ params: { domain, ns_type, records: edited } }])
    expect(job.items[0]?.state).toBe('done')

    const [row] = await history({ subjectKind: 'domain', subject: domain })
    expect(row).toMatchObject({ origin: 'app', aspect: 'dns', operation: 'domains.dns.set', outcome: 'done' })
    expect(row?.before).toMatchObject({ records: original })
    expect(row?.after).toMatchObject({ records: edited })
    const snaps = await ok('history.snapshots', { accountId, kind: 'dns', domain })
    expect(snaps[0]).toMatchObject({ reason: 'before-save' })
    expect(row?.snapshotId).toBe(snaps[0]!.id)
    const snap = await ok('history.snapshot', { accountId, id: snaps[0]!.id })
    if (!snap) throw new Error('no snapshot')
    expect(snap.records).toBe(original)

    // Restore: the plan from the zone now to the snapshot, applied, gives the snapshot back.
    const now = (await zoneOf(domain)).records
    const back = plan(parse(now), parse(snap.records))
    expect(back.removed.map((r) => r.value).sort()).toEqual(['"v=restore-test"', '198.51.100.7'])
    expect(back.added).toEqual([])
    expect(back.changed).toEqual([])
    const restored = serialise(applyPlan(records(parse(now)), back))
    expect(recordSet(restored)).toEqual(recordSet(snap.records))
    const put = await write(
      'domains.dns.set',
      [{ params: { domain, ns_type, records: restored }, guard: { records: now } }],
      'restore',
    )
    expect(put.items[0]?.state).toBe('done')
    expect(recordSet((await zoneOf(domain)).records)).toEqual(recordSet(original))
    expect((await history({ subjectKind: 'domain', subject: domain }))[0]).toMatchObject({
      purpose: 'restore',
      outcome: 'done',
    })
    // The restore itself was snapshotted first: it can be undone the same way.
    expect((await ok('history.snapshots', { accountId, kind: 'dns', domain })).length).toBe(2)
  })

  it('a save planned from records the zone no longer has is not sent', async () => {
    const domain = editable()[1]!
    const { records: planned, ns_type } = await zoneOf(domain)
    await outside.call('domains.dns.set', { domain, ns_type, records: `${planned}\na someone 203.0.113.9` })
    const puts = sb.received.filter((r) => r.method === 'PUT').length
    const job = await write('domains.dns.set', [
      { params: { domain, ns_type, records: `${planned}\na mine 192.0.2.99` }, guard: { records: planned } },
    ])
    expect(job.items[0]).toMatchObject({ state: 'failed', error: { code: 'dns.changedSincePlan', params: { domain } } })
    expect(sb.received.filter((r) => r.method === 'PUT').length).toBe(puts)
    expect((await zoneOf(domain)).records).toContain('203.0.113.9')
  })
})

describe('drift', () => {
  it('a change made directly on the service is recorded as from outside, with its difference; the app’s own is not', async () => {
    await readAll('domains.dns.list')
    await readAll('domains.nameserver.list')
    await readAll('domains.transferlock.list')
    const [theirs, mine] = [editable()[2]!, editable()[3]!]
    const { records: oldRecords, ns_type } = await zoneOf(theirs)
    await outside.call('domains.dns.set', {
      domain: theirs,
      ns_type,
      records: `${oldRecords}\ncname www2 elsewhere.example.net.`,
    })
    await outside.call('domains.nameserver.set', { domain: theirs, ns: ['ns1.other.example', 'ns2.other.example'] })
    await write('domains.nameserver.set', [{ params: { domain: mine, ns: ['ns1.mine.example', 'ns2.mine.example'] } }])
    await write('domains.transferlock.set', [{ params: { domain: mine, transfer_lock: 0 } }])

    await readAll('domains.dns.list')
    await readAll('domains.nameserver.list')
    await readAll('domains.transferlock.list')
    const drift = await history({ outsideOnly: true })
    expect(drift.filter((h) => h.subject === mine)).toEqual([])
    const dns = drift.find((h) => h.subject === theirs && h.aspect === 'dns')
    const ns = drift.find((h) => h.subject === theirs && h.aspect === 'nameservers')
    expect(dns).toMatchObject({ origin: 'outside', seen: false, before: { records: oldRecords } })
    expect(ns).toMatchObject({
      origin: 'outside',
      seen: false,
      after: { ns: ['ns1.other.example', 'ns2.other.example'] },
    })
    // The zone as it was before their change is kept, to put back.
    expect(dns?.snapshotId).toBeDefined()
    expect((await ok('history.snapshot', { accountId, id: dns!.snapshotId! }))?.records).toBe(oldRecords)
    expect((await ok('history.unseen', {}))[accountId]).toBe(2)

    // Read again with nothing new: nothing new is recorded.
    await readAll('domains.nameserver.list')
    expect((await history({ outsideOnly: true })).length).toBe(drift.length)

    // Looked at: the badge goes.
    expect(await ok('history.markSeen', { accountId, subjectKind: 'domain', subject: theirs })).toBe(2)
    expect((await ok('history.unseen', {}))[accountId]).toBeUndefined()
  })

  it('a zone read on its own notes a change from outside too', async () => {
    const domain = editable()[4]!
    await ok('domains.dns.get', { accountId, domain })
    await outside.call('domains.dns.set', {
      domain,
      ns_type: (await zoneOf(domain)).ns_type,
      records: 'a @ 203.0.113.50',
    })
    await ok('domains.dns.get', { accountId, domain })
    const [row] = await history({ subjectKind: 'domain', subject: domain, outsideOnly: true })
    expect(row).toMatchObject({ aspect: 'dns', after: { records: 'a @ 203.0.113.50' } })
  })

  it('checking an account now reads every account-wide list again and reports what changed outside', async () => {
    const domain = editable()[5]!
    await ok('store.refreshAccount', { accountId, callId: 'refresh-1' })
    const renew = await outside.call('domains.autorenew.get', { domain })
    const lock = await outside.call('domains.transferlock.get', { domain })
    await outside.call('domains.autorenew.set', { domain, autorenew_domain: renew.autorenew_domain !== 0 ? 0 : 10 })
    await outside.call('domains.transferlock.set', { domain, transfer_lock: lock.transfer_lock === 1 ? 0 : 1 })
    const r = await ok('store.refreshAccount', { accountId, callId: 'refresh-2' })
    expect(r).toEqual({ read: 10, drift: 2, failed: [] })
    const rows = await history({ subjectKind: 'domain', subject: domain, outsideOnly: true })
    expect(rows.map((h) => h.aspect).sort()).toEqual(['autorenew', 'transferlock'])
    expect(await call('store.refreshAccount', { accountId, callId: 'no spaces allowed' })).toMatchObject({
      ok: false,
      error: { code: 'ipc.invalidPayload' },
    })
  })

  it('a save whose TTL the service raised is told right away, and the next read of the zone records no change from outside', async () => {
    const domain = editable()[6]!
    sb.service.minTtl = 120
    sb.service.reorderLines = true
    try {
      const { records, ns_type } = await zoneOf(domain)
      const sent = `txt @ v=spf1 -all\n${records}`
      const job = await write('domains.dns.set', [{ params: { domain, ns_type, records: sent, ttl: 60 } }])
      const item = job.items[0]!
      // Read back: the PUT's answer only repeats the request, the zone as kept says otherwise.
      expect(item.serviceKept).toEqual(
        expect.arrayContaining([
          { code: 'serviceKept.ttlChanged', params: { sent: 60, kept: 3600 } },
          { code: 'serviceKept.linesReordered', params: {} },
        ]),
      )
      expect(item.result).toMatchObject({ ttl: 3600, records: (await zoneOf(domain)).records })
      const [row] = await history({ subjectKind: 'domain', subject: domain, limit: 1 })
      expect(row).toMatchObject({ origin: 'app', after: { ttl: 3600, records: (await zoneOf(domain)).records } })
      await ok('domains.dns.get', { accountId, domain })
      await readAll('domains.dns.list')
      expect(await history({ subjectKind: 'domain', subject: domain, outsideOnly: true })).toEqual([])
    } finally {
      sb.service.minTtl = undefined
      sb.service.reorderLines = false
    }
  })

  it('turning auto-renewal on sends the number the account’s own data uses for on (10 on the live service)', async () => {
    // The account as the live service shows it: settings that are on hold 10.
    sb.state.domains.forEach((d, i) =>
      Object.assign(d, { autorenew_all: 0, autorenew_domain: i % 2 ? 10 : 0, autorenew: i % 2 }),
    )
    const all = await readAll('domains.autorenew.list')
    expect(JSON.stringify(all)).toContain('"autorenew_domain":10')
    const domain = editable()[7]!
    const before = sb.received.length
    const job = await write('domains.autorenew.set', [{ params: { domain, autorenew_domain: 1 } }])
    expect(job.items[0]!.params).toMatchObject({ autorenew_domain: 10 })
    const sent = sb.received.slice(before).find((r) => r.endpoint === 'domains.autorenew.set')
    expect(sent?.body).toEqual({ autorenew_domain: 10 })
    // Shown as on, and never as "the service changed this" for 10 against 1.
    expect(job.items[0]!.serviceKept).toBeUndefined()
  })

  it('a write of the domain’s auto-renewal keeps no value before of the settings it did not touch (issue 53)', async () => {
    const domain = editable()[8]!
    Object.assign(
      sb.state.domains.find((d) => d.domainname === domain)!,
      {
        autorenew_all: 10,
        autorenew_domain: 0,
        autorenew: 1,
      },
    )
    await readAll('domains.autorenew.list')
    const job = await write('domains.autorenew.set', [{ params: { domain, autorenew_domain: 1 } }])
    expect(job.items[0]!.state).toBe('done')
    const row = (await history({ subjectKind: 'domain', subject: domain })).find((h) => h.jobId === job.id)
    // Only the member the write set: the account's and the effective setting were not read after, so not "on → none".
    expect(row).toMatchObject({ before: { autorenew_domain: 0 }, after: { autorenew_domain: 10 } })
    expect(Object.keys(row?.before ?? {})).toEqual(['autorenew_domain'])
  })

  it('history older than the retention goes', async () => {
    expect(await ok('history.settings', {})).toEqual({ retentionDays: 730 })
    expect(await ok('history.setRetention', { days: 30 })).toEqual({ retentionDays: 30 })
    expect(await call('history.setRetention', { days: 0 })).toMatchObject({
      ok: false,
      error: { code: 'ipc.invalidPayload' },
    })
    const before = (await history()).length
    expect(before).toBeGreaterThan(0)
    // Everything here was written today: kept.
    expect((await history()).length).toBe(before)
  })
})
