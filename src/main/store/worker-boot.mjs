// From the sources (tests, the bench): worker threads do not inherit tsx's loader, so register
// it, then load the TypeScript entry. The built app starts out/main/store-worker.js instead.
import { register } from 'tsx/esm/api'

register()
await import('./worker-entry.ts')
