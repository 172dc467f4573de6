/**
 * Opening an untouched journal of 10,000 lines (issue 49 point 4): the same lines read with their
 * MAC chain checked (and the chain's end compared with the copy kept outside the file), and read
 * as a journal without a chain is read (what every start did before the chain), alternately in one
 * run. Target: the chained read within 1.1x of the plain one. The lines are a day's worth of a
 * large portfolio's renewals: 100 jobs of 49 renewals, each item sending then done.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { Journal, type JournalChainOptions } from '../src/main/jobs/ledger/journal-file'
import type { JournalTipState } from '../src/main/jobs/ledger/journal-chain'
import type { JobView } from '@shared/jobs'
import type { BenchResult } from './report'
import { median } from './stats'

const JOBS = 100
const ITEMS = 49
const ROUNDS = 15
const TARGET = 1.1

const writer = { notWriterReason: () => undefined }

function jobOf(n: number): JobView {
  return {
    id: `w-bench-${n}`,
    accountId: 'acct',
    accountName: 'Bench',
    operation: 'domains.expiration.renew',
    confirm: true,
    status: 'running',
    createdAt: '2026-11-29T07:00:00.000Z',
    startedAt: '2026-11-29T07:00:01.000Z',
    concurrency: 3,
    mark: String(n),
    logBaseline: `req-${n}`,
    items: Array.from({ length: ITEMS }, (_, i) => ({
      target: `domain=d${n}-${i}.example`,
      label: `d${n}-${i}.example`,
      params: { domain: `d${n}-${i}.example`, years: 1 },
      state: 'pending' as const,
      effect: { from: '2026-12-01', to: '2027-12-01' },
      basis: '2026-12-01',
    })),
  }
}

/** Writes the journal through the Journal itself (so its lines are what the app writes), chained or not. */
async function written(file: string, chain: JournalChainOptions | undefined): Promise<number> {
  const j = new Journal(file, writer, chain)
  // Read first, as the app does at start: appends then go on from what is there.
  await j.load()
  let lines = 0
  for (let n = 0; n < JOBS; n++) {
    const job = jobOf(n)
    await j.append({ t: 'job', job })
    lines++
    for (let i = 0; i < ITEMS; i++) {
      await j.append({
        t: 'item',
        job: job.id,
        i,
        state: 'sending',
        sentAt: '2026-11-29T07:00:02.000Z',
        sent: { method: 'PUT', path: '/v1/domains/expiration', bodyHash: `hmac-sha256:${'ab'.repeat(32)}` },
      })
      await j.append({
        t: 'item',
        job: job.id,
        i,
        state: 'done',
        requestId: `req-${n}-${i}`,
        result: { domainid: 1000 + i, domainname: `d${n}-${i}.example`, expirationdate: '2027-12-01' },
      })
      lines += 2
    }
    await j.append({ t: 'status', job: job.id, status: 'done', at: '2026-11-29T07:01:00.000Z' })
    lines++
  }
  await j.close()
  return lines
}

export async function benchJournalOpen(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-journal-'))
  try {
    const key = randomBytes(32)
    let kept: JournalTipState | undefined
    const chain = {
      keys: () => Promise.resolve([key]),
      tip: { read: () => Promise.resolve(kept), write: (s: JournalTipState) => Promise.resolve(void (kept = s)) },
    }
    const chainedFile = join(dir, 'chained.jsonl')
    const plainFile = join(dir, 'plain.jsonl')
    const lines = await written(chainedFile, chain)
    await written(plainFile, undefined)
    const chainedMs: number[] = []
    const plainMs: number[] = []
    for (let r = 0; r < ROUNDS; r++) {
      let t = performance.now()
      const a = await new Journal(chainedFile, writer, chain).load()
      chainedMs.push(performance.now() - t)
      t = performance.now()
      const b = await new Journal(plainFile, writer).load()
      plainMs.push(performance.now() - t)
      if (a.length !== JOBS || b.length !== JOBS) throw new Error('journal not read whole')
    }
    const chained = median(chainedMs)
    const plain = median(plainMs)
    const ratio = chained / plain
    return {
      name: `journal open (${lines.toLocaleString('en')} lines, median of ${ROUNDS})`,
      lines: [
        `with its MAC chain checked ${chained.toFixed(1)} ms, as a journal without one is read ${plain.toFixed(1)} ms, ratio ${ratio.toFixed(2)}x (target <= ${TARGET}x)`,
      ],
      ok: ratio <= TARGET,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
