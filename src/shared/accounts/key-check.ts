/**
 * What a key's test came to, as the add-account form tells it (and `accounts add|test` on the
 * command line): the service took the key; it refused it (401, 403: the key is what to fix); it
 * refused this computer's address (the token's allowed addresses are what to fix, not the key);
 * it could not be reached (the key was never judged); or something else went wrong (a wrong
 * address, a broken answer).
 */
import type { ConnectionResult } from '../ipc/contract'

export type KeyCheckOutcome = 'passed' | 'refused' | 'address' | 'unreached' | 'failed'

export function keyCheckOutcome(r: ConnectionResult): KeyCheckOutcome {
  if (r.ok) return 'passed'
  if (r.code === 'error.forbiddenAddress') return 'address'
  if (r.kind === 'unauthorized' || r.kind === 'forbidden') return 'refused'
  if (r.kind === 'network' || r.kind === 'timeout') return 'unreached'
  return 'failed'
}
