/** The built command's entry (out/main/cli.js, started by bin/hosting-admin.mjs). */
import { run } from './main'

// libsql's loader asks Node for a diagnostic report to tell glibc from musl; without the network
// part (interfaces, names of open sockets), which nothing here reads, that report costs less of the start.
Object.assign(process.report, { excludeNetwork: true })

const stopping = new AbortController()
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stopping.abort())
const code = await run(process.argv.slice(2), {
  signal: stopping.signal,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
})
// The services are closed; what is left (a keychain connection) must not hold the process.
process.exit(code)
