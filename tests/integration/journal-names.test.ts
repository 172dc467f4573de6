/**
 * A journal written before "stored" became the local store's word only: what the service kept was
 * journaled as `stored`, with `stored.*` codes and the kept value as `params.stored`. The app reads
 * such a journal under today's names and loses none of what it found; a line of today reads back
 * as it was written.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Journal } from '../../src/main/jobs/ledger/journal-file'
import { itemRecord } from '../../src/main/jobs/ledger/journal-record'
import type { JobView } from '@shared/jobs'
import { holdFolderOf } from '../helpers/held-folder'

const job = (items: JobView['items']): JobView => ({
  id: 'job-1',
  accountId: 'acct',
  accountName: 'Main',
  operation: 'domains.dns.set',
  confirm: true,
  status: 'running',
  createdAt: '2026-11-01T00:00:00.000Z',
  concurrency: 1,
  items,
})
const item = {
  target: 'example.com',
  label: 'example.com',
  params: { domain: 'example.com' },
  state: 'pending' as const,
}
const fileWith = (lines: unknown[]): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'journal-names-')), 'journal.jsonl')
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
  return file
}

describe('a journal with the older names', () => {
  it("reads an item line and a job line that name the findings `stored` under today's names", async () => {
    const file = fileWith([
      {
        t: 'job',
        job: {
          ...job([item, item]),
          items: [{ ...item, state: 'done', stored: [{ code: 'stored.commentsDropped', params: { count: 2 } }] }, item],
        },
      },
      {
        t: 'item',
        job: 'job-1',
        i: 1,
        state: 'done',
        stored: [
          { code: 'stored.ttlChanged', params: { sent: 60, stored: 3600 } },
          { code: 'stored.linesReordered', params: {} },
        ],
      },
    ])
    const journal = new Journal(file, await holdFolderOf(file))
    const [loaded] = await journal.load()
    expect(journal.unreadableLines).toBe(0)
    expect(loaded!.items[0]!.serviceKept).toEqual([{ code: 'serviceKept.commentsDropped', params: { count: 2 } }])
    expect(loaded!.items[1]!.serviceKept).toEqual([
      { code: 'serviceKept.ttlChanged', params: { sent: 60, kept: 3600 } },
      { code: 'serviceKept.linesReordered', params: {} },
    ])
    expect(loaded!.items[1]).not.toHaveProperty('stored')
  })

  it('reads a line of today as it was written, and still refuses a code it does not know', async () => {
    const findings = [
      { code: 'serviceKept.valueChanged' as const, params: { field: 'ns_type', sent: 'svc1', kept: 'svc11' } },
    ]
    const file = fileWith([
      { t: 'job', job: job([item, item]) },
      itemRecord('job-1', 0, { ...item, state: 'done', serviceKept: findings }),
      { t: 'item', job: 'job-1', i: 1, state: 'done', stored: [{ code: 'stored.somethingNew', params: {} }] },
    ])
    const journal = new Journal(file, await holdFolderOf(file))
    const [loaded] = await journal.load()
    expect(loaded!.items[0]!.serviceKept).toEqual(findings)
    expect(loaded!.items[1]!.state).toBe('pending')
    expect(journal.unreadableLines).toBe(1)
  })
})
