import { Worker } from 'node:worker_threads'
import { z } from 'zod'
import type { ServerKind } from '@shared/endpoints/table'

/**
 * What a benchmark sets of the sandbox in the worker. It crosses to the thread as data, and the
 * worker reads it back with this schema (sandbox-worker.ts).
 */
export const remoteSandboxOptions = z.object({
  domains: z.number().int().nonnegative().optional(),
  latencyMs: z.number().nonnegative().optional(),
  service: z
    .object({ rateLimit: z.object({ limit: z.number(), windowMs: z.number(), blockMs: z.number() }).optional() })
    .optional(),
})
type RemoteSandboxOptions = z.infer<typeof remoteSandboxOptions>

export interface RemoteSandbox {
  url: string
  keys: { full: string; readOnly: string }
  serverPaths: Record<ServerKind, string>
  /** What the sandbox answered so far, counted by "<operation> <status>" (a 429 is "<operation> 429"). */
  answers(): Promise<Record<string, number>>
  /** The names of the domains the sandbox holds, in its order. */
  domainNames(): Promise<string[]>
  close(): Promise<void>
}

const domainsMessage = z.object({ domains: z.array(z.string()) })

function isAnswers(msg: unknown): msg is { answers: Record<string, number> } {
  if (typeof msg !== 'object' || msg === null || !('answers' in msg)) return false
  const a = msg.answers
  return typeof a === 'object' && a !== null && Object.values(a).every((n) => typeof n === 'number')
}

/** Starts a sandbox in a worker thread and resolves once it listens. */
export function startRemoteSandbox(options: RemoteSandboxOptions): Promise<RemoteSandbox> {
  const worker = new Worker(new URL('./sandbox-worker-boot.mjs', import.meta.url), { workerData: options })
  return new Promise((resolve, reject) => {
    worker.once('error', reject)
    worker.once('message', (info: Omit<RemoteSandbox, 'close' | 'answers'>) => {
      resolve({
        ...info,
        answers: () =>
          new Promise((done, fail) => {
            const onMessage = (msg: unknown) => {
              if (!isAnswers(msg)) return
              worker.off('message', onMessage)
              done(msg.answers)
            }
            worker.on('message', onMessage)
            worker.once('error', fail)
            worker.postMessage('answers')
          }),
        domainNames: () =>
          new Promise((done, fail) => {
            const onMessage = (msg: unknown) => {
              const m = domainsMessage.safeParse(msg)
              if (!m.success) return
              worker.off('message', onMessage)
              done(m.data.domains)
            }
            worker.on('message', onMessage)
            worker.once('error', fail)
            worker.postMessage('domains')
          }),
        close: () =>
          new Promise<void>((done) => {
            worker.once('exit', () => done())
            worker.postMessage('close')
          }),
      })
    })
  })
}
