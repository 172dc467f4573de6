/**
 * npm run sandbox -- [--port 8787] [--state sandbox-state.json] [--domains 60] [--latency 0]
 * Runs the sandbox API alone on a loopback port and prints its URL and keys.
 */
import { parseArgs } from 'node:util'
import { startSandbox, DEFAULT_SERVER_LABELS } from '../src/sandbox'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    state: { type: 'string' },
    domains: { type: 'string', default: '60' },
    latency: { type: 'string', default: '0' },
  },
})

const toInt = (name: string, v: string | undefined): number => {
  const n = Number(v)
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number, got ${v}`)
    process.exit(2)
  }
  return n
}

const sb = await startSandbox({
  port: toInt('port', values.port),
  stateFile: values.state,
  domains: toInt('domains', values.domains),
  latencyMs: toInt('latency', values.latency),
})

console.log(`Sandbox API listening at ${sb.url}`)
console.log(`Full-access key: ${sb.keys.full}`)
console.log(`Read-only key:   ${sb.keys.readOnly}`)
for (const [kind, word] of Object.entries(sb.serverPaths)) {
  console.log(`Server kind ${kind}: path word "${word}" (${DEFAULT_SERVER_LABELS[kind as keyof typeof DEFAULT_SERVER_LABELS]})`)
}
if (values.state) console.log(`State is saved to ${values.state} after every change.`)
console.log('Press Ctrl+C to stop.')

const stop = () => {
  void sb.close().then(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
