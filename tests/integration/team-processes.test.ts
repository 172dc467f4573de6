/**
 * Real processes holding team leases on a real PostgreSQL (issue 37 point 3): a holder killed with
 * kill -9 mid-send leaves the target unknown for everyone until settled, nothing resent; a holder
 * frozen (SIGSTOP) past its lease sends nothing when it wakes (SIGCONT), its fencing number stale.
 * A "send" is a line appended to a file, written only after stillHeld said yes.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TargetRef } from '../../src/main/jobs/ledger/write-ledger'
import type { TeamLedger } from '../../src/main/team/team-ledger'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { startTeamChild, type TeamChild } from '../helpers/child-processes'
import { openWorkstation, poolFor, untilAged } from '../../support/team-ledgers'

/**
 * The holders' leases: long enough that no stall of a loaded machine loses one (with 1 s and
 * 0.5 s, a holder stopped 1.5 s after its claim had lost it). Where a test needs one to run out,
 * its life is let pass on the database's clock (untilAged) while the holder cannot act.
 */
const LEASE_MS = 60_000

let db: TestPostgres
let dir: string
/** The test's own connection, for letting a lease's life pass. */
let clock: pg.Pool
const children: TeamChild[] = []
const ledgers: TeamLedger[] = []

beforeAll(async () => {
  db = await startTestPostgres()
  clock = poolFor(db)
  dir = mkdtempSync(join(tmpdir(), 'team-sends-'))
}, 60_000)
afterEach(async () => {
  for (const c of children.splice(0)) {
    c.process.kill('SIGCONT')
    await c.kill9()
  }
  for (const l of ledgers.splice(0)) await l.close()
})
afterAll(async () => {
  await clock?.end()
  db?.remove()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const ref = (target: string): TargetRef => ({ accountId: 'acct', operation: 'domains.expiration.renew', target })
const sends = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [])

async function child(member: string, workstation: string, sentFile: string): Promise<TeamChild> {
  const c = await startTeamChild({ host: db.host, port: db.port, member, workstation, sentFile, leaseMs: LEASE_MS })
  children.push(c)
  return c
}
async function colleague(): Promise<TeamLedger> {
  const l = await openWorkstation(db, 'bob', 'host-b')
  ledgers.push(l)
  return l
}

describe('team leases held by real processes', () => {
  it('kill -9 of the holder mid-send: the target stays unknown for the other workstation, settling frees it, nothing is resent', async () => {
    const sent = join(dir, 'killed.txt')
    const holder = await child('alice', 'host-a', sent)
    const other = await colleague()
    expect(await holder.ask('claim killed.example', 'claim')).toMatchObject({ ok: true })
    expect(await holder.ask('send killed.example', 'send')).toMatchObject({ sent: true })
    await holder.kill9()
    // Its lease runs out unrenewed; the send had left: an unknown outcome, for everyone.
    const held = await untilAged(
      clock,
      'host-a',
      LEASE_MS,
      () => other.holderOf(ref('killed.example')),
      (h) => h?.state === 'unknown',
    )
    expect(held).toMatchObject({ member: 'alice', workstation: 'host-a', state: 'unknown' })
    expect(await other.claim(ref('killed.example'), { jobId: 'jb', index: 0 })).toMatchObject({
      ok: false,
      heldBy: { state: 'unknown', member: 'alice' },
    })
    // Still unknown well past the lease: nothing frees it but a settlement.
    expect((await other.unknownTargets()).map((u) => u.ref.target)).toEqual(['killed.example'])
    await other.settle(ref('killed.example'), { how: 'done', requestId: 'req-killed' })
    const again = await other.claim(ref('killed.example'), { jobId: 'jb', index: 0 })
    expect(again.ok).toBe(true)
    if (again.ok) await other.release(again.lease, 'free')
    expect(sends(sent)).toEqual([`${holder.pid} killed.example`])
  })

  it('kill -9 of a holder before its send: the target is free once the lease runs out (nothing can have left)', async () => {
    const sent = join(dir, 'before.txt')
    const holder = await child('alice', 'host-a', sent)
    const other = await colleague()
    expect(await holder.ask('claim early.example', 'claim')).toMatchObject({ ok: true })
    expect(await other.holderOf(ref('early.example'))).toMatchObject({ member: 'alice', state: 'sending' })
    await holder.kill9()
    await untilAged(
      clock,
      'host-a',
      LEASE_MS,
      () => other.holderOf(ref('early.example')),
      (h) => h === undefined,
    )
    const r = await other.claim(ref('early.example'), { jobId: 'jb', index: 0 })
    expect(r.ok).toBe(true)
    if (r.ok) await other.release(r.lease, 'free')
    expect(sends(sent)).toEqual([])
  })

  it('a job another process of this workstation runs (the command line beside the window) is alive while that process is, and cut off at once when it is killed', async () => {
    const commandLine = await child('alice', 'host-a', join(dir, 'job.txt'))
    expect(await commandLine.ask('job job-beside', 'job')).toMatchObject({ ok: true })
    // The window starting on the same workstation, its lease's life as long: only the process tells them apart.
    const window = await openWorkstation(db, 'alice', 'host-a', { leaseMs: 60_000 })
    ledgers.push(window)
    expect((await window.load()).find((j) => j.id === 'job-beside')?.status).toBe('running')
    expect(window.runsElsewhere('job-beside')).toBe(true)
    await commandLine.kill9()
    // Its heartbeat is a moment old, but its process is gone: cut off now, not after a minute.
    await window.load()
    expect(window.runsElsewhere('job-beside')).toBe(false)
  })

  it("SIGSTOP past its lease, then SIGCONT: the woken holder's fencing number is stale and it sends nothing", async () => {
    const sent = join(dir, 'frozen.txt')
    const holder = await child('alice', 'host-a', sent)
    const other = await colleague()
    expect(await holder.ask('claim frozen.example', 'claim')).toMatchObject({ ok: true })
    holder.process.kill('SIGSTOP')
    // Frozen: its heartbeat cannot renew; the lease runs out and the colleague takes the target.
    await untilAged(
      clock,
      'host-a',
      LEASE_MS,
      () => other.holderOf(ref('frozen.example')),
      (h) => h === undefined,
    )
    const taken = await other.claim(ref('frozen.example'), { jobId: 'jb', index: 0 })
    if (!taken.ok) throw new Error('colleague refused')
    holder.process.kill('SIGCONT')
    expect(await holder.ask('send frozen.example', 'send')).toMatchObject({ sent: false })
    expect(sends(sent)).toEqual([])
    // The colleague's lease was not disturbed by the woken one.
    expect(await other.stillHeld(taken.lease)).toBe(true)
    await other.release(taken.lease, 'free')
  })

  it('SIGSTOP past its lease with nobody taking the target: woken, it still sends nothing', async () => {
    const sent = join(dir, 'frozen-alone.txt')
    const holder = await child('alice', 'host-a', sent)
    const other = await colleague()
    expect(await holder.ask('claim alone.example', 'claim')).toMatchObject({ ok: true })
    holder.process.kill('SIGSTOP')
    await untilAged(
      clock,
      'host-a',
      LEASE_MS,
      () => other.holderOf(ref('alone.example')),
      (h) => h === undefined,
    )
    holder.process.kill('SIGCONT')
    expect(await holder.ask('send alone.example', 'send')).toMatchObject({ sent: false })
    expect(sends(sent)).toEqual([])
  })
})
