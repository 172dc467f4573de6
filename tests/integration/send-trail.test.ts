/**
 * A send's end trails its worker's next claim (issue 54 point 4, send-item.ts SendTrail): the next
 * item's hold is taken while the last send's end is still being journaled (in team mode the claim
 * is a round trip of its own, which no longer waits for the end's durable commit), but its own
 * "sending" record, and so its send, waits for that end; and an end that cannot be written stops
 * the job before the next send, whose hold is let go. The real runner, local ledger and sandbox;
 * the ledger records the order of its steps and holds the first end back.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JobView } from '@shared/jobs'
import { Journal } from '../../src/main/jobs/ledger/journal-file'
import type { JournalRecord } from '../../src/main/jobs/ledger/journal-record'
import { LocalLedger } from '../../src/main/jobs/ledger/local-ledger'
import type {
  BeginSend,
  ClaimResult,
  SendPrecondition,
  TargetLease,
  TargetRef,
} from '../../src/main/jobs/ledger/write-ledger'
import { JobRunner } from '../../src/main/jobs/runner'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { holdFolderOf } from '../helpers/held-folder'
import { renewalOf, renewedDomains, sandboxJobAccounts } from '../helpers/sandbox-renewals'

/** How long the first end waits for the next item's claim at most: without the trail, the claim never comes first. */
const WAIT_FOR_CLAIM_MS = 5_000

/** A local ledger that says in which order its steps came, and holds the end of item 0 until item 1 is claimed (bounded). */
class OrderedLedger extends LocalLedger {
  readonly steps: string[] = []
  private claimedNext: () => void = () => undefined
  private readonly nextClaimed = new Promise<void>((resolve) => (this.claimedNext = resolve))

  constructor(
    journal: Journal,
    private readonly failFirstEnd = false,
  ) {
    super(journal)
  }

  override claim(
    ref: TargetRef,
    owner: { jobId: string; index: number },
    opts?: { overUnknown?: boolean; precondition?: SendPrecondition | undefined },
  ): Promise<ClaimResult> {
    this.steps.push(`claim ${owner.index}`)
    if (owner.index === 1) this.claimedNext()
    return super.claim(ref, owner, opts)
  }

  override async beginSend(record: JournalRecord, lease: TargetLease, p: SendPrecondition): Promise<BeginSend> {
    this.steps.push(`begin ${lease.index}`)
    return super.beginSend(record, lease, p)
  }

  override async end(record: JournalRecord, lease: TargetLease, outcome: 'free' | 'unknown', job: JobView) {
    if (lease.index === 0) {
      let timer: NodeJS.Timeout | undefined
      await Promise.race([
        this.nextClaimed,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, WAIT_FOR_CLAIM_MS))),
      ])
      clearTimeout(timer)
      if (this.failFirstEnd) {
        this.steps.push('end 0 failed')
        throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
      }
    }
    await super.end(record, lease, outcome, job)
    this.steps.push(`end ${lease.index}`)
  }
}

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ domains: 12 })
})
afterAll(() => sb.close())

const accounts = () => sandboxJobAccounts(sb)
const renewals = () => renewedDomains(sb)

async function renewWith(ledger: (journal: Journal) => OrderedLedger, names: string[]) {
  const file = join(mkdtempSync(join(tmpdir(), 'send-trail-')), 'journal.jsonl')
  const lock = await holdFolderOf(file)
  const l = ledger(new Journal(file, lock))
  const runner = new JobRunner({ accounts: accounts(), ledger: l, logCheckDelaysMs: [60_000] })
  try {
    await runner.init()
    const { job, token } = await runner.prepare(renewalOf(names))
    const ended = await runner.start(job.id, token)
    const held = await Promise.all(
      names.map((target) => l.holderOf({ accountId: 'main', operation: 'domains.expiration.renew', target })),
    )
    return { job: ended, steps: l.steps, held }
  } finally {
    await runner.close()
    await lock.release()
  }
}

describe("a send's end and its worker's next item", () => {
  it('the next item is claimed while the end is journaled; its send waits for the end', async () => {
    const names = sb.state.domains.slice(0, 3).map((d) => d.domainname)
    const before = renewals().length
    const { job, steps } = await renewWith((j) => new OrderedLedger(j), names)
    expect(job.items.map((it) => it.state)).toEqual(['done', 'done', 'done'])
    expect(renewals().slice(before)).toEqual(names)
    // Claimed beside the end, not after it...
    expect(steps.indexOf('claim 1')).toBeGreaterThan(steps.indexOf('begin 0'))
    expect(steps.indexOf('claim 1')).toBeLessThan(steps.indexOf('end 0'))
    // ...but journaled as sending (and sent) only once the end is written.
    expect(steps.indexOf('begin 1')).toBeGreaterThan(steps.indexOf('end 0'))
    expect(steps.indexOf('begin 2')).toBeGreaterThan(steps.indexOf('end 1'))
  })

  it('an end that cannot be written: the item claimed beside it is not sent, its hold let go; the job stops and says why', async () => {
    const names = sb.state.domains.slice(3, 6).map((d) => d.domainname)
    const before = renewals().length
    const { job, steps, held } = await renewWith((j) => new OrderedLedger(j, true), names)
    expect(renewals().slice(before)).toEqual(names.slice(0, 1))
    expect(steps).toContain('end 0 failed')
    expect(steps).not.toContain('begin 1')
    expect(job.status).toBe('stopped')
    expect(job.items.slice(1).map((it) => [it.state, it.error?.code])).toEqual([
      ['skipped', 'job.journalUnwritable'],
      ['skipped', 'job.journalUnwritable'],
    ])
    // Item 1's hold, taken beside the failing end, is let go: nothing holds its target.
    expect(held[1]).toBeUndefined()
  })
})
