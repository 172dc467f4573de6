/**
 * npm run sandbox -- [--port 8787] [--state sandbox-state.json] [--domains 60] [--latency 0]
 *                    [--rate-limit off|live|<requests>/<windowMs>/<blockMs>] [--rate-scale 1]
 * Runs the sandbox API alone on a loopback port and prints its URL and keys. `--rate-limit live`
 * limits each key as the live service does (60 a minute, then every request refused for 18 s);
 * `--rate-scale 0.1` runs that limit's durations ten times faster.
 */
import { parseArgs } from 'node:util'
import { startSandbox, DEFAULT_SERVER_LABELS, LIVE_RATE_LIMIT, scaledRateLimit, type RateLimit } from '../src/sandbox'
import { SERVER_KINDS } from '@shared/service/constants'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    state: { type: 'string' },
    domains: { type: 'string', default: '60' },
    latency: { type: 'string', default: '0' },
    'rate-limit': { type: 'string', default: 'off' },
    'rate-scale': { type: 'string', default: '1' },
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

function rateLimitOf(v: string | undefined, scaleText: string | undefined): RateLimit | undefined {
  const scale = Number(scaleText)
  if (!(scale > 0)) {
    console.error(`--rate-scale must be a number above 0, got ${scaleText}`)
    process.exit(2)
  }
  if (v === 'off') return undefined
  if (v === 'live') return scaledRateLimit(LIVE_RATE_LIMIT, scale)
  const m = /^([1-9]\d*)\/([1-9]\d*)\/([1-9]\d*)$/.exec(v ?? '')
  if (!m) {
    console.error(`--rate-limit must be off, live or <requests>/<windowMs>/<blockMs>, got ${v}`)
    process.exit(2)
  }
  return scaledRateLimit({ limit: Number(m[1]), windowMs: Number(m[2]), blockMs: Number(m[3]) }, scale)
}

const rateLimit = rateLimitOf(values['rate-limit'], values['rate-scale'])
const sb = await startSandbox({
  port: toInt('port', values.port),
  stateFile: values.state,
  domains: toInt('domains', values.domains),
  latencyMs: toInt('latency', values.latency),
  service: { rateLimit },
})

console.log(`Sandbox API listening at ${sb.url}`)
console.log(`Full-access key: ${sb.keys.full}`)
console.log(`Read-only key:   ${sb.keys.readOnly}`)
for (const kind of SERVER_KINDS) {
  console.log(`Server kind ${kind}: path word "${sb.serverPaths[kind]}" (${DEFAULT_SERVER_LABELS[kind]})`)
}
if (rateLimit) {
  console.log(
    `Rate limit per key: ${rateLimit.limit} requests per ${rateLimit.windowMs} ms window, then every request refused (429) for ${rateLimit.blockMs} ms`,
  )
}
if (values.state) console.log(`State is saved to ${values.state} after every change.`)
console.log('Press Ctrl+C to stop.')

const stop = () => {
  void sb.close().then(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
