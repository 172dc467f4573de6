/**
 * Run as its own process with --expose-gc: prepares (and never confirms) a bulk zone save of 24
 * large zones on the real runner against a sandbox, and prints, as one JSON line, the size of what
 * was sent to prepare and how much of the heap the prepared job still holds once the request is
 * gone. Used by tests/integration/prepared-memory.test.ts.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApiClient } from '../../src/main/http'
import { Journal } from '../../src/main/jobs/ledger/journal-file'
import { LocalLedger } from '../../src/main/jobs/ledger/local-ledger'
import { JobRunner } from '../../src/main/jobs/runner'
import { startSandbox } from '../../src/sandbox'
import { holdFolderOf } from './held-folder'

const collect = globalThis.gc
if (!collect) throw new Error('run with --expose-gc')
const heapUsed = () => {
  collect()
  collect()
  return process.memoryUsage().heapUsed
}

const sb = await startSandbox({ domains: 30 })
const file = join(mkdtempSync(join(tmpdir(), 'prepared-memory-')), 'journal.jsonl')
const runner = new JobRunner({
  accounts: {
    client: async () => createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths }),
    nameOf: () => 'Main',
    readOnly: () => false,
  },
  ledger: new LocalLedger(new Journal(file, await holdFolderOf(file))),
  logCheckDelaysMs: [60_000],
})
const names = sb.state.domains.slice(0, 24).map((d) => d.domainname)
// Each zone its own text (no string shared between items), just under the service's 1,000,000 characters.
const zoneText = (tag: string) =>
  Array.from({ length: 38_000 }, (_, i) => `a h${i}${tag} 192.0.2.${i % 250}`).join('\n')

/** In a function of its own: once it returns, nothing but the runner can hold the request (a suspended top-level await keeps its block's values). */
async function prepareLargeZones(): Promise<{ jobId: string; sentChars: number }> {
  const items = names.map((domain, n) => ({
    params: { domain, ns_type: 'valuedomain1', records: zoneText(`p${n}`), ttl: 3600 },
    guard: { records: zoneText(`p${n}`), ttl: 3600, ns_type: 'valuedomain1' },
  }))
  const sentChars = items.reduce((sum, it) => sum + it.params.records.length + it.guard.records.length, 0)
  return { jobId: (await runner.prepare({ accountId: 'main', operation: 'domains.dns.set', items })).job.id, sentChars }
}

const before = heapUsed()
const { jobId, sentChars } = await prepareLargeZones()
const held = heapUsed() - before
runner.discard(jobId)
const afterDiscard = heapUsed() - before
console.log(JSON.stringify({ sentChars, held, afterDiscard }))
await sb.close()
process.exit(0)
