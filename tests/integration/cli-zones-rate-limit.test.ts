/**
 * `dns plan|apply <folder>` (src/cli/zones.ts) over a folder of one account's zones, with the
 * sandbox's rate limit per key set low: the built command keeps to a few requests of the key at
 * once (ZONES_AT_ONCE), waits the service's blocks out instead of failing a zone, and sends each
 * zone's save once. Every answer takes a little while (the sandbox's latency), so that more
 * requests at once than the bound would be seen at the service if the run sent them.
 */
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type RateLimit, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { APP, routerCalls } from '../helpers/router-calls'
import { profileFor } from '../../support/profile'

const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)
/** The zones of one account the command plans, and saves, at a time (zones.ts). */
const ZONES_AT_ONCE = 3
const ZONE_COUNT = 12
/**
 * Six requests a 600 ms window, then 180 ms refused: a folder of twelve zones uses it up several
 * times over, planning alone (a read of each zone, and of its domain for the nameservers).
 */
const LOW_LIMIT: RateLimit = { limit: 6, windowMs: 600, blockMs: 180 }

let sb: Sandbox
let outside: ApiClient
let services: AppServices | undefined
let dataDir: string
let folder: string
let keyFile: string
let zones: string[]
const { ok } = routerCalls(() => services)

const cli = (args: string[]) =>
  runCli([...args, '--key-file', keyFile, '--offline', '--json'], { dataDir, timeoutMs: 120_000 })

const RunJson = z.object({
  counts: z.object({ zones: z.number(), changing: z.number(), failed: z.number(), refused: z.number() }).optional(),
  zones: z.array(z.object({ domain: z.string(), result: z.string().optional() })),
  saved: z.array(z.string()).optional(),
})

/** The requests of this run as the service answered them, and the most it held at once. */
function watch() {
  const from = sb.received.length
  sb.load.reset()
  return () => {
    const answered = sb.received.slice(from)
    return {
      maxAtOnce: sb.load.maxInFlight,
      refused: answered.filter((r) => r.status === 429).length,
      saves: answered.filter((r) => r.endpoint === 'domains.dns.set' && r.status === 200).map((r) => r.body),
    }
  }
}

describe.skipIf(!existsSync(CLI_BIN))('hosting-admin dns over a folder of zones under the rate limit', () => {
  beforeAll(async () => {
    sb = await startSandbox({ domains: 30, latencyMs: 20 })
    outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    zones = sb.state.domains
      .filter((d) => nsFlavour(d) !== 'registrar')
      .map((d) => d.domainname)
      .slice(0, ZONE_COUNT)
    expect(zones).toHaveLength(ZONE_COUNT)
    folder = mkdtempSync(join(tmpdir(), 'cli-zones-rate-'))
    for (const d of zones) {
      const { records } = await outside.call('domains.dns.get', { domain: d })
      writeFileSync(join(folder, `${d}.zone`), `${records.trimEnd()}\ntxt _paced v=one-at-a-time\n`)
    }
    const files = mkdtempSync(join(tmpdir(), 'cli-zones-rate-key-'))
    keyFile = join(files, 'main.key')
    writeFileSync(keyFile, `${sb.keys.full}\n`)
    chmodSync(keyFile, 0o600)
    dataDir = mkdtempSync(join(tmpdir(), 'cli-zones-rate-data-'))
    services = await createAppServices({
      userDataDir: dataDir,
      allowedOrigins: [APP],
      keychain: async () => new SessionSecretStore(),
      storeWorkerUrl: WORKER,
    })
    const main = await ok('accounts.create', {
      fields: profileFor(sb, 'Main'),
      apiKey: sb.keys.full,
      storage: 'session',
    })
    await ok('accounts.setActive', { id: main.id })
    await services.close()
    services = undefined
  })
  afterAll(async () => {
    await services?.close()
    await sb?.close()
  })

  it('plans and applies twelve zones of one account against 6 requests a 600 ms window: a few requests at once, \
every zone planned and saved once, none failed', async () => {
    sb.service.rateLimit = LOW_LIMIT
    try {
      const planning = watch()
      const plan = await cli(['dns', 'plan', folder])
      expect(plan.err).not.toContain('429')
      expect(plan.code).toBe(0)
      const planned = RunJson.parse(JSON.parse(plan.out))
      expect(planned.counts).toMatchObject({ zones: ZONE_COUNT, changing: ZONE_COUNT, failed: 0, refused: 0 })
      const planRun = planning()
      // The service's limit was met (blocks waited out), and never more than the bound asked at once.
      expect(planRun.refused).toBeGreaterThan(0)
      expect(planRun.maxAtOnce).toBeLessThanOrEqual(ZONES_AT_ONCE)

      const applying = watch()
      const applied = await cli(['dns', 'apply', folder])
      expect(applied.code).toBe(0)
      const run = RunJson.parse(JSON.parse(applied.out))
      expect(run.saved?.sort()).toEqual([...zones].sort())
      const applyRun = applying()
      expect(applyRun.maxAtOnce).toBeLessThanOrEqual(ZONES_AT_ONCE)
      // Each zone saved once: a save refused (429) was sent again, never one that went through.
      expect(applyRun.saves).toHaveLength(ZONE_COUNT)
    } finally {
      sb.service.rateLimit = undefined
    }
    for (const d of zones) {
      expect((await outside.call('domains.dns.get', { domain: d })).records).toContain('txt _paced v=one-at-a-time')
    }
  }, 240_000)
})
