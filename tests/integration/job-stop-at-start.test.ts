/**
 * A stop asked while a job's start is on its way: the runner's start reads the service's log (the
 * baseline of later log checks) before the job runs, and a stop then found the job still
 * "prepared" and did nothing, so the whole job went out after it. `dns apply <folder>` starts
 * every account's job at once and stops them all at Ctrl-C (src/cli/zones.ts): none may be missed.
 * The real runner, journal and sandbox; the log read is held at the service until the stop is in.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Journal } from '../../src/main/jobs/ledger/journal-file'
import { LocalLedger } from '../../src/main/jobs/ledger/local-ledger'
import { JobRunner } from '../../src/main/jobs/runner'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { holdFolderOf } from '../helpers/held-folder'
import { renewedDomains, sandboxJobAccounts } from '../helpers/sandbox-renewals'

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ domains: 6 })
})
afterAll(() => sb.close())

const accounts = () => sandboxJobAccounts(sb)
const renewals = () => renewedDomains(sb)

describe('a job stopped while its start is on its way', () => {
  it('sends nothing: every item is skipped as stopped', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'job-stop-')), 'journal.jsonl')
    const ledger = new LocalLedger(new Journal(file, await holdFolderOf(file)))
    const runner = new JobRunner({ accounts: accounts(), ledger, logCheckDelaysMs: [60_000] })
    await runner.init()
    const names = sb.state.domains.slice(0, 3).map((d) => d.domainname)
    const before = renewals().length
    const items = names.map((domain) => ({ params: { domain, years: 1 } }))
    const { job, token } = await runner.prepare({
      accountId: 'main',
      operation: 'domains.expiration.renew',
      items,
      concurrency: 1,
    })
    sb.faults.inject('logs.list', { hold: true, times: 1 })
    const started = runner.start(job.id, token)
    await vi.waitFor(() => expect(sb.faults.held('logs.list')).toBe(1), { timeout: 30_000, interval: 20 })
    runner.stop(job.id)
    expect(sb.faults.release()).toBe(1)
    const ended = await started
    expect(ended.status).toBe('stopped')
    expect(ended.items.map((it) => [it.state, it.error?.code])).toEqual(names.map(() => ['skipped', 'job.stopped']))
    expect(renewals().slice(before)).toEqual([])
    await runner.close()
  })
})
