/**
 * A second reader of the portfolio store, in its own thread with its own connection: it reads
 * one list over and over while the test's thread rewrites it, and tells what it saw. Each
 * version of the list that the test writes has one registrar on every item and its own read
 * time, so a read that mixes two versions (or sees part of one) shows. `stop` is shared: its
 * first number stops the reader, its second counts the reads done, so the test can wait for one.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { z } from 'zod'
import { openPortfolioStore } from '../../src/main/store'

const input = z
  .object({ file: z.string(), accountId: z.string(), count: z.number().int(), stop: z.instanceof(SharedArrayBuffer) })
  .parse(workerData)
const stop = new Int32Array(input.stop)
const store = openPortfolioStore(input.file, { integrityCheck: false })
let reads = 0
let empty = 0
const versions = new Set<string>()
const bad: string[] = []
while (Atomics.load(stop, 0) === 0) {
  const list = store.getList(input.accountId, 'domains.list', {})
  if (!list) {
    empty++
    continue
  }
  reads++
  Atomics.add(stop, 1, 1)
  const registrars = new Set(list.items.map((d) => d.registrar))
  const [registrar] = registrars
  versions.add(list.readAt)
  if (list.items.length !== input.count || registrars.size !== 1 || registrar !== `reg-${list.readAt}`) {
    if (bad.length < 5)
      bad.push(
        `${list.items.length} items, registrars ${[...registrars].slice(0, 3).join(' ')}, read at ${list.readAt}`,
      )
  }
}
store.close()
parentPort?.postMessage({ reads, empty, versions: versions.size, bad })
