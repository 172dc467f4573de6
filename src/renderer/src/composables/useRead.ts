import { onScopeDispose } from 'vue'
import { createRead, type Loader } from '../lib/data/read'

/**
 * A read owned by the calling view: the state machine of lib/data/read.ts, cancelled when the view
 * goes away (another screen, another account), so nothing keeps loading for a screen no one sees.
 */
export function useRead<T>(loader: Loader<T>, opts: { immediate?: boolean; slowAfterMs?: number } = {}) {
  const read = createRead(loader, opts)
  onScopeDispose(() => read.cancel())
  if (opts.immediate) void read.load()
  return read
}
