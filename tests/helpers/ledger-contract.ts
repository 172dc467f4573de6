/**
 * What every write ledger must do (src/main/jobs/ledger/write-ledger.ts), as one suite: run it
 * for the local ledger here, and for any other ledger (a team database) through the same function.
 * `fresh` gives an empty ledger; `reopen` the same journal as a restarted process would read it.
 */
import { describe, expect, it } from 'vitest'
import type { JobView } from '@shared/jobs'
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

    it.skipIf(!factory.oneProcessJournal)(
      `after a compaction holds only the jobs given${ONE_PROCESS_ONLY}`,
      async () => {
        const ledger = await factory.fresh()
        await ledger.append({ t: 'job', job: jobOf('one', 'done', 'done') })
        await ledger.append({ t: 'job', job: jobOf('two', 'done', 'done') })
        const kept = (await ledger.load()).filter((j) => j.id === 'two')
        await ledger.compact(kept)
        await ledger.append({ t: 'job', job: jobOf('three', 'done', 'done') })
        const again = await factory.reopen(ledger)
        expect((await again.load()).map((j) => j.id)).toEqual(['two', 'three'])
        await again.close()
      },
    )
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
      expect(await ledger.claim(ref('a.example'), { jobId: 'j2', index: 0 })).toMatchObject({
        ok: false,
        heldBy: { state: 'unknown' },
      })
      const over = await ledger.claim(ref('a.example'), { jobId: 'j2', index: 0 }, { overUnknown: true })
      expect(over.ok).toBe(true)
      if (over.ok) await ledger.release(over.lease, 'unknown')
      // Settled from the service's log: with the entry of its request as evidence.
      await ledger.settle(ref('a.example'), { how: 'done', requestId: 'req-settled' })
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
      expect(holders.map((h) => h && [h.jobId, h.index, h.state])).toEqual([
        undefined,
        ['j1', 0, 'sending'],
        undefined,
        ['j1', 2, 'unknown'],
        undefined,
      ])
      expect(await ledger.holdersOf([])).toEqual([])
      await ledger.close()
    })

    it("a send's end journals its item and lets its hold go in one step: free, or held as unknown", async () => {
      const ledger = await factory.fresh()
      const job = {
        ...jobOf('ends', 'running', 'pending'),
        items: [0, 1].map((n) => ({
          target: `e${n}.example`,
          label: `e${n}.example`,
          params: { domain: `e${n}.example` },
          state: 'pending' as const,
        })),
      }
      await ledger.append({ t: 'job', job })
      const done = await ledger.claim(ref('e0.example'), { jobId: 'ends', index: 0 })
      const lost = await ledger.claim(ref('e1.example'), { jobId: 'ends', index: 1 })
      if (!done.ok || !lost.ok) throw new Error('not claimed')
      const ended = {
        ...job,
        items: [
          { ...job.items[0]!, state: 'done' as const, requestId: 'r-e0' },
          { ...job.items[1]!, state: 'unknown' as const },
        ],
      }
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

    it.skipIf(!factory.oneProcessJournal)(
      `after a restart, a send journaled as unknown or cut off while sending holds its target as unknown${ONE_PROCESS_ONLY}`,
      async () => {
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
      },
    )
  })

  describe(`${name}: once per intent (the preconditions under the hold)`, () => {
    /** A job of n items, appended, its items' targets p0.example... */
    async function jobWith(ledger: WriteLedger, id: string, targets: string[]): Promise<JobView> {
      const j: JobView = {
        ...jobOf(id, 'running', 'pending'),
        items: targets.map((t) => ({ target: t, label: t, params: { domain: t }, state: 'pending' as const })),
      }
      await ledger.append({ t: 'job', job: j })
      return j
    }
    /** Sends item i of a job to its end: claimed, begun, ended as `state`. */
    async function sendTo(
      ledger: WriteLedger,
      j: JobView,
      i: number,
      state: 'done' | 'failed',
      basis?: string,
    ): Promise<void> {
      const c = await ledger.claim(
        ref(j.items[i]!.target),
        { jobId: j.id, index: i },
        { precondition: { since: undefined, basis } },
      )
      if (!c.ok) throw new Error('not claimed')
      expect(
        await ledger.beginSend({ t: 'item', job: j.id, i, state: 'sending' }, c.lease, { since: undefined }),
      ).toEqual({ ok: true })
      await ledger.end({ t: 'item', job: j.id, i, state, requestId: `req-${j.id}-${i}` }, c.lease, 'free', {
        ...j,
        items: j.items.map((it, n) => (n === i ? { ...it, state } : it)),
      })
    }

    it("a send of the target that ended done after a job's mark refuses the job's send, saying which; one that ended before the mark does not", async () => {
      const ledger = await factory.fresh()
      const early = await jobWith(ledger, 'early', ['p1.example'])
      await sendTo(ledger, early, 0, 'done')
      const mark = await ledger.mark()
      const colleague = await jobWith(ledger, 'colleague', ['p1.example', 'p2.example'])
      const mine = await jobWith(ledger, 'mine', ['p1.example', 'p2.example'])
      // Before anyone sends since the mark: it holds (the earlier renewal was read with the confirmation).
      const first = await ledger.claim(
        ref('p1.example'),
        { jobId: 'mine', index: 0 },
        { precondition: { since: mark } },
      )
      if (!first.ok) throw new Error('not claimed')
      expect(await ledger.precondition(first.lease, { since: mark })).toEqual({ holds: true })
      await ledger.release(first.lease, 'free')
      // A colleague's renewal ends after the mark: the same target is refused, naming that send.
      await sendTo(ledger, colleague, 0, 'done')
      const again = await ledger.claim(
        ref('p1.example'),
        { jobId: 'mine', index: 0 },
        { precondition: { since: mark } },
      )
      if (!again.ok) throw new Error('not claimed')
      expect(await ledger.precondition(again.lease, { since: mark })).toMatchObject({
        holds: false,
        moved: { jobId: 'colleague', index: 0 },
      })
      expect(
        await ledger.beginSend({ t: 'item', job: 'mine', i: 0, state: 'sending' }, again.lease, { since: mark }),
      ).toMatchObject({ ok: false, moved: { jobId: 'colleague', index: 0 } })
      await ledger.release(again.lease, 'free')
      // A send that failed moves nothing.
      await sendTo(ledger, colleague, 1, 'failed')
      const other = await ledger.claim(
        ref('p2.example'),
        { jobId: 'mine', index: 1 },
        { precondition: { since: mark } },
      )
      if (!other.ok) throw new Error('not claimed')
      expect(await ledger.precondition(other.lease, { since: mark })).toEqual({ holds: true })
      expect(
        await ledger.beginSend({ t: 'item', job: 'mine', i: 1, state: 'sending' }, other.lease, { since: mark }),
      ).toEqual({ ok: true })
      await ledger.release(other.lease, 'free')
      void mine
      await ledger.close()
    })

    it('a done send from the same basis refuses, whatever the mark; without a mark the ledger cannot tell', async () => {
      const ledger = await factory.fresh()
      const j = await jobWith(ledger, 'based', ['b1.example'])
      await sendTo(ledger, j, 0, 'done', '2027-01-01')
      const mark = await ledger.mark()
      const mine = await jobWith(ledger, 'same-basis', ['b1.example'])
      const c = await ledger.claim(
        ref('b1.example'),
        { jobId: mine.id, index: 0 },
        { precondition: { since: mark, basis: '2027-01-01' } },
      )
      if (!c.ok) throw new Error('not claimed')
      expect(await ledger.precondition(c.lease, { since: mark, basis: '2027-01-01' })).toMatchObject({
        holds: false,
        moved: { jobId: 'based' },
      })
      expect(await ledger.precondition(c.lease, { since: mark, basis: '2028-01-01' })).toEqual({ holds: true })
      expect(await ledger.precondition(c.lease, { since: undefined })).toEqual({ holds: false, unsure: 'noMark' })
      await ledger.release(c.lease, 'free')
      await ledger.close()
    })

    it('a second send over an unknown outcome makes a later send of the target unsure: nobody can tell whether the first was done', async () => {
      const ledger = await factory.fresh()
      const j = await jobWith(ledger, 'lost', ['u1.example'])
      const c = await ledger.claim(ref('u1.example'), { jobId: j.id, index: 0 })
      if (!c.ok) throw new Error('not claimed')
      await ledger.release(c.lease, 'unknown')
      const mark = await ledger.mark()
      const over = await ledger.claim(
        ref('u1.example'),
        { jobId: 'over', index: 0 },
        { overUnknown: true, precondition: { since: mark } },
      )
      if (!over.ok) throw new Error('not claimed')
      expect(await ledger.precondition(over.lease, { since: mark })).toEqual({ holds: false, unsure: 'unsettled' })
      await ledger.release(over.lease, 'free')
      await ledger.close()
    })

    it('the other sends of a target: the request ids of those that ended, and how many are on their way with none', async () => {
      const ledger = await factory.fresh()
      const since = new Date(Date.now() - 60_000).toISOString()
      const j = await jobWith(ledger, 'others', ['o1.example'])
      const k = await jobWith(ledger, 'others-2', ['o1.example'])
      await sendTo(ledger, j, 0, 'done')
      expect(await ledger.otherSends(ref('o1.example'), { jobId: 'others-2', index: 0 }, since)).toEqual({
        requestIds: ['req-others-0'],
        withoutId: 0,
      })
      expect(await ledger.otherSends(ref('o1.example'), { jobId: 'others', index: 0 }, since)).toEqual({
        requestIds: [],
        withoutId: 0,
      })
      const c = await ledger.claim(ref('o1.example'), { jobId: 'others-3', index: 0 })
      if (!c.ok) throw new Error('not claimed')
      expect(await ledger.otherSends(ref('o1.example'), { jobId: 'others-2', index: 0 }, since)).toEqual({
        requestIds: ['req-others-0'],
        withoutId: 1,
      })
      await ledger.release(c.lease, 'free')
      void k
      await ledger.close()
    })

    it('settled stays settled: a record that would move an item back from done is not taken', async () => {
      const ledger = await factory.fresh()
      const j = await jobWith(ledger, 'settled', ['s1.example'])
      await sendTo(ledger, j, 0, 'done')
      await ledger.append({ t: 'item', job: 'settled', i: 0, state: 'unknown' })
      const again = await factory.reopen(ledger)
      expect((await again.load()).find((x) => x.id === 'settled')?.items[0]?.state).toBe('done')
      await again.close()
    })
  })
}
