import { Worker } from 'node:worker_threads'
import type { ServerKind } from '../src/shared/endpoints/table'
import type { SandboxOptions } from '../src/sandbox'

export interface RemoteSandbox {
  url: string
  keys: { full: string; readOnly: string }
  serverPaths: Record<ServerKind, string>
  close(): Promise<void>
}

/** Starts a sandbox in a worker thread and resolves once it listens. */
export function startRemoteSandbox(options: SandboxOptions): Promise<RemoteSandbox> {
  const worker = new Worker(new URL('./sandbox-worker-boot.mjs', import.meta.url), { workerData: options })
  return new Promise((resolve, reject) => {
    worker.once('error', reject)
    worker.once('message', (info: Omit<RemoteSandbox, 'close'>) => {
      resolve({
        ...info,
        close: () =>
          new Promise<void>((done) => {
            worker.once('exit', () => done())
            worker.postMessage('close')
          }),
      })
    })
  })
}
