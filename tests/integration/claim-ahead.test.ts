/**
 * A worker claims its next item while its last one's request is on its way (issue 54 point 4,
 * send-item.ts SendTrail.claimNext): in team mode a claim is a round trip and a durable commit of
 * its own, which then rides beside the service's answer. The claim taken ahead is a hold like any
 * other: the item is sent once, under it; a pause lets it go (no colleague waits on a paused job),
 * and a stop leaves the item unsent, said stopped, its hold let go. The real runner, sandbox, and
 * both ledgers (the local journal; the team's on PostgreSQL); the sandbox holds item 0's request
 * until the test has looked.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Journal } from '../../src/main/jobs/ledger/journal-file'
import { LocalLedger } from '../../src/main/jobs/ledger/local-ledger'
import type { WriteLedger } from '../../src/main/jobs/ledger/write-ledger'
import { JobRunner } from '../../src/main/jobs/runner'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { openWorkstation } from '../../support/team-ledgers'
import { holdFolderOf } from '../helpers/held-folder'
import { renewalOf, renewedDomains, sandboxJobAccounts } from '../helpers/sandbox-renewals'

const RENEW = 'domains.expiration.renew'
const WAIT = { timeout: 10_000, interval: 20 }

let sb: Sandbox
let db: TestPostgres
const closers: Array<() => Promise<void>> = []
beforeAll(async () => {
  sb = await startSandbox({ domains: 24 })
  db = await startTestPostgres()
}, 60_000)
afterAll(async () => {
  for (const close of closers) await close()
  await sb?.close()
  db?.remove()
})

async function localLedger(): Promise<WriteLedger> {
  const file = join(mkdtempSync(join(tmpdir(), 'claim-ahead-')), 'journal.jsonl')
  const lock = await holdFolderOf(file)
  const ledger = new LocalLedger(new Journal(file, lock))
  closers.push(() => lock.release())
  return ledger
}

async function teamLedger(): Promise<WriteLedger> {
  const ledger = await openWorkstation(db, 'alice', 'host-a')
  closers.push(() => ledger.close())
  return ledger
}

/** Three domains not renewed by an earlier case. */
let used = 0
const threeDomains = () => sb.state.domains.slice(used, (used += 3)).map((d) => d.domainname)

/** A renewal of three domains, one at a time, started with item 0's request held at the service. */
async function startHeld(ledger: WriteLedger) {
  const names = threeDomains()
  const runner = new JobRunner({ accounts: sandboxJobAccounts(sb), ledger, logCheckDelaysMs: [60_000] })
  closers.push(() => runner.close())
  await runner.init()
  const { job, token } = await runner.prepare(renewalOf(names))
  const before = renewedDomains(sb).length
  sb.faults.inject(RENEW, { hold: true, times: 1 })
  const ended = runner.start(job.id, token)
  await vi.waitFor(() => expect(sb.faults.held(RENEW)).toBe(1), WAIT)
  // Item i's hold, by the target the job names (targets.ts).
  const holderOf = (i: number) => {
    const target = job.items[i]?.target
    return target === undefined ? undefined : ledger.holderOf({ accountId: 'main', operation: RENEW, target })
  }
  return { names, runner, jobId: job.id, ended, holderOf, renewed: () => renewedDomains(sb).slice(before) }
}

describe.each([
  ['single-workstation', localLedger],
  ['team mode', teamLedger],
] as const)('a worker claims its next item while its last is sent (%s)', (_mode, ledgerOf) => {
  it("item 1's target is held while item 0's request is at the service; every item sent once; nothing held after", async () => {
    const { names, ended, holderOf, renewed } = await startHeld(await ledgerOf())
    await vi.waitFor(async () => expect((await holderOf(1))?.index).toBe(1), WAIT)
    // Only the next one: item 2 waits for its turn.
    expect(await holderOf(2)).toBeUndefined()
    expect(sb.faults.release()).toBe(1)
    const job = await ended
    expect(job.items.map((it) => it.state)).toEqual(['done', 'done', 'done'])
    expect(renewed()).toEqual(names)
    for (const i of [0, 1, 2]) expect(await holderOf(i)).toBeUndefined()
  })

  it('paused while item 0 is at the service: the hold taken ahead is let go for the pause, and taken again after', async () => {
    const { names, runner, jobId, ended, holderOf, renewed } = await startHeld(await ledgerOf())
    await vi.waitFor(async () => expect((await holderOf(1))?.index).toBe(1), WAIT)
    runner.pause(jobId)
    expect(sb.faults.release()).toBe(1)
    // Item 0 ends; the worker, paused, holds nothing a colleague would wait on.
    await vi.waitFor(() => expect(renewed()).toEqual(names.slice(0, 1)), WAIT)
    await vi.waitFor(async () => expect(await holderOf(1)).toBeUndefined(), WAIT)
    expect(await holderOf(0)).toBeUndefined()
    runner.resume(jobId)
    const job = await ended
    expect(job.items.map((it) => it.state)).toEqual(['done', 'done', 'done'])
    expect(renewed()).toEqual(names)
  })

  it('stopped while item 0 is at the service: the item claimed ahead is never sent, said stopped, its hold let go', async () => {
    const { names, runner, jobId, ended, holderOf, renewed } = await startHeld(await ledgerOf())
    await vi.waitFor(async () => expect((await holderOf(1))?.index).toBe(1), WAIT)
    runner.stop(jobId)
    expect(sb.faults.release()).toBe(1)
    const job = await ended
    expect(job.status).toBe('stopped')
    expect(job.items.map((it) => [it.state, it.error?.code])).toEqual([
      ['done', undefined],
      ['skipped', 'job.stopped'],
      ['skipped', 'job.stopped'],
    ])
    expect(renewed()).toEqual(names.slice(0, 1))
    for (const i of [0, 1, 2]) expect(await holderOf(i)).toBeUndefined()
  })
})
