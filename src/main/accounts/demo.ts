/**
 * The built-in demo account: the sandbox API started in-process on a loopback port,
 * with a key generated for this run and kept nowhere but memory.
 */
import { randomBytes } from 'node:crypto'
import type { Sandbox, SandboxOptions } from '../../sandbox'
import { SERVER_KINDS } from '../../shared/endpoints/table'
import type { DemoBackend } from './account-service'

export function sandboxDemo(options: SandboxOptions = {}): DemoBackend & { sandbox(): Sandbox | undefined } {
  let sb: Sandbox | undefined
  let starting: Promise<Sandbox> | undefined
  return {
    sandbox: () => sb,
    async start() {
      // Loaded on first use, so the main bundle carries the sandbox only as a separate chunk.
      const loading = import('../../sandbox')
      // Assigned before any await, so a close() that comes while the module loads still finds the sandbox to close.
      starting ??= loading.then(({ startSandbox }) =>
        startSandbox({ host: '127.0.0.1', port: 0, keys: { full: `demo_${randomBytes(24).toString('hex')}` }, ...options }),
      )
      const [{ DEFAULT_SERVER_LABELS }, started] = await Promise.all([loading, starting])
      sb = started
      const serverKinds = Object.fromEntries(
        SERVER_KINDS.map((k) => [k, { path: started.serverPaths[k], label: DEFAULT_SERVER_LABELS[k] }]),
      ) as Record<(typeof SERVER_KINDS)[number], { path: string; label: string }>
      // The demo's DNS words are whatever its sandbox was started with; the label is the word itself.
      const words = started.service.nsTypeWords
      const nsTypes = { svc1: { word: words.svc1, label: words.svc1 }, svc11: { word: words.svc11, label: words.svc11 } }
      return { baseUrl: started.url, apiKey: started.keys.full, serverKinds, nsTypes }
    },
    async close() {
      if (starting) await (await starting).close()
    },
  }
}
