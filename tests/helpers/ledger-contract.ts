/**
 * What every write ledger must do (src/main/jobs/ledger/write-ledger.ts), as one suite: run it
 * for the local ledger here, and for any other ledger (a team database) through the same function.
 * `fresh` gives an empty ledger; `reopen` the same journal as a restarted process would read it.
 */
import { describe, expect, it } from 'vitest'
import type { JobView } from '../../src/shared/jobs'
import type { TargetRef, WriteLedger } from '../../src/main/jobs/ledger/write-ledger'

export interface LedgerFactory {
  fresh(): Promise<WriteLedger>
  reopen(ledger: WriteLedger): Promise<WriteLedger>
  /**
   * What only a ledger of one process's journal does: a compaction that drops every job not
   * given (a team's journal holds the other workstations' jobs too, so its compaction keeps
   * them), and holds rebuilt from the journal's lines at a restart (a team's holds are lease
   * rows: a workstation cut off while sending leaves its lease, which turns unknown when it runs
   * out; tests/integration/team-processes.test.ts kills one to show it).
   */
  oneProcessJournal: boolean
}

/**
 * Said in the title of the cases only a one-process journal has, so a skip reads why: a shared
 * journal (the team's) is never compacted or restarted by one process; its own crash cases are in
 * tests/integration/team-processes.test.ts.
 */
const ONE_PROCESS_ONLY = ' (a one-process journal only: skipped for a shared one, see team-processes.test.ts)'

const ref = (target: string): TargetRef => ({ accountId: 'acc', operation: 'domains.autorenew.set', target })

function jobOf(id: string, status: JobView['status'], state: JobView['items'][number]['state']): JobView {
  return {
    id,
    accountId: 'acc',
    accountName: 'Account',
    operation: 'domains.autorenew.set',
    confirm: false,
    status,
    createdAt: '2026-11-26T10:00:00.000Z',
    concurrency: 1,
    items: [{ target: `t-${id}`, label: `t-${id}`, params: { domain: `t-${id}` }, state }],
  }
}

export function ledgerContract(name: string, factory: LedgerFactory): void {
  describe(`${name}: the journal`, () => {
    it('gives back every job appended, oldest first, with the items as they ended', async () => {
      const ledger = await factory.fresh()
      await ledger.append({ t: 'job', job: jobOf('one', 'running', 'pending') })
      await ledger.append({ t: 'item', job: 'one', i: 0, state: 'done', requestId: 'r-1' })
      await ledger.append({ t: 'status', job: 'one', status: 'done', at: '2026-11-26T10:01:00.000Z' })
      await ledger.append({ t: 'job', job: jobOf('two', 'running', 'pending') })
      const again = await factory.reopen(ledger)
      const jobs = await again.load()
      expect(jobs.map((j) => [j.id, j.status, j.items[0]?.state, j.items[0]?.requestId])).toEqual([
        ['one', 'done', 'done', 'r-1'],
        ['two', 'running', 'pending', undefined],
      ])
      expect(again.unreadableLines).toBe(0)
      await again.close()
    })

    it.skipIf(!factory.oneProcessJournal)(`after a compaction holds only the jobs given${ONE_PROCESS_ONLY}`, async () => {
      const ledger = await factory.fresh()
      await ledger.append({ t: 'job', job: jobOf('one', 'done', 'done') })
      await ledger.append({ t: 'job', job: jobOf('two', 'done', 'done') })
      const kept = (await ledger.load()).filter((j) => j.id === 'two')
      await ledger.compact(kept)
      await ledger.append({ t: 'job', job: jobOf('three', 'done', 'done') })
      const again = await factory.reopen(ledger)
      expect((await again.load()).map((j) => j.id)).toEqual(['two', 'three'])
      await again.close()
    })
  })

  describe(`${name}: the per-target holds`, () => {
    it('one send at a time per target: a second claim is refused with who holds it, until released', async () => {
      const ledger = await factory.fresh()
      const first = await ledger.claim(ref('a.example'), { jobId: 'j1', index: 0 })
      expect(first.ok).toBe(true)
      const second = await ledger.claim(ref('a.example'), { jobId: 'j2', index: 0 }, { overUnknown: true })
      expect(second).toMatchObject({ ok: false, heldBy: { jobId: 'j1', index: 0, state: 'sending' } })
      // Another target, or the same target in another account, is free.
      expect((await ledger.claim(ref('b.example'), { jobId: 'j2', index: 1 })).ok).toBe(true)
      expect((await ledger.claim({ ...ref('a.example'), accountId: 'other' }, { jobId: 'j3', index: 0 })).ok).toBe(true)
      if (!first.ok) return
      expect(await ledger.stillHeld(first.lease)).toBe(true)
      await ledger.release(first.lease, 'free')
      expect(await ledger.holderOf(ref('a.example'))).toBeUndefined()
      expect((await ledger.claim(ref('a.example'), { jobId: 'j2', index: 0 })).ok).toBe(true)
      await ledger.close()
    })

    it('an unknown outcome keeps the target held until settled, unless a second send is asked for knowing the risk', async () => {
      const ledger = await factory.fresh()
      const first = await ledger.claim(ref('a.example'), { jobId: 'j1', index: 0 })
      if (!first.ok) throw new Error('not claimed')
      await ledger.release(first.lease, 'unknown')
      expect(await ledger.holderOf(ref('a.example'))).toMatchObject({ jobId: 'j1', index: 0, state: 'unknown' })
      expect((await ledger.unknownTargets()).map((u) => u.ref.target)).toEqual(['a.example'])
      expect(await ledger.claim(ref('a.example'), { jobId: 'j2', index: 0 })).toMatchObject({ ok: false, heldBy: { state: 'unknown' } })
      const over = await ledger.claim(ref('a.example'), { jobId: 'j2', index: 0 }, { overUnknown: true })
      expect(over.ok).toBe(true)
      if (over.ok) await ledger.release(over.lease, 'unknown')
      await ledger.settle(ref('a.example'))
      expect(await ledger.holderOf(ref('a.example'))).toBeUndefined()
      expect(await ledger.unknownTargets()).toEqual([])
      await ledger.close()
    })

    it('who holds each of many targets, in their order, in one ask: a send on its way, an unknown outcome, or no one', async () => {
      const ledger = await factory.fresh()
      const sending = await ledger.claim(ref('h1.example'), { jobId: 'j1', index: 0 })
      const lost = await ledger.claim(ref('h3.example'), { jobId: 'j1', index: 2 })
      if (!sending.ok || !lost.ok) throw new Error('not claimed')
      await ledger.release(lost.lease, 'unknown')
      const asked = ['h0.example', 'h1.example', 'h2.example', 'h3.example'].map(ref)
      const holders = await ledger.holdersOf([...asked, { ...ref('h1.example'), accountId: 'other' }])
      expect(holders.map((h) => h && [h.jobId, h.index, h.state])).toEqual([undefined, ['j1', 0, 'sending'], undefined, ['j1', 2, 'unknown'], undefined])
      expect(await ledger.holdersOf([])).toEqual([])
      await ledger.close()
    })

    it("a send's end journals its item and lets its hold go in one step: free, or held as unknown", async () => {
      const ledger = await factory.fresh()
      const job = { ...jobOf('ends', 'running', 'pending'), items: [0, 1].map((n) => ({ target: `e${n}.example`, label: `e${n}.example`, params: { domain: `e${n}.example` }, state: 'pending' as const })) }
      await ledger.append({ t: 'job', job })
      const done = await ledger.claim(ref('e0.example'), { jobId: 'ends', index: 0 })
      const lost = await ledger.claim(ref('e1.example'), { jobId: 'ends', index: 1 })
      if (!done.ok || !lost.ok) throw new Error('not claimed')
      const ended = { ...job, items: [{ ...job.items[0]!, state: 'done' as const, requestId: 'r-e0' }, { ...job.items[1]!, state: 'unknown' as const }] }
      await ledger.end({ t: 'item', job: 'ends', i: 0, state: 'done', requestId: 'r-e0' }, done.lease, 'free', ended)
      await ledger.end({ t: 'item', job: 'ends', i: 1, state: 'unknown' }, lost.lease, 'unknown', ended)
      expect(await ledger.holderOf(ref('e0.example'))).toBeUndefined()
      expect(await ledger.holderOf(ref('e1.example'))).toMatchObject({ jobId: 'ends', index: 1, state: 'unknown' })
      const again = await factory.reopen(ledger)
      const read = (await again.load()).find((j) => j.id === 'ends')
      expect(read?.items.map((it) => [it.state, it.requestId])).toEqual([
        ['done', 'r-e0'],
        ['unknown', undefined],
      ])
      await again.close()
    })

    it.skipIf(!factory.oneProcessJournal)(`after a restart, a send journaled as unknown or cut off while sending holds its target as unknown${ONE_PROCESS_ONLY}`, async () => {
      const ledger = await factory.fresh()
      await ledger.append({ t: 'job', job: jobOf('cut', 'running', 'pending') })
      await ledger.append({ t: 'item', job: 'cut', i: 0, state: 'sending' })
      await ledger.append({ t: 'job', job: jobOf('unk', 'done', 'unknown') })
      await ledger.append({ t: 'job', job: jobOf('fine', 'done', 'done') })
      const again = await factory.reopen(ledger)
      await again.load()
      const unknown = await again.unknownTargets()
      expect(unknown.map((u) => [u.ref.target, u.holder.jobId, u.holder.state]).sort()).toEqual([
        ['t-cut', 'cut', 'unknown'],
        ['t-unk', 'unk', 'unknown'],
      ])
      expect(await again.holderOf(ref('t-fine'))).toBeUndefined()
      await again.close()
    })
  })
}
