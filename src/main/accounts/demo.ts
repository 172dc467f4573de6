/**
 * The built-in demo account: the sandbox API started in-process on a loopback port, with a
 * key generated for this run and kept nowhere but memory. It runs only while the demo account
 * is used: started on the first call, stopped when another account is chosen. Its data is kept
 * in memory across a stop, so coming back finds the demo as it was left. In the app it records
 * no request (tests turn recording on) and refuses bodies over 1 MB.
 */
import { randomBytes } from 'node:crypto'
import type { Sandbox, SandboxOptions, SandboxState } from '../../sandbox'
import { fromKeys } from '../../sandbox/from-keys'
import { SERVER_KINDS, SERVER_KIND_PLACEHOLDERS } from '@shared/service/constants'
import type { DemoBackend } from './account-service'

/** What the app's demo keeps: no recorded requests, a short request log. */
const APP_DEMO: SandboxOptions = { maxRecorded: 0, maxLogEntries: 2_000, maxBodyBytes: 1024 * 1024 }

type Words = Awaited<ReturnType<DemoBackend['describe']>>

function wordsOf(options: SandboxOptions): Words {
  const serverKinds = fromKeys(SERVER_KINDS, (k) => ({
    path: options.serverPaths?.[k] ?? SERVER_KIND_PLACEHOLDERS[k].path,
    label: SERVER_KIND_PLACEHOLDERS[k].label,
  }))
  // The demo's DNS words are whatever its sandbox is started with; the label is the word itself.
  const ns = options.service?.nsTypeWords ?? { svc1: 'svc1', svc11: 'svc11' }
  return {
    serverKinds,
    nsTypes: { svc1: { word: ns.svc1, label: ns.svc1 }, svc11: { word: ns.svc11, label: ns.svc11 } },
  }
}

/** The demo backend; `sandbox()` is the last sandbox it started (still there, stopped, after a close). */
export function sandboxDemo(overrides: SandboxOptions = {}): DemoBackend & { sandbox(): Sandbox | undefined } {
  const options: SandboxOptions = { ...APP_DEMO, ...overrides }
  let sb: Sandbox | undefined
  let starting: Promise<Sandbox> | undefined
  let kept: SandboxState | undefined
  const key = `demo_${randomBytes(24).toString('hex')}`
  return {
    sandbox: () => sb,
    running: () => starting !== undefined,
    describe: async () => wordsOf(options),
    async start() {
      // Assigned before any await, so a close() that comes while the module loads still finds the sandbox to close.
      starting ??= import('../../sandbox').then(({ startSandbox }) =>
        // Loaded on first use, so the main bundle carries the sandbox only as a separate chunk.
        startSandbox({
          host: '127.0.0.1',
          port: 0,
          keys: { full: key },
          ...options,
          ...(kept ? { initialState: kept } : {}),
        }),
      )
      const started = await starting
      sb = started
      const words = wordsOf({ ...options, serverPaths: started.serverPaths, service: started.service })
      return { baseUrl: started.url, apiKey: started.keys.full, ...words }
    },
    async close() {
      const closing = starting
      starting = undefined
      if (!closing) return
      // Taken at once: a start() that comes while this one stops must find the data.
      if (sb) kept = sb.state
      const stopped = await closing
      kept = stopped.state
      await stopped.close()
    },
  }
}
