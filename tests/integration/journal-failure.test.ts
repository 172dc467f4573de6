/**
 * A journal that cannot be written (a full disk) mid-job: nothing is sent that was not journaled
 * first, the job stops and says why, a start whose line cannot be written is not left "running",
 * and after a kill and a restart no renewal the service carried out is shown as "not sent"
 * (which would offer it again: a double charge). The real runner and sandbox; the journal's file
 * writes fail after a given number of lines, as on a disk that fills.
 */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Journal } from '../../src/main/jobs/ledger/journal-file'
import type { JournalRecord } from '../../src/main/jobs/ledger/journal-record'
import { LocalLedger } from '../../src/main/jobs/ledger/local-ledger'
import { JobRunner } from '../../src/main/jobs/runner'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import type { DataLock } from '../../src/main/base/data-lock'
import { holdFolderOf } from '../helpers/held-folder'
import type { JobView } from '@shared/jobs'
import { renewedDomains, sandboxJobAccounts } from '../helpers/sandbox-renewals'

/** A journal on a disk that fills: the first `lines` lines are written, then every write fails with ENOSPC. */
class FillingJournal extends Journal {
  written = 0
  constructor(
    file: string,
    lock: DataLock,
    private readonly lines: number,
  ) {
    super(file, lock)
  }
  override async append(r: JournalRecord): Promise<void> {
    if (this.written >= this.lines) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
    this.written++
    return super.append(r)
  }
}

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ domains: 12 })
})
afterAll(() => sb.close())

const accounts = () => sandboxJobAccounts(sb)
const renewals = () => renewedDomains(sb)

async function renew(runner: JobRunner, names: string[]): Promise<JobView> {
  const { job, token } = await runner.prepare({
    accountId: 'main',
    operation: 'domains.expiration.renew',
    items: names.map((domain) => ({ params: { domain, years: 1 } })),
    concurrency: 1,
  })
  return runner.start(job.id, token)
}

describe('a journal that cannot be written', () => {
  it('mid-job: nothing unjournaled is sent, the job stops and says why; after a restart, what the service renewed is never shown as not sent', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'journal-full-')), 'journal.jsonl')
    // The job's line, then item 1 sending and done, item 2 sending: then the disk is full.
    const lock = await holdFolderOf(file)
    const journal = new FillingJournal(file, lock, 4)
    const runner = new JobRunner({ accounts: accounts(), ledger: new LocalLedger(journal), logCheckDelaysMs: [60_000] })
    await runner.init()
    const names = sb.state.domains.slice(0, 5).map((d) => d.domainname)
    const before = renewals().length
    const job = await renew(runner, names)
    const sent = renewals().slice(before)
    expect(sent).toEqual(names.slice(0, 2))
    expect(job.status).toBe('stopped')
    expect(job.items.map((it) => it.state)).toEqual(['done', 'done', 'skipped', 'skipped', 'skipped'])
    expect(
      job.items
        .slice(2)
        .every((it) => it.error?.code === 'job.journalUnwritable' && it.error.params?.reason === 'ENOSPC'),
    ).toBe(true)
    expect(runner.running()).toEqual([])
    await runner.close()
    // What reached the disk: the job's line and three item lines, written before it filled.
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(4)

    // Killed and started again on what reached the disk.
    await lock.release()
    const restartLock = await holdFolderOf(file)
    const restarted = new JobRunner({
      accounts: accounts(),
      ledger: new LocalLedger(new Journal(file, restartLock)),
      logCheckDelaysMs: [60_000],
    })
    await restarted.init()
    const again = restarted.list().find((j) => j.id === job.id)!
    const states = again.items.map((it) => it.state)
    // Renewed by the service: done or unknown (to be checked), never "not sent".
    for (const [i, name] of names.entries()) if (sent.includes(name)) expect(states[i], name).toMatch(/done|unknown/)
    expect(states.slice(2)).toEqual(['skipped', 'skipped', 'skipped'])
    await restarted.close()
    await restartLock.release()
  })

  it('at the start: the job is not left running, and nothing is sent', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'journal-full-')), 'journal.jsonl')
    const lock = await holdFolderOf(file)
    const runner = new JobRunner({
      accounts: accounts(),
      ledger: new LocalLedger(new FillingJournal(file, lock, 0)),
      logCheckDelaysMs: [60_000],
    })
    const before = renewals().length
    await expect(renew(runner, [sb.state.domains[6]!.domainname])).rejects.toMatchObject({
      data: { code: 'job.journalUnwritable' },
    })
    expect(runner.running()).toEqual([])
    expect(renewals().length).toBe(before)
    await runner.close()
    await lock.release()
  })

  it('a damaged journal: the file as read is kept aside before the rewrite drops its unreadable lines, and the job it could read stays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-damaged-'))
    const file = join(dir, 'journal.jsonl')
    const firstLock = await holdFolderOf(file)
    const first = new JobRunner({
      accounts: accounts(),
      ledger: new LocalLedger(new Journal(file, firstLock)),
      logCheckDelaysMs: [60_000],
    })
    await first.init()
    const job = await renew(first, [sb.state.domains[8]!.domainname])
    await first.close()
    await firstLock.release()
    // A torn last line, as a power cut leaves it.
    appendFileSync(file, '{"t":"item","jobId":"' + job.id + '","i":0,"sta')
    const asRead = readFileSync(file, 'utf8')
    const restartLock = await holdFolderOf(file)
    const restarted = new JobRunner({
      accounts: accounts(),
      ledger: new LocalLedger(new Journal(file, restartLock)),
      logCheckDelaysMs: [60_000],
      now: () => new Date('2026-11-24T10:00:00Z'),
    })
    await restarted.init()
    expect(restarted.journalDamaged).toEqual({ movedTo: `${file}.damaged-2026-11-24T10-00-00-000Z`, lines: 1 })
    expect(readFileSync(restarted.journalDamaged!.movedTo, 'utf8')).toBe(asRead)
    // (beside the folder's lock: in-use.db and in-use.lock)
    expect(
      readdirSync(dir)
        .filter((f) => !f.startsWith('in-use.'))
        .sort(),
    ).toEqual(['journal.jsonl', 'journal.jsonl.damaged-2026-11-24T10-00-00-000Z'])
    expect(restarted.list().map((j) => j.id)).toContain(job.id)
    expect(readFileSync(file, 'utf8')).not.toContain('"sta\n')
    await restarted.close()
    await restartLock.release()
  })
})
