/**
 * The portfolio store at the size of a large customer: 3 accounts x 10,000 domains with their
 * per-domain lists (expiration, auto-renewal, transfer lock, WHOIS, nameservers, DNS, dynamic
 * DNS, DNSSEC) and 100,000 DNS records. Fill, reopen, read one account's domain list, search.
 * Target: search <= 30 ms at the median over typical queries.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openPortfolioStore } from '../src/main/store'
import { accountLists, putAccount } from '../support/portfolio-data'
import type { BenchResult } from './report'
import { median } from './stats'

const ACCOUNTS = ['north', 'south', 'west']
const DOMAINS = 10_000
/** 3 or 4 records per zone: 100,002 records over the 30,000 zones. */
const zoneLines = (i: number) => (i % 3 === 0 ? 4 : 3)
const READ_RUNS = 7
const SEARCH_TARGET_MS = 30
/** Issue 40: one account's 10,000-domain list read back, checked, in at most this. */
const READ_TARGET_MS = 50

async function size(file: string): Promise<number> {
  let total = 0
  for (const f of [file, `${file}-wal`])
    total += await stat(f).then(
      (s) => s.size,
      () => 0,
    )
  return total
}

export async function benchPortfolioStore(): Promise<BenchResult> {
  const dir = await mkdtemp(join(tmpdir(), 'portfolio-bench-'))
  const file = join(dir, 'portfolio.db')
  try {
    const data = ACCOUNTS.map((id, n) => ({ id, lists: accountLists({ seed: 7 + n, domains: DOMAINS, zoneLines }) }))
    const records = data.reduce((n, a) => n + a.lists.dns.reduce((m, z) => m + z.records.split('\n').length, 0), 0)
    const readAt = new Date().toISOString()

    let store = openPortfolioStore(file)
    // The longest single call: how long the main process's event loop is held at most.
    let longest = { ms: 0, list: '' }
    const timed: typeof store = {
      ...store,
      putList: (...args) => {
        const t0 = performance.now()
        const r = store.putList(...args)
        const ms = performance.now() - t0
        if (ms > longest.ms) longest = { ms, list: args[1] }
        return r
      },
    }
    let t = performance.now()
    for (const a of data) putAccount(timed, a.id, a.lists, readAt)
    const fillMs = performance.now() - t

    // A refresh where nothing changed: what every start pays in the background.
    t = performance.now()
    putAccount(store, data[0]!.id, data[0]!.lists, new Date().toISOString())
    const refreshMs = performance.now() - t
    store.close()

    t = performance.now()
    store = openPortfolioStore(file)
    const openMs = performance.now() - t

    const reads: number[] = []
    for (let i = 0; i < READ_RUNS; i++) {
      t = performance.now()
      const list = store.getList(data[0]!.id, 'domains.list', {})
      reads.push(performance.now() - t)
      if (list?.items.length !== DOMAINS) throw new Error(`read ${list?.items.length} of ${DOMAINS} domains`)
    }

    const a0 = data[0]!.lists
    const d = (i: number) => a0.domains[i]!.domainname
    const queries = [
      d(17), // a whole domain name
      d(4242).slice(0, 6), // the start of one
      d(123).split('.')[0]!.slice(3, 9), // a piece from its middle
      '192.0.2.10', // which zones point at this address?
      '198.51.100.',
      '2001:db8::',
      `www.${d(99)}`,
      `mail.${d(500)}`,
      'spf',
      '.shop',
      'juniper',
      'co.jp',
      'ember',
      a0.servers.a[0]!.webname,
      'vip00',
      '-free',
      'docs',
      'host',
      'zz-nothing-zz',
      'a',
    ]
    // One unmeasured round: the first query of each shape compiles its statement.
    for (const q of queries) store.search(q)
    const times: number[] = []
    let hits = 0
    for (const q of queries) {
      t = performance.now()
      hits += store.search(q).length
      times.push(performance.now() - t)
    }
    const ip = store.search('192.0.2.10', 500).filter((h) => h.kind === 'record' && h.match === 'exact')
    store.close()

    const searchMedian = median(times)
    const bytes = await size(file)
    return {
      name: `Portfolio store: ${ACCOUNTS.length} accounts x ${DOMAINS} domains with their lists, ${records} DNS records`,
      lines: [
        `fill (every list of every account): ${(fillMs / 1000).toFixed(1)} s; longest call ${longest.ms.toFixed(0)} ms (${longest.list}, first read)`,
        `refresh of one account, nothing changed: ${refreshMs.toFixed(0)} ms`,
        `open with quick_check: ${openMs.toFixed(0)} ms`,
        `read one account's domain list (${DOMAINS} items, validated), median of ${READ_RUNS}: ${median(reads).toFixed(1)} ms  (target <= ${READ_TARGET_MS} ms)`,
        `search, ${queries.length} queries: median ${searchMedian.toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms  (target median <= ${SEARCH_TARGET_MS} ms; ${hits} hits)`,
        `"192.0.2.10": ${ip.length} records in ${new Set(ip.map((h) => `${h.accountId}/${h.key}`)).size} zones of ${new Set(ip.map((h) => h.accountId)).size} accounts`,
        `file size: ${(bytes / 1024 / 1024).toFixed(1)} MB`,
      ],
      ok: searchMedian <= SEARCH_TARGET_MS && median(reads) <= READ_TARGET_MS,
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
