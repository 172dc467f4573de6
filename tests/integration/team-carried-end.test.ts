/**
 * In team mode a worker's last send's end is written with its next item's journal step, in one
 * statement (issue 54 point 4, carried-end.ts): one durable commit where there were two in turn.
 * The real runner, team ledger, PostgreSQL and sandbox; which records committed together is read
 * from the rows' transaction ids. Every end is still written, and each send once; an end whose
 * worker's next item never reaches a journal step (its target held by a colleague) is written
 * with a later one or alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { JobRunner } from '../../src/main/jobs/runner'
import type { TeamLedger } from '../../src/main/team/team-ledger'
import type { TargetLease } from '../../src/main/jobs/ledger/write-ledger'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { openWorkstation, poolFor } from '../../support/team-ledgers'
import { renewalOf, renewedDomains, sandboxJobAccounts } from '../helpers/sandbox-renewals'

let db: TestPostgres
let sb: Sandbox
const open: TeamLedger[] = []

beforeAll(async () => {
  db = await startTestPostgres()
  sb = await startSandbox({ domains: 12 })
}, 60_000)
afterAll(async () => {
  for (const l of open) await l.close()
  await sb?.close()
  db?.remove()
})

const accounts = () => sandboxJobAccounts(sb)
const recordRows = z.array(z.object({ tx: z.string(), i: z.coerce.number(), state: z.string() }))
const leaseRows = z.array(z.object({ idx: z.number(), state: z.string(), outcome: z.string().nullable() }))

/** A renewal of these domains, one at a time; `prepared` runs between its preparation and its start. */
async function renew(ledger: TeamLedger, names: string[], prepared: () => Promise<void> = async () => undefined) {
  const runner = new JobRunner({ accounts: accounts(), ledger, logCheckDelaysMs: [60_000], endCarryMs: 60_000 })
  try {
    await runner.init()
    const { job, token } = await runner.prepare(renewalOf(names))
    await prepared()
    return await runner.start(job.id, token)
  } finally {
    await runner.close()
  }
}

/** The job's item records in the team's journal, in order, with the transaction each was committed in; and its leases. */
async function teamRowsOf(jobId: string) {
  const pool = poolFor(db)
  try {
    const records = recordRows.parse(
      (
        await pool.query(
          `SELECT xmin::text AS tx, record->>'i' AS i, record->>'state' AS state FROM team_journal
             WHERE job_id = $1 AND record->>'t' = 'item' ORDER BY seq`,
          [jobId],
        )
      ).rows,
    )
    const leases = leaseRows.parse(
      (await pool.query('SELECT idx, state, outcome FROM team_leases WHERE job_id = $1 ORDER BY idx', [jobId])).rows,
    )
    return {
      records,
      leases,
      txOf: (i: number, state: string) => records.find((r) => r.i === i && r.state === state)?.tx,
    }
  } finally {
    await pool.end()
  }
}

describe("a send's end carried to its worker's next journal step (team mode)", () => {
  it('each end commits with the next item\'s "sending" record; the last alone; every send once, every lease let go done', async () => {
    const alice = await openWorkstation(db, 'alice', 'host-a')
    open.push(alice)
    const names = sb.state.domains.slice(0, 3).map((d) => d.domainname)
    const before = renewedDomains(sb).length
    const job = await renew(alice, names)
    expect(job.items.map((it) => it.state)).toEqual(['done', 'done', 'done'])
    expect(renewedDomains(sb).slice(before)).toEqual(names)
    const { records, leases, txOf } = await teamRowsOf(job.id)
    expect(records.map((r) => `${r.i} ${r.state}`).sort()).toEqual(
      ['0 sending', '0 done', '1 sending', '1 done', '2 sending', '2 done'].sort(),
    )
    // One transaction for item 0's end and item 1's journal step, one for 1's end and 2's step...
    expect(txOf(0, 'done')).toBe(txOf(1, 'sending'))
    expect(txOf(1, 'done')).toBe(txOf(2, 'sending'))
    // ...while a journal step with no end before it, and the last end, commit alone.
    expect(txOf(0, 'sending')).not.toBe(txOf(0, 'done'))
    expect(new Set(records.map((r) => r.tx)).size).toBe(4)
    expect(leases).toEqual([
      { idx: 0, state: 'free', outcome: 'done' },
      { idx: 1, state: 'free', outcome: 'done' },
      { idx: 2, state: 'free', outcome: 'done' },
    ])
  })

  it('an end whose next item is held by a colleague is written all the same, and that item is refused naming the holder', async () => {
    const alice = await openWorkstation(db, 'alice', 'host-a2')
    const bob = await openWorkstation(db, 'bob', 'host-b')
    open.push(alice, bob)
    const names = sb.state.domains.slice(3, 6).map((d) => d.domainname)
    const held = names[1] ?? ''
    const ref = { accountId: 'main', operation: 'domains.expiration.renew' as const, target: `domain=${held}` }
    let bobs: TargetLease | undefined
    const before = renewedDomains(sb).length
    // Bob's renewal of the second domain on its way (its lease taken) once Alice's job is prepared.
    const job = await renew(alice, names, async () => {
      const claimed = await bob.claim(ref, { jobId: 'bob-job', index: 0 })
      if (!claimed.ok) throw new Error('bob did not claim')
      bobs = claimed.lease
    })
    expect(job.items.map((it) => it.state)).toEqual(['done', 'failed', 'done'])
    expect(job.items[1]?.error?.params).toMatchObject({ member: 'bob' })
    expect(renewedDomains(sb).slice(before)).toEqual([names[0], names[2]])
    const { leases, txOf } = await teamRowsOf(job.id)
    expect(txOf(0, 'done')).toBeDefined()
    expect(txOf(2, 'done')).toBeDefined()
    expect(leases.filter((l) => l.outcome === 'done').map((l) => [l.idx, l.state])).toEqual([
      [0, 'free'],
      [2, 'free'],
    ])
    if (bobs) await bob.release(bobs, 'free')
  })
})
