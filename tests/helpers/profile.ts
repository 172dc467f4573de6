import type { Sandbox } from '../../src/sandbox'
import type { ProfileFields } from '../../src/shared/accounts'

/** Account profile fields pointing at a sandbox, with its path words and simple labels. */
export function profileFor(sb: Pick<Sandbox, 'url' | 'serverPaths'>, name: string, timeoutMs = 30_000): ProfileFields {
  return {
    name,
    baseUrl: sb.url,
    serverKinds: {
      a: { path: sb.serverPaths.a, label: 'Web' },
      b: { path: sb.serverPaths.b, label: 'Managed' },
      c: { path: sb.serverPaths.c, label: 'Cloud' },
    },
    timeoutMs,
  }
}
