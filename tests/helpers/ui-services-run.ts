/**
 * A run of `npm run ui` without its window, for tests/integration/ui-options.test.ts: its service
 * part starts on the data folder named in argv, an account is added with the key read from stdin
 * (never argv), the account's id is printed, and the services close as they do when the window
 * closes. Run with `node --import tsx`.
 */
import { readFileSync } from 'node:fs'
import { startUiServices } from '../../scripts/ui-options'
import { appSender } from './router-calls'

const dir = process.argv[2]
if (!dir) throw new Error('usage: ui-services-run.ts <data folder> < key')
const apiKey = readFileSync(0, 'utf8').trim()
const harness = await startUiServices(dir)
const fields = {
  name: 'Kept by ui',
  baseUrl: 'https://api.example.com/v1',
  serverKinds: {
    a: { path: 'web', label: 'Web' },
    b: { path: 'managed', label: 'Managed' },
    c: { path: 'cloud', label: 'Cloud' },
  },
  timeoutMs: 30_000,
}
const r = await harness.router.client(appSender({ url: harness.url }))('accounts.create', {
  fields,
  apiKey,
  storage: 'keychain',
})
if (!r.ok) throw new Error(`accounts.create: ${r.error.code}`)
console.log(r.value.id)
// What scripts/ui.ts does once the window is closed.
await harness.close()
process.exit(0)
