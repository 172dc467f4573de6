/**
 * An account's refresh (src/main/reads/refresh-account.ts) against the sandbox over loopback and
 * the store in its worker: a list is written while the next one is read, a lane holds at most one
 * read list waiting for its write, and a list that cannot be read or kept is reported while the
 * others are kept.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { refreshAccount } from '../../src/main/reads/refresh-account'
import { REFRESHED_LISTS } from '../../src/main/store/lists'
import { openStoreInWorker } from '../../src/main/store/store-worker'
import type { PortfolioStoreAsync } from '../../src/main/store/store-async'
import { startSandbox, type Sandbox } from '../../src/sandbox'

let sb: Sandbox
let store: PortfolioStoreAsync
beforeAll(async () => {
  sb = await startSandbox({ domains: 300 })
  store = await openStoreInWorker(join(mkdtempSync(join(tmpdir(), 'refresh-account-')), 'portfolio.db'))
})
afterAll(async () => {
  await store.close()
  await sb.close()
})

/** What happened, in order: a list's read and write, begun and ended. */
function watched(client: ApiClient, events: string[], failWrite?: string) {
  const reads: ApiClient = {
    ...client,
    listAll: async (name, input, opts) => {
      events.push(`read ${name}`)
      try {
        return await client.listAll(name, input, opts)
      } finally {
        events.push(`read ${name} done`)
      }
    },
  }
  const writes: Pick<PortfolioStoreAsync, 'putList'> = {
    putList: async (accountId, name, params, items, readAt) => {
      events.push(`write ${name}`)
      try {
        if (name === failWrite) throw new Error('disk full')
        return await store.putList(accountId, name, params, items, readAt)
      } finally {
        events.push(`write ${name} done`)
      }
    },
  }
  return { reads, writes }
}

describe('an account refresh', () => {
  it('writes a list while the next is read, and keeps every list', async () => {
    const events: string[] = []
    const { reads, writes } = watched(
      createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths }),
      events,
    )
    const r = await refreshAccount(reads, writes, 'acct', { listsAtOnce: 1 })
    expect(r).toEqual({ read: REFRESHED_LISTS.length, drift: 0, failed: [] })
    // One lane: the second list is asked for before the first one's write has ended.
    expect(events.indexOf(`read ${REFRESHED_LISTS[1]}`)).toBeLessThan(
      events.indexOf(`write ${REFRESHED_LISTS[0]} done`),
    )
    // And a list's write waits for the previous one's: never two writes of one lane at once.
    for (let i = 1; i < REFRESHED_LISTS.length; i++)
      expect(events.indexOf(`write ${REFRESHED_LISTS[i]}`)).toBeGreaterThan(
        events.indexOf(`write ${REFRESHED_LISTS[i - 1]} done`),
      )
    const kept = await store.getList('acct', 'domains.list', {})
    expect(kept?.items).toHaveLength(sb.state.domains.length)
  })

  it('reports a list it could not read and one it could not keep; the others are kept', async () => {
    const events: string[] = []
    const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    sb.faults.inject('domains.whois.list', { malformed: true, times: 100 })
    try {
      const { reads, writes } = watched(client, events, 'domains.dnssec.list')
      const done: number[] = []
      const r = await refreshAccount(reads, writes, 'acct-2', { onList: (n) => done.push(n) })
      expect(r.read).toBe(REFRESHED_LISTS.length - 2)
      expect(r.failed.map((f) => f.list).sort()).toEqual(['domains.dnssec.list', 'domains.whois.list'])
      expect(done).toEqual(REFRESHED_LISTS.map((_, i) => i + 1))
      expect(await store.getList('acct-2', 'domains.nameserver.list', {})).toBeDefined()
      expect(await store.getList('acct-2', 'domains.dnssec.list', {})).toBeUndefined()
    } finally {
      sb.faults.clear()
    }
  })
})
