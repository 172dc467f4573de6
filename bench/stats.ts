import { readFileSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** The middle of the sorted figures (the upper middle of an even count); NaN for none, so a report shows the gap. */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN

/**
 * The CPU time (ms) of this process's main thread so far: where Linux says it (schedstat, in ns),
 * that thread's alone, without the collector's and compilers' helper threads that a larger module
 * graph keeps busy beside it; elsewhere the whole process's (process.cpuUsage). Read while the thread runs, the
 * figure moves at the scheduler's tick (4 ms on this kind of machine): time a span of many ticks, or a batch of runs.
 */
export function mainThreadCpuMs(): number {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0])
    if (Number.isFinite(ns)) return ns / 1e6
  } catch {
    // Not Linux: the process's time below.
  }
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** V8's gc function, as --expose-gc gives it, asked for once here so the bench needs no flag of its own. */
let exposedGc: unknown
/** A full collection. */
export function collectGarbage(): void {
  if (exposedGc === undefined) {
    setFlagsFromString('--expose-gc')
    // A new context each time would be a new global, made on every call: the function is kept.
    exposedGc = runInNewContext('gc')
  }
  if (typeof exposedGc !== 'function') throw new Error('V8 gave no gc function')
  Reflect.apply(exposedGc, undefined, [])
}
