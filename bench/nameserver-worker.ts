/**
 * The zones' nameservers (support/loopback-dns.ts) in their own thread: in the world they are
 * other machines, so answering thousands of questions must not queue behind the app's own work
 * on one event loop (as the sandbox runs in its own: remote-sandbox.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { z } from 'zod'
import { startRecordsDns } from '../support/loopback-dns'

const zones = z.array(z.object({ domain: z.string(), records: z.string() })).parse(workerData)
const dns = await startRecordsDns(() => zones, { unchanging: true })
parentPort?.postMessage({ address: dns.address })
parentPort?.on('message', (msg: unknown) => {
  if (msg === 'close') void dns.close().then(() => process.exit(0))
})
