/**
 * The built-in demo account: the sandbox API started in-process on a loopback port,
 * with a key generated for this run and kept nowhere but memory.
 */
import { randomBytes } from 'node:crypto'
import { startSandbox, DEFAULT_SERVER_LABELS, type Sandbox, type SandboxOptions } from '../../sandbox'
import { SERVER_KINDS } from '../../shared/endpoints/table'
import type { DemoBackend } from './account-service'

export function sandboxDemo(options: SandboxOptions = {}): DemoBackend & { sandbox(): Sandbox | undefined } {
  let sb: Sandbox | undefined
  let starting: Promise<Sandbox> | undefined
  return {
    sandbox: () => sb,
    async start() {
      starting ??= startSandbox({ host: '127.0.0.1', port: 0, keys: { full: `demo_${randomBytes(24).toString('hex')}` }, ...options })
      sb = await starting
      const serverKinds = Object.fromEntries(
        SERVER_KINDS.map((k) => [k, { path: (sb as Sandbox).serverPaths[k], label: DEFAULT_SERVER_LABELS[k] }]),
      ) as Record<(typeof SERVER_KINDS)[number], { path: string; label: string }>
      return { baseUrl: sb.url, apiKey: sb.keys.full, serverKinds }
    },
    async close() {
      if (starting) await (await starting).close()
    },
  }
}
