/**
 * Issue 53 point 6, what main gives the window in team mode (two workstations on one throwaway
 * PostgreSQL and one sandbox): a colleague's zone save keeps, in the team's history, the records
 * before and after, so History shows its plan lines as for one's own save; and the team database
 * away is said with its own kind (titled "Team database unreachable"), never as an unexpected
 * error, whichever channel meets it (acknowledging a reminder did).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { reminderKey } from '@shared/portfolio/reminders'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { closeTeamWorkstations, openTeamWorkstation, type TeamWorkstation } from '../helpers/team-workstation'

let db: TestPostgres
let sb: Sandbox
let alice: TeamWorkstation
let bob: TeamWorkstation

beforeAll(async () => {
  db = await startTestPostgres()
  sb = await startSandbox({ domains: 20 })
  alice = await openTeamWorkstation(db, sb, 'alice', 'host-a')
  bob = await openTeamWorkstation(db, sb, 'bob', 'host-b')
}, 90_000)
afterAll(async () => {
  await closeTeamWorkstations([alice, bob])
  await sb?.close()
  db?.remove()
})

const zoneDomains = () => sb.state.domains.filter((d) => nsFlavour(d) !== 'registrar').map((d) => d.domainname)

describe('team mode, issue 53 point 6', () => {
  it("a colleague's zone save comes with its records before and after: its plan lines", async () => {
    const domain = zoneDomains()[2]!
    const zone = await alice.calls.ok('domains.dns.get', { accountId: alice.accountId, domain })
    const records = `${zone.records.trimEnd()}\ntxt bob-was-here hello`
    const prepared = await bob.calls.ok('jobs.prepare', {
      accountId: bob.accountId,
      operation: 'domains.dns.set',
      items: [{ params: { domain, ns_type: zone.ns_type, records, ttl: zone.ttl }, guard: { records: zone.records } }],
    })
    await bob.calls.ok('jobs.start', { jobId: prepared.job.id, ...(prepared.token ? { token: prepared.token } : {}) })
    await vi.waitFor(
      () => expect(bob.services.jobs.list().find((j) => j.id === prepared.job.id)?.items[0]?.state).toBe('done'),
      { timeout: 10_000 },
    )

    const rows = await alice.calls.ok('history.list', {
      accountId: alice.accountId,
      subjectKind: 'domain',
      subject: domain,
    })
    const bobs = rows.find((e) => e.origin === 'app' && e.aspect === 'dns')
    expect(bobs).toMatchObject({ member: 'bob', workstation: 'host-b', before: { records: zone.records } })
    const after: unknown = bobs?.after
    expect(JSON.stringify(after)).toContain('bob-was-here')
  })

  it('the database away: every channel that needs it says team-unreachable, none an unexpected error', async () => {
    const domain = zoneDomains()[0]!
    const zone = await alice.calls.ok('domains.dns.get', { accountId: alice.accountId, domain })
    await alice.calls.ok('store.refreshAccount', { accountId: alice.accountId, callId: 'read-all' })
    await alice.calls.ok('reminders.saveSettings', { enabled: true, thresholds: [365, 30], includeAutorenewing: true })
    const [reminder] = await alice.calls.ok('reminders.open', {})
    expect(reminder).toBeDefined()
    db.stopServer()
    try {
      const refusals = [
        await alice.calls.call('jobs.prepare', {
          accountId: alice.accountId,
          operation: 'domains.dns.set',
          items: [
            {
              params: {
                domain,
                ns_type: zone.ns_type,
                records: `${zone.records.trimEnd()}\ntxt @ away`,
                ttl: zone.ttl,
              },
              guard: { records: zone.records },
            },
          ],
        }),
        await alice.calls.call('reminders.handle', {
          accountId: alice.accountId,
          key: reminderKey(reminder!),
          how: 'acknowledged',
        }),
      ]
      for (const r of refusals)
        expect(r).toMatchObject({ ok: false, error: { kind: 'team-unreachable', code: 'team.unreachable' } })
    } finally {
      db.startServer()
    }
  })
})
