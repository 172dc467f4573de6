/**
 * Answers at the edges (issue 25, point 7): a Retry-After too large for a timer is capped and
 * waited for, not answered by sending again at once; a write answered 200 with an answer too
 * large to keep is done (its answer not kept), never failed, which would invite a second send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../src/main/base/app-error'
import { createApiClient } from '../../src/main/http'
import { MAX_RETRY_AFTER_MS, retryAfterMs } from '../../src/main/http/client'
import { Journal } from '../../src/main/jobs/ledger/journal-file'
import { LocalLedger } from '../../src/main/jobs/ledger/local-ledger'
import { JobRunner } from '../../src/main/jobs/runner'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { liveFixture } from '../helpers/live-fixtures'
import { startReplayServer, type ReplayServer } from '../helpers/replay-server'
import { holdFolderOf } from '../helpers/held-folder'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const serverPaths = { a: 'webservers', b: 'managedservers', c: 'cloudservers' }

describe('Retry-After', () => {
  it('a value beyond what a timer can hold is capped, in seconds or as a date', () => {
    expect(retryAfterMs('99999999999')).toBe(MAX_RETRY_AFTER_MS)
    expect(retryAfterMs(new Date(Date.now() + 10 * 365 * 86_400_000).toUTCString())).toBe(MAX_RETRY_AFTER_MS)
    expect(retryAfterMs('2')).toBe(2000)
  })

  describe('from the service', () => {
    let live: ReplayServer
    beforeAll(async () => {
      live = await startReplayServer()
    })
    afterAll(() => live.close())

    it('is waited for: the call ends as rate limited when its time is up, without sending again', async () => {
      live.queue({
        status: 429,
        body: liveFixture('too-many-requests.json'),
        headers: { 'retry-after': '99999999999' },
      })
      const client = createApiClient({ baseUrl: live.url, apiKey: 'edge-key-0123456789', serverPaths, timeoutMs: 1000 })
      const before = live.received.length
      const err = await client
        .call('domains.expiration.renew', { domain: 'example-shop.com', years: 1 })
        .catch((e: unknown) => e)
      expect(err).toBeInstanceOf(AppError)
      expect(err instanceof AppError && err.kind).toBe('rate-limited')
      expect(live.received.length - before).toBe(1)
    })
  })
})

describe('a write answered 200 with an answer too large to keep', () => {
  let sb: Sandbox
  beforeAll(async () => {
    sb = await startSandbox({ domains: 4 })
  })
  afterAll(() => sb.close())

  it('is done, its answer not kept; sent once', async () => {
    const journalFile = join(mkdtempSync(join(tmpdir(), 'edges-')), 'journal.jsonl')
    const runner = new JobRunner({
      accounts: {
        // Answers over 100 bytes are not read: every transfer-lock answer here is larger.
        client: async () =>
          createApiClient({
            baseUrl: sb.url,
            apiKey: sb.keys.full,
            serverPaths: sb.serverPaths,
            maxResponseBytes: 100,
          }),
        nameOf: () => 'Main',
        readOnly: () => false,
      },
      ledger: new LocalLedger(new Journal(journalFile, await holdFolderOf(journalFile))),
    })
    await runner.init()
    const d = sb.state.domains[0]!
    const { job } = await runner.prepare({
      accountId: 'main',
      operation: 'domains.transferlock.set',
      items: [{ params: { domain: d.domainname, transfer_lock: d.transfer_lock ? 0 : 1 } }],
    })
    const done = await runner.start(job.id, undefined)
    expect(done.items[0]).toMatchObject({ state: 'done', serviceKept: [{ code: 'serviceKept.answerNotKept' }] })
    expect(sb.received.filter((r) => r.endpoint === 'domains.transferlock.set')).toHaveLength(1)
    await runner.close()
  })
})
