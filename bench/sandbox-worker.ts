/**
 * The sandbox in its own thread: the real API is on another machine, so its CPU
 * time must not queue behind the client's on one event loop.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { startSandbox } from '../src/sandbox'
import { remoteSandboxOptions } from './remote-sandbox'

const sb = await startSandbox(remoteSandboxOptions.parse(workerData))
parentPort?.postMessage({ url: sb.url, keys: sb.keys, serverPaths: sb.serverPaths })
parentPort?.on('message', (msg: unknown) => {
  if (msg === 'close') void sb.close().then(() => process.exit(0))
  if (msg === 'domains') parentPort?.postMessage({ domains: sb.state.domains.map((d) => d.domainname) })
  if (msg === 'answers') {
    // What the service answered, as "<operation> <status>": count, for the benchmarks to report.
    const answers: Record<string, number> = {}
    for (const r of sb.received) {
      const key = `${r.endpoint ?? 'unknown'} ${r.status}`
      answers[key] = (answers[key] ?? 0) + 1
    }
    parentPort?.postMessage({ answers })
  }
})
