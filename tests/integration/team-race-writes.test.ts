/**
 * Once per intent for the other writes that cost money or move ownership (issue 49): two
 * workstations of one team (two data folders, two sets of the app's services, one real
 * PostgreSQL, one sandbox counting requests) prepare the same transfer-in, the same owner change
 * and the same zone save, both confirmed before either is started, then start both at once, in a
 * loop. Exactly one of each reaches the service; the other is refused, naming who did it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import type { EndpointName } from '@shared/endpoints/table'
import type { JobRequest, JobView } from '@shared/jobs'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { closeTeamWorkstations, openTeamWorkstation, type TeamWorkstation } from '../helpers/team-workstation'

let db: TestPostgres
let sb: Sandbox
let outside: ApiClient
let alice: TeamWorkstation
let bob: TeamWorkstation

const person = {
  firstname: 'Ann',
  lastname: 'Lee',
  organization: 'Example',
  country: 'JP',
  postalcode: '1000001',
  state: 'Tokyo',
  city: 'Chiyoda',
  address1: '1-1',
  address2: '',
  phone: '+81.312345678',
  fax: '',
}
const contact = { registrant: person, admin: person, tech: person, billing: person }
const ns = ['ns1.svc1.example.net', 'ns2.svc1.example.net']
const sends = (endpoint: EndpointName, from: number) =>
  sb.received.slice(from).filter((r) => r.endpoint === endpoint && r.status === 200)

/** Both prepare (and confirm) the same request before either starts; then both start at once. */
async function race(request: (w: TeamWorkstation) => JobRequest): Promise<[JobView, JobView]> {
  const [a, b] = await Promise.all([alice, bob].map((w) => w.calls.ok('jobs.prepare', request(w))))
  const started = await Promise.all([
    alice.calls.ok('jobs.start', { jobId: a!.job.id, ...(a!.token ? { token: a!.token } : {}) }),
    bob.calls.ok('jobs.start', { jobId: b!.job.id, ...(b!.token ? { token: b!.token } : {}) }),
  ])
  return [started[0]!, started[1]!]
}

/** One done, the other refused naming the one who did it. */
function onceBetween([a, b]: [JobView, JobView], code: string): void {
  const items = [a.items[0], b.items[0]]
  const done = items.filter((it) => it?.state === 'done')
  expect(done).toHaveLength(1)
  const refused = items.find((it) => it?.state !== 'done')
  const winner = a.items[0]?.state === 'done' ? 'alice' : 'bob'
  expect(refused?.error?.code).toBe(code)
  expect(refused?.error?.params?.member).toBe(winner)
}

describe('two workstations prepare the same paid or ownership write: it reaches the service once', () => {
  beforeAll(async () => {
    db = await startTestPostgres()
    sb = await startSandbox({ domains: 20 })
    outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    alice = await openTeamWorkstation(db, sb, 'alice', 'host-a')
    bob = await openTeamWorkstation(db, sb, 'bob', 'host-b')
  }, 60_000)
  afterAll(async () => {
    await closeTeamWorkstations([alice, bob])
    await sb?.close()
    db?.remove()
  })

  it('a transfer-in of the same domain, five rounds: one request each round', async () => {
    for (let round = 0; round < 5; round++) {
      const from = sb.received.length
      const domain = `incoming-${round}.org`
      const raced = await race((w) => ({
        accountId: w.accountId,
        operation: 'domains.transfer.request',
        items: [{ params: { domain, authcode: 'XyZ-123', ns, whois_proxy: 0, contact } }],
      }))
      expect(sends('domains.transfer.request', from)).toHaveLength(1)
      onceBetween(raced, 'job.alreadyCreatedBy')
    }
  })

  it('an owner change of the same domain, five rounds: one request each round', async () => {
    for (let round = 0; round < 5; round++) {
      const from = sb.received.length
      const domain = sb.state.domains[round]!.domainname
      const raced = await race((w) => ({
        accountId: w.accountId,
        operation: 'domains.localtransfer.set',
        items: [{ params: { domain, username: `new-owner-${round}`, message: 'Yours now' } }],
      }))
      expect(sends('domains.localtransfer.set', from)).toHaveLength(1)
      onceBetween(raced, 'job.alreadyTransferredBy')
    }
  })

  it('a zone save planned by both from the same zone, five rounds: one save each round, the other not overwriting it', async () => {
    const zones = sb.state.domains.filter((d, i) => i >= 5 && nsFlavour(d) !== 'registrar').slice(0, 5)
    for (const [round, d] of zones.entries()) {
      const zone = await outside.call('domains.dns.get', { domain: d.domainname })
      const from = sb.received.length
      const raced = await race((w) => ({
        accountId: w.accountId,
        operation: 'domains.dns.set',
        items: [
          {
            params: {
              domain: d.domainname,
              ns_type: zone.ns_type,
              records: `${zone.records.trimEnd()}\na ${w === alice ? 'alice' : 'bob'} 192.0.2.${round + 1}`,
              ttl: Number(zone.ttl),
            },
            guard: { records: zone.records },
            overRule: true,
          },
        ],
      }))
      expect(sends('domains.dns.set', from)).toHaveLength(1)
      expect(raced.map((j) => j.items[0]?.state).filter((s) => s === 'done')).toHaveLength(1)
    }
  })
})
