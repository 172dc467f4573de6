/**
 * A write refused because another member holds its target names them (issue 37 point 4): two
 * workstations' team ledgers on a real PostgreSQL, the sandbox as the service. Alice's workstation
 * holds a domain's renewal; Bob's runner, on its own ledger, is refused with who, on which
 * workstation and since when, both when it prepares and when the lease is taken between its
 * prepare and its send; nothing reaches the sandbox. Worded in English and in Japanese.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../src/main/base/app-error'
import { createApiClient } from '../../src/main/http'
import { JobRunner } from '../../src/main/jobs/runner'
import type { JobAccounts } from '../../src/main/jobs/runner-options'
import { targetOf } from '../../src/main/jobs/targets'
import type { TeamLedger } from '../../src/main/team/team-ledger'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { describeError } from '@shared/i18n/translate'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'
import { english } from '../helpers/english'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { openWorkstation } from '../../support/team-ledgers'

let db: TestPostgres
let sb: Sandbox
let alice: TeamLedger
let bob: TeamLedger
let bobRunner: JobRunner

beforeAll(async () => {
  db = await startTestPostgres()
  sb = await startSandbox({ domains: 4 })
  alice = await openWorkstation(db, 'Alice', 'host-a')
  bob = await openWorkstation(db, 'Bob', 'host-b')
  const accounts: JobAccounts = {
    client: async () => createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths }),
    nameOf: () => 'Main',
    readOnly: () => false,
  }
  bobRunner = new JobRunner({ accounts, ledger: bob, logCheckDelaysMs: [60_000] })
  await bobRunner.init()
}, 60_000)
afterAll(async () => {
  await bobRunner?.close()
  await alice?.close()
  await sb?.close()
  db?.remove()
})

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null
const renewals = (domain: string) =>
  sb.received.filter((r) => r.endpoint === 'domains.expiration.renew' && isRecord(r.body) && r.body.domain === domain)
/** Since when, as every workstation words it: UTC, to the minute. */
const utcMinute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`
const renewal = (domain: string) => ({
  accountId: 'main',
  operation: 'domains.expiration.renew' as const,
  items: [{ params: { domain, years: 1 } }],
  concurrency: 1,
})

describe('a target another member holds', () => {
  it('prepare is refused naming the member, the workstation and since when, in English and Japanese', async () => {
    const domain = sb.state.domains[0]!.domainname
    const held = await alice.claim(
      {
        accountId: 'main',
        operation: 'domains.expiration.renew',
        target: targetOf('domains.expiration.renew', { domain, years: 1 }),
      },
      { jobId: 'alice-job', index: 0 },
    )
    if (!held.ok) throw new Error('alice could not take the lease')
    try {
      const refused = await bobRunner.prepare(renewal(domain)).then(
        () => undefined,
        (err: unknown) => err,
      )
      if (!(refused instanceof AppError)) throw new Error(`not refused as expected: ${String(refused)}`)
      const data = refused.data
      expect(data).toMatchObject({
        kind: 'busy',
        code: 'job.targetBusyBy',
        params: { targets: domain, member: 'Alice', workstation: 'host-a' },
      })
      const holder = await bob.holderOf(held.lease.ref)
      if (!holder) throw new Error('the lease is not seen from Bob’s workstation')
      expect(english(data)).toBe(
        `A write to ${domain} is already on its way: by Alice on host-a since ${utcMinute(holder.since)}. Wait for it to finish.`,
      )
      expect(describeError(ja, 'ja', data).text).toContain(`host-a の Alice が ${utcMinute(holder.since)} から実行中`)
      expect(describeError(en, 'en', data).text).not.toContain('{')
    } finally {
      await alice.release(held.lease, 'free')
    }
    expect(renewals(domain)).toEqual([])
  })

  it('a lease taken between prepare and send: the item fails naming the holder, and nothing is sent', async () => {
    const domain = sb.state.domains[1]!.domainname
    const { job, token } = await bobRunner.prepare(renewal(domain))
    const held = await alice.claim(
      { accountId: 'main', operation: 'domains.expiration.renew', target: job.items[0]!.target },
      { jobId: 'alice-job-2', index: 0 },
    )
    if (!held.ok) throw new Error('alice could not take the lease')
    try {
      const done = await bobRunner.start(job.id, token)
      expect(done.items[0]).toMatchObject({
        state: 'failed',
        error: { kind: 'busy', code: 'job.targetBusyBy', params: { member: 'Alice', workstation: 'host-a' } },
      })
    } finally {
      await alice.release(held.lease, 'free')
    }
    expect(renewals(domain)).toEqual([])
  })
})
