/**
 * Zone health: (1) the offline findings of a 5,000-record zone, and of a plan over it (both
 * versions), target <= 100 ms; (2) served against saved for 1,000 zones under the live rate
 * limit (scaled as list-all-rate-limited.ts scales it): the zones and their delegations read a
 * page at a time through the paced client, each page's zones held against what their
 * nameservers (a DNS server on loopback, on dns-packet, in a thread of its own as other machines
 * are) serve as soon as it arrives. Target: the
 * whole run within 1.2x of requests / rate, the time the service's answers take at its limit.
 */
import { performance } from 'node:perf_hooks'
import { createApiClient } from '../src/main/http'
import { Pacer } from '../src/main/http/pacer'
import { resolverNsAsk, servedAgainstSaved, type NsAsk, type ServedInput } from '../src/main/dns-health/served'
import type { ServedReport } from '@shared/dns/health/served'
import { planHealthOffline, indexZone, zoneFindings } from '@shared/dns/health/rules'
import { parse } from '@shared/dns/records'
import { LIVE_RATE_LIMIT, scaledRateLimit } from '../src/sandbox'
import { Worker } from 'node:worker_threads'
import { z } from 'zod'
import { startRemoteSandbox } from './remote-sandbox'
import type { BenchResult } from './report'
import { mainThreadCpuMs, median } from './stats'

const RECORDS = 5000
/** The offline findings: untimed runs first, then the median of the timed ones. */
const WARM_UP_RUNS = 5
const SAMPLES = 7
const RUNS_A_SAMPLE = 10
const OFFLINE_TARGET_MS = 100
const SCALE = 0.1
const LIMIT = scaledRateLimit(LIVE_RATE_LIMIT, SCALE)
const FIRST_BACKOFF_MS = 300 * SCALE
const LATENCY_MS = 100 * SCALE
const ZONES = 1000
const PAGE_SIZE = 100
const PAGES_AT_ONCE = 4
const ZONES_AT_ONCE = 16
const SERVED_TARGET = 1.2

/** A zone of many names and every type the rules read, with a few findings in it. */
function bigZone(n: number): string {
  const lines: string[] = [
    'txt @ "v=spf1 ip4:192.0.2.0/24 include:_spf.example.net -all"',
    'txt _dmarc "v=DMARC1; p=none; rua=mailto:d@example.com"',
    'caa @ 0 issue "letsencrypt.org"',
    'mx mail 10',
  ]
  for (let i = lines.length; i < n; i++) {
    const k = i % 10
    if (k < 5) lines.push(`a h${i} 192.0.2.${i % 250}`)
    else if (k === 5) lines.push(`aaaa h${i - 5} 2001:db8::${(i % 9000).toString(16)}`)
    else if (k === 6) lines.push(`cname c${i} h${i - 6}`)
    else if (k === 7) lines.push(`txt h${i - 7} "v=spf1 a mx -all"`)
    else if (k === 8) lines.push(`srv _sip._tcp.s${i} 10 5 5060 h${i - 8}`)
    else lines.push(`txt s${i}._domainkey "v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC"`)
  }
  return lines.join('\n')
}

function offline(): { zoneMs: number; zoneCpuMs: number; planMs: number; findings: number } {
  const text = bigZone(RECORDS)
  const before = parse(text)
  const after = parse(`${text}\ncname h0 elsewhere.example.net.`)
  // A few untimed runs first: the first calls pay V8's compiling. Each sample then times a batch of runs: the thread's
  // CPU time (schedstat) moves at the scheduler's tick (4 ms here), as long as one run, so one run's CPU read 3.2 or
  // 4.0 ms (a tick or none) whatever the code did, and the figure's ratio against another commit was that rounding.
  const timed = (run: () => void) => {
    for (let i = 0; i < WARM_UP_RUNS; i++) run()
    const times: number[] = []
    const cpu: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      const t = performance.now()
      const c = mainThreadCpuMs()
      for (let j = 0; j < RUNS_A_SAMPLE; j++) run()
      times.push((performance.now() - t) / RUNS_A_SAMPLE)
      cpu.push((mainThreadCpuMs() - c) / RUNS_A_SAMPLE)
    }
    return { ms: median(times), cpuMs: median(cpu) }
  }
  let findings = 0
  const zone = timed(() => (findings = zoneFindings(indexZone(before, 'example.com')).length))
  const planMs = timed(() => planHealthOffline(before, after, 'example.com')).ms
  return { zoneMs: zone.ms, zoneCpuMs: zone.cpuMs, planMs, findings }
}

/** The zones' nameservers on loopback, in a thread of their own; resolves with their address. */
function startRemoteNameservers(
  zones: { domain: string; records: string }[],
): Promise<{ address: string; close(): Promise<void> }> {
  const worker = new Worker(new URL('./nameserver-worker-boot.mjs', import.meta.url), { workerData: zones })
  return new Promise((resolve, reject) => {
    worker.once('error', reject)
    worker.once('message', (msg: unknown) => {
      const { address } = z.object({ address: z.string() }).parse(msg)
      resolve({
        address,
        close: () =>
          new Promise<void>((done) => {
            worker.once('exit', () => done())
            worker.postMessage('close')
          }),
      })
    })
  })
}

async function served() {
  const sb = await startRemoteSandbox({ domains: ZONES, latencyMs: LATENCY_MS, service: { rateLimit: LIMIT } })
  // The nameservers' copy of the zones, read with the read-only key (its own budget), before the run.
  const reader = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.readOnly, serverPaths: sb.serverPaths })
  const zones = (await reader.listAll('domains.dns.list', {}, { pageSize: PAGE_SIZE })).map((z) => ({
    domain: z.domainname,
    records: z.records,
  }))
  const dns = await startRemoteNameservers(zones)
  try {
    const pacer = new Pacer({ firstProbeMs: FIRST_BACKOFF_MS })
    const client = createApiClient({
      baseUrl: sb.url,
      apiKey: sb.keys.full,
      serverPaths: sb.serverPaths,
      pacer,
      retry: { attempts: 2, baseDelayMs: FIRST_BACKOFF_MS },
    })
    const nsAsk = resolverNsAsk(2000)
    // A question the nameservers did not answer is compared as nothing: counted, so "0 differing" cannot hide it.
    const unanswered = new Map<string, number>()
    const ask: NsAsk = async (ns, name, type) => {
      const a = await nsAsk(ns, name, type)
      if (!a.ok) unanswered.set(a.reason, (unanswered.get(a.reason) ?? 0) + 1)
      return a
    }
    const before = await sb.answers()
    const t = performance.now()
    // CPU of every thread of the process (the app's, the sandbox's, the nameservers'): the run's cost whatever else the machine runs.
    const cpuBefore = process.cpuUsage()
    const pages = Math.ceil(ZONES / PAGE_SIZE)
    const reports: ServedReport[] = []
    // Pages read a few at a time, as listAll sends them, never waiting for comparisons; each
    // page's zones join one queue that a bounded pool of comparisons drains as they arrive.
    const queue: ServedInput[] = []
    let reading = true
    let lastPageMs = 0
    const waiting: (() => void)[] = []
    const woken = () => new Promise<void>((resolve) => waiting.push(resolve))
    const wakeAll = () => waiting.splice(0).forEach((resolve) => resolve())
    const readPages = async () => {
      let nextPage = 1
      await Promise.all(
        Array.from({ length: PAGES_AT_ONCE }, async () => {
          while (nextPage <= pages) {
            const page = nextPage++
            const [records, delegations] = await Promise.all([
              client.call('domains.dns.list', { page, limit: PAGE_SIZE }),
              client.call('domains.nameserver.list', { page, limit: PAGE_SIZE }),
            ])
            const nsOf = new Map(delegations.map((d) => [d.domainname, d.ns]))
            for (const z of records)
              queue.push({
                domain: z.domainname,
                records: z.records,
                nameservers: (nsOf.get(z.domainname) ?? []).map((name) => ({ name, servers: [dns.address] })),
                unresolved: [],
              })
            wakeAll()
          }
        }),
      )
      lastPageMs = performance.now() - t
      reading = false
      wakeAll()
    }
    const compare = async () => {
      // Bounded: each turn compares a zone or waits for one of the pages (or the end of reading).
      for (let turn = 0; turn <= ZONES + pages; turn++) {
        const zone = queue.shift()
        if (zone) reports.push(await servedAgainstSaved(zone, ask))
        else if (reading) await woken()
        else return
      }
    }
    await Promise.all([readPages(), ...Array.from({ length: ZONES_AT_ONCE }, compare)])
    const elapsedMs = performance.now() - t
    const cpu = process.cpuUsage(cpuBefore)
    const cpuMs = (cpu.user + cpu.system) / 1000
    const after = await sb.answers()
    let answered = 0
    let refused = 0
    for (const [key, n] of Object.entries(after)) {
      const added = n - (before[key] ?? 0)
      if (key.endsWith(' 429')) refused += added
      else answered += added
    }
    return {
      elapsedMs,
      cpuMs,
      lastPageMs,
      answered,
      refused,
      zones: reports.length,
      differing: reports.filter((r) => r.findings.length > 0).length,
      questions: reports.reduce((s, r) => s + r.asked, 0),
      unanswered,
    }
  } finally {
    await dns.close()
    await sb.close()
  }
}

export async function benchHealth(): Promise<BenchResult> {
  const o = offline()
  const s = await served()
  const perSecond = (LIMIT.limit * 1000) / LIMIT.windowMs
  const boundMs = (s.answered / perSecond) * 1000
  const ratio = s.elapsedMs / boundMs
  const offlineOk = o.zoneMs <= OFFLINE_TARGET_MS && o.planMs <= OFFLINE_TARGET_MS
  const unanswered = [...s.unanswered.values()].reduce((a, b) => a + b, 0)
  const servedOk = ratio <= SERVED_TARGET && s.zones === ZONES && s.differing === 0 && unanswered === 0
  return {
    name: 'Zone health: findings offline, and served against saved under the rate limit',
    lines: [
      `findings of a ${RECORDS}-record zone:      ${o.zoneMs.toFixed(1)} ms (median of ${SAMPLES} samples of ${RUNS_A_SAMPLE} runs), ${o.findings} found; a plan over it (both versions): ${o.planMs.toFixed(1)} ms  (target <= ${OFFLINE_TARGET_MS} ms)`,
      // The main thread's CPU time beside it: on a loaded machine the time is partly waiting for a core (--against read
      // 1.56x against 898b2ac, whose findings code differs from this one in layout only).
      `findings of a ${RECORDS}-record zone, main-thread CPU: ${o.zoneCpuMs.toFixed(1)} ms (median of ${SAMPLES} samples of ${RUNS_A_SAMPLE} runs)`,
      `served against saved, ${ZONES} zones (time scale ${SCALE}: ${perSecond} requests/s, latency ${LATENCY_MS} ms):`,
      `  requests, 429s:             ${s.answered} answered, ${s.refused} answered 429; ${s.questions} DNS questions to the nameservers on loopback`,
      `  questions not answered:     ${unanswered}${unanswered > 0 ? ` (${[...s.unanswered].map(([reason, n]) => `${n} ${reason}`).join(', ')})` : ''} (expected 0: a question not answered is compared as nothing)`,
      `  zones:                      ${s.zones} compared, ${s.differing} differing (expected 0: the nameservers serve the saved zones)`,
      `  last page read / last zone compared: ${s.lastPageMs.toFixed(0)} / ${s.elapsedMs.toFixed(0)} ms; CPU of all its threads meanwhile ${s.cpuMs.toFixed(0)} ms`,
      `  elapsed / requests / rate:  ${s.elapsedMs.toFixed(0)} / ${boundMs.toFixed(0)} ms = ${ratio.toFixed(2)}x  (target <= ${SERVED_TARGET}x)`,
    ],
    ok: offlineOk && servedOk,
  }
}
