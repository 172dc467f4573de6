/**
 * Ten accounts of 10,000 domains each (issue 26, point 3), in the BUILT main bundle against the
 * electron double: the window's first paint and the services' first answer at start, the active
 * account's domain list painted from the store, the command palette's search across all ten
 * accounts (median and longest of typical queries), and main's memory (its process's resident
 * size, the store's worker thread included) after start and after each of five rounds of
 * visiting every account's screens, which must not keep growing.
 * Not measured here: a refresh of all ten accounts against the service.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openPortfolioStore, portfolioFileOf } from '../src/main/store'
import { DEMO_ACCOUNT_ID } from '@shared/accounts'
import { ipcChannel } from '@shared/ipc/channels'
import { accountLists, putAccount } from '../support/portfolio-data'
import { startBuiltShell } from '../support/built-shell'
import type { BenchResult } from './report'
import { startTimes } from './startup'
import { median } from './stats'

const ACCOUNTS = 10
const DOMAINS = 10_000
const ROUNDS = 5
const PALETTE_TARGET_MS = 30
const PAINT_TARGET_MS = 300
const accountId = (n: number) => (n === 0 ? DEMO_ACCOUNT_ID : `account-${n}`)

export async function benchTenAccounts(): Promise<BenchResult> {
  const dir = await mkdtemp(join(tmpdir(), 'ten-accounts-'))
  const lines: string[] = []
  try {
    const store = openPortfolioStore(portfolioFileOf(dir))
    const readAt = new Date().toISOString()
    const names: string[][] = []
    for (let n = 0; n < ACCOUNTS; n++) {
      const lists = accountLists({ seed: 31 + n, domains: DOMAINS })
      names.push([lists.domains[17]!.domainname, lists.domains[4242]!.domainname])
      putAccount(store, accountId(n), lists, readAt)
    }
    store.close()

    const shell = await startBuiltShell({ userDataDir: dir, exposeGc: true })
    try {
      const { paintMs, answeredMs } = await startTimes(shell)

      const call = async (channel: Parameters<typeof ipcChannel>[0], payload: unknown) => {
        const t = performance.now()
        const r = await shell.invoke(ipcChannel(channel), payload)
        if (!r?.ok) throw new Error(`${channel} failed: ${JSON.stringify(r)}`)
        return performance.now() - t
      }
      const listMs = await call('store.list', { accountId: DEMO_ACCOUNT_ID, name: 'domains.list', params: {} })
      const atStart = await shell.memory()

      const queries = names
        .flatMap(([whole, other]) => [whole!, other!.slice(0, 6)])
        .concat(['192.0.2.10', '2001:db8::', 'mail'])
      const searches: number[] = []
      const rounds: { rss: number; heapUsed: number }[] = []
      for (let round = 0; round < ROUNDS; round++) {
        for (let n = 0; n < ACCOUNTS; n++) {
          for (const name of [
            'domains.list',
            'domains.expiration.list',
            'domains.autorenew.list',
            'domains.transferlock.list',
            'svcips.list',
          ]) {
            await call('store.list', { accountId: accountId(n), name, params: {} })
          }
        }
        for (const query of queries) searches.push(await call('store.search', { query }))
        rounds.push(await shell.memory())
      }
      const paletteMedian = median(searches)
      const ok = paintMs <= PAINT_TARGET_MS && paletteMedian <= PALETTE_TARGET_MS
      const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)}`
      const heapGrowth = rounds.at(-1)!.heapUsed - rounds[0]!.heapUsed
      lines.push(
        `${ACCOUNTS} accounts x ${DOMAINS.toLocaleString('en')} domains in the store`,
        `first paint ${paintMs.toFixed(0)} ms after app ready (target <= ${PAINT_TARGET_MS} ms); services answered the first call after ${answeredMs.toFixed(0)} ms`,
        `the active account's domain list from the store: ${listMs.toFixed(0)} ms (main's answer, warmed at start)`,
        `palette search over all accounts: median ${paletteMedian.toFixed(1)} ms, longest ${Math.max(...searches).toFixed(1)} ms, ${searches.length} searches (target median <= ${PALETTE_TARGET_MS} ms)`,
        `main's memory after start: RSS ${mb(atStart.rss)} MB, heap ${mb(atStart.heapUsed)} MB (the store's worker thread is in the RSS, not in the heap)`,
        `  after each of ${ROUNDS} rounds of every account's screens and the searches: RSS ${rounds.map((r) => mb(r.rss)).join(', ')} MB; heap ${rounds.map((r) => mb(r.heapUsed)).join(', ')} MB${atStart.collected ? ' (after a full collection)' : ''}`,
        `  heap growth from the first round to the last: ${(heapGrowth / 2 ** 20).toFixed(1)} MB (target: none that keeps growing)`,
      )
      return { name: 'Ten accounts of 10,000 domains', lines, ok }
    } finally {
      await shell.quit()
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
