/**
 * What the window's screens see of the team (issue 37 points 4 and 7), through the app's real IPC
 * router on two workstations (two data folders, two sets of services) against one throwaway
 * PostgreSQL and one sandbox: history names the member of every change from the app on both
 * workstations, and a colleague's renewal is not taken for a change from outside while a change
 * made at the service's own panel still is; Writes shows the other member's job with its member;
 * a reminder or a change from outside handled on one workstation is handled on the other.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { reminderKey } from '@shared/portfolio/reminders'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { closeTeamWorkstations, openTeamWorkstation, type TeamWorkstation } from '../helpers/team-workstation'

let db: TestPostgres
let sb: Sandbox
let outside: ApiClient
let alice: TeamWorkstation
let bob: TeamWorkstation

let refreshes = 0
const refresh = (w: TeamWorkstation) =>
  w.calls.ok('store.refreshAccount', { accountId: w.accountId, callId: `refresh-${++refreshes}` })
const historyOf = (w: TeamWorkstation, domain: string) =>
  w.calls.ok('history.list', { accountId: w.accountId, subjectKind: 'domain', subject: domain })

async function renew(w: TeamWorkstation, domain: string) {
  const prepared = await w.calls.ok('jobs.prepare', {
    accountId: w.accountId,
    operation: 'domains.expiration.renew',
    items: [{ params: { domain, years: 1 } }],
  })
  await w.calls.ok('jobs.start', { jobId: prepared.job.id, ...(prepared.token ? { token: prepared.token } : {}) })
  return vi.waitFor(
    () => {
      const j = w.services.jobs.list().find((x) => x.id === prepared.job.id)
      expect(j?.status).toBe('done')
      return j!
    },
    { timeout: 10_000 },
  )
}

beforeAll(async () => {
  db = await startTestPostgres()
  sb = await startSandbox({ domains: 20 })
  outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
  alice = await openTeamWorkstation(db, sb, 'alice', 'host-a')
  bob = await openTeamWorkstation(db, sb, 'bob', 'host-b')
  // Both have read the account once: what changes next is compared with it.
  await refresh(alice)
  await refresh(bob)
}, 90_000)
afterAll(async () => {
  await closeTeamWorkstations([alice, bob])
  await sb?.close()
  db?.remove()
})

describe('the screens see the team', () => {
  it("history names the member on both workstations; a colleague's renewal is not a change from outside, the service's panel's still is", async () => {
    const renewed = sb.state.domains[4]!.domainname
    const theirs = sb.state.domains[5]!.domainname
    const job = await renew(alice, renewed)
    expect(job.items[0]?.state).toBe('done')
    // At the service's own panel, someone changes another domain's auto-renewal.
    const was = await outside.call('domains.autorenew.get', { domain: theirs })
    await outside.call('domains.autorenew.set', {
      domain: theirs,
      autorenew_domain: was.autorenew_domain !== 0 ? 0 : 10,
    })

    // Alice's own row carries her names.
    expect(await historyOf(alice, renewed)).toEqual([
      expect.objectContaining({
        origin: 'app',
        operation: 'domains.expiration.renew',
        outcome: 'done',
        member: 'alice',
        workstation: 'host-a',
      }),
    ])

    // Bob's refresh finds the new expiry date and the new auto-renewal.
    const found = await refresh(bob)
    expect(found.failed).toEqual([])
    const bobsView = await historyOf(bob, renewed)
    expect(bobsView).toEqual([
      expect.objectContaining({
        origin: 'app',
        operation: 'domains.expiration.renew',
        outcome: 'done',
        jobId: job.id,
        member: 'alice',
        workstation: 'host-a',
      }),
    ])
    // What the team keeps of a write has no parameters (they may hold a secret).
    expect(bobsView[0]?.params).toEqual({})
    const panel = await historyOf(bob, theirs)
    expect(panel).toEqual([expect.objectContaining({ origin: 'outside', aspect: 'autorenew', seen: false })])
    expect(panel[0]?.member).toBeUndefined()
    // Read again: kept once.
    expect(await historyOf(bob, renewed)).toHaveLength(1)
  })

  it("a colleague's zone save, met when the zone is next read, is theirs, not a change from outside", async () => {
    const domain = sb.state.domains.find((d, i) => i > 8 && nsFlavour(d) !== 'registrar')!.domainname
    const zone = await bob.calls.ok('domains.dns.get', { accountId: bob.accountId, domain })
    const prepared = await alice.calls.ok('jobs.prepare', {
      accountId: alice.accountId,
      operation: 'domains.dns.set',
      items: [
        {
          params: {
            domain,
            ns_type: zone.ns_type,
            records: `${zone.records.trimEnd()}\ntxt @ alice-was-here`,
            ttl: zone.ttl,
          },
          guard: { records: zone.records },
          overRule: true,
        },
      ],
    })
    await alice.calls.ok('jobs.start', { jobId: prepared.job.id, ...(prepared.token ? { token: prepared.token } : {}) })
    await vi.waitFor(
      () => expect(alice.services.jobs.list().find((j) => j.id === prepared.job.id)?.items[0]?.state).toBe('done'),
      { timeout: 10_000 },
    )

    expect((await bob.calls.ok('domains.dns.get', { accountId: bob.accountId, domain })).records).toContain(
      'alice-was-here',
    )
    const rows = await historyOf(bob, domain)
    expect(rows.map((e) => [e.origin, e.aspect, e.member])).toEqual([['app', 'dns', 'alice']])
  })

  it("Writes shows the other member's job, with its member, as it ended", async () => {
    const job = await renew(alice, sb.state.domains[6]!.domainname)
    const seen = (await bob.calls.ok('jobs.list', {})).find((j) => j.id === job.id)
    expect(seen).toMatchObject({
      status: 'done',
      by: { member: 'alice', workstation: 'host-a' },
      items: [{ state: 'done' }],
    })
    // Alice's own list has it once.
    expect((await alice.calls.ok('jobs.list', {})).filter((j) => j.id === job.id)).toHaveLength(1)
  })

  it('a change from outside looked at on one workstation is looked at on the other', async () => {
    const domain = sb.state.domains[7]!.domainname
    const was = await outside.call('domains.autorenew.get', { domain })
    await outside.call('domains.autorenew.set', { domain, autorenew_domain: was.autorenew_domain !== 0 ? 0 : 10 })
    await refresh(alice)
    await refresh(bob)
    const unseen = (w: TeamWorkstation) =>
      w.calls.ok('history.list', { accountId: w.accountId, subjectKind: 'domain', subject: domain, outsideOnly: true })
    expect((await unseen(alice)).map((e) => e.seen)).toEqual([false])
    expect((await unseen(bob)).map((e) => e.seen)).toEqual([false])
    const before = (await bob.calls.ok('history.unseen', {}))[bob.accountId] ?? 0

    expect(
      await alice.calls.ok('history.markSeen', { accountId: alice.accountId, subjectKind: 'domain', subject: domain }),
    ).toBe(1)

    expect((await bob.calls.ok('history.unseen', {}))[bob.accountId] ?? 0).toBe(before - 1)
    expect((await unseen(bob)).map((e) => e.seen)).toEqual([true])
  })

  it('a reminder handled on one workstation is handled on the other: not shown again, and the list says who', async () => {
    // Each workstation's own settings: every item within a year, auto-renewing or not.
    for (const w of [alice, bob])
      await w.calls.ok('reminders.saveSettings', { enabled: true, thresholds: [365, 30], includeAutorenewing: true })
    const aliceOpen = await alice.calls.ok('reminders.open', {})
    const bobOpen = await bob.calls.ok('reminders.open', {})
    expect(aliceOpen.length).toBeGreaterThan(1)
    expect(bobOpen.map(reminderKey).sort()).toEqual(aliceOpen.map(reminderKey).sort())
    expect(bobOpen.every((r) => r.handled === undefined)).toBe(true)
    const [first, second] = aliceOpen
    const key = reminderKey(first!)

    const handled = await alice.calls.ok('reminders.handle', { accountId: alice.accountId, key, how: 'acknowledged' })
    expect(handled).toMatchObject({
      mine: true,
      handled: { how: 'acknowledged', member: 'alice', workstation: 'host-a' },
    })

    // Bob's list says who handled it; his own handling comes second and is told so.
    const seenByBob = (await bob.calls.ok('reminders.open', {})).find((r) => reminderKey(r) === key)
    expect(seenByBob?.handled).toMatchObject({ how: 'acknowledged', member: 'alice', workstation: 'host-a' })
    expect(
      await bob.calls.ok('reminders.handle', { accountId: bob.accountId, key, how: 'snoozed', snoozeDays: 3 }),
    ).toMatchObject({
      mine: false,
      handled: { how: 'acknowledged', member: 'alice' },
    })
    // Bob's notifications leave it out and still show the others (his first check: none was shown here yet).
    const due = (await bob.calls.ok('reminders.due', {})).mostUrgent
    expect(due.map(reminderKey)).not.toContain(key)
    expect(due.map(reminderKey)).toContain(reminderKey(second!))

    // A snooze by Bob of another one: Alice sees it snoozed, until when.
    const snoozed = await bob.calls.ok('reminders.handle', {
      accountId: bob.accountId,
      key: reminderKey(second!),
      how: 'snoozed',
      snoozeDays: 3,
    })
    expect(snoozed).toMatchObject({ mine: true, handled: { how: 'snoozed', member: 'bob', workstation: 'host-b' } })
    const seenByAlice = (await alice.calls.ok('reminders.open', {})).find(
      (r) => reminderKey(r) === reminderKey(second!),
    )
    expect(Date.parse(seenByAlice?.handled?.snoozedUntil ?? '') - Date.now()).toBeGreaterThan(2 * 86_400_000)
  })
})
