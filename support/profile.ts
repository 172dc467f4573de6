import type { Sandbox } from '../src/sandbox'
import type { ProfileFields } from '@shared/accounts'

/** Account profile fields pointing at a sandbox, with its path words and simple labels. */
export function profileFor(
  sb: Pick<Sandbox, 'url' | 'serverPaths'> & Partial<Pick<Sandbox, 'service'>>,
  name: string,
  timeoutMs = 30_000,
): ProfileFields {
  const words = sb.service?.nsTypeWords ?? { svc1: 'svc1', svc11: 'svc11' }
  return {
    name,
    baseUrl: sb.url,
    serverKinds: {
      a: { path: sb.serverPaths.a, label: 'Web' },
      b: { path: sb.serverPaths.b, label: 'Managed' },
      c: { path: sb.serverPaths.c, label: 'Cloud' },
    },
    nsTypes: { svc1: { word: words.svc1, label: 'Service DNS' }, svc11: { word: words.svc11, label: 'Other DNS' } },
    timeoutMs,
    colour: 'slate',
    environment: 'none',
    readOnly: false,
  }
}
