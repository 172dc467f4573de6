/**
 * Main's thread for the window's whole carriage of a stored domain list in parts (issue 54
 * point 3), at 10,000 and 100,000 domains: the list read whole from the store's worker and cut
 * in main (as before), against each part cut in the worker (store/list-parts.ts). Main's busy
 * time is its event loop's active time (performance.eventLoopUtilization: main's thread only,
 * its GC included; idle while it awaits the worker), and the longest it held its loop at once
 * (monitorEventLoopDelay's max). Run: `NODE_OPTIONS=--expose-gc npx tsx bench/stored-parts-main.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { createStoredParts } from '../src/main/reads/stored-parts'
import { openStoreInWorker } from '../src/main/store/store-worker'
import { accountLists } from '../support/portfolio-data'
import { median } from './stats'

const RUNS = 5
const T1 = '2030-01-01T00:00:00.000Z'

async function carriage(
  domains: number,
): Promise<Record<'wholeMs' | 'partsMs' | 'wholeHeldMs' | 'partsHeldMs' | 'parts', number>> {
  const dir = await mkdtemp(join(tmpdir(), 'stored-parts-main-'))
  const store = await openStoreInWorker(join(dir, 'portfolio.db'), { integrityCheck: false })
  try {
    await store.putList('acct', 'domains.list', {}, accountLists({ domains, seed: 5 }).domains, T1)
    const whole = createStoredParts((name, accountId, params) =>
      store.readList(accountId, name, params).then((l) => l ?? null),
    )
    const cut = createStoredParts(
      (name, accountId, params) => store.readList(accountId, name, params).then((l) => l ?? null),
      (name, accountId, params, part) => store.readListPart(accountId, name, params, part).then((l) => l ?? null),
    )
    /** Main's active time for every part in turn, as the window asks them. */
    const busy = async (read: typeof whole) => {
      // Each carriage from a collected heap (run with --expose-gc): not the garbage of the one before.
      const gc: unknown = Reflect.get(globalThis, 'gc')
      if (typeof gc === 'function') Reflect.apply(gc, globalThis, [])
      const delay = monitorEventLoopDelay({ resolution: 1 })
      delay.enable()
      const before = performance.eventLoopUtilization()
      let parts = 1
      for (let part = 0; part < parts; part++) {
        const r = await read({ name: 'domains.list', accountId: 'acct', params: {}, part })
        if (!r) throw new Error('the list was not kept')
        parts = r.parts
      }
      const ms = performance.eventLoopUtilization(before).active
      delay.disable()
      return { ms, parts, heldMs: delay.max / 1e6 }
    }
    await busy(whole)
    await busy(cut)
    const wholeRuns: number[] = []
    const cutRuns: number[] = []
    const wholeHeld: number[] = []
    const cutHeld: number[] = []
    let parts = 0
    for (let i = 0; i < RUNS; i++) {
      const w = await busy(whole)
      wholeRuns.push(w.ms)
      wholeHeld.push(w.heldMs)
      const c = await busy(cut)
      cutRuns.push(c.ms)
      cutHeld.push(c.heldMs)
      parts = c.parts
    }
    return {
      wholeMs: median(wholeRuns),
      partsMs: median(cutRuns),
      wholeHeldMs: median(wholeHeld),
      partsHeldMs: median(cutHeld),
      parts,
    }
  } finally {
    await store.close()
    await rm(dir, { recursive: true, force: true })
  }
}

for (const domains of [10_000, 100_000]) {
  const f = await carriage(domains)
  console.log(
    `${domains} domains, ${f.parts} parts: main busy ${f.wholeMs.toFixed(1)} ms with the list cut in main, ` +
      `${f.partsMs.toFixed(1)} ms with each part cut in the worker (median of ${RUNS}); ` +
      `longest hold of main's loop ${f.wholeHeldMs.toFixed(1)} ms, ${f.partsHeldMs.toFixed(1)} ms`,
  )
}
