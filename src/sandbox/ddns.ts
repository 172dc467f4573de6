/**
 * The service's dynamic DNS update address (`/cgi-bin/dyn.fcg`, beside the API, without a key), as
 * its users' routers and updaters call it: `?ip` answers the caller's address; `?d=&p=&h=&i=`
 * sets the host's A records of the zone in use to the address. The answer is plain text with
 * `status=<n>` (0 done; see shared/service/ddns.ts for what the others mean). Modelled from the updaters
 * its users publish (tests/fixtures/live/README.md), not from the app.
 */
import type { SandboxState } from './state'
import { canonicalHost, nsFlavour } from './nameservers'

export const DDNS_PATH = '/cgi-bin/dyn.fcg'

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/
const answer = (status: number, text: string) => `status=${status}\n${text}\n`

/** The caller's address as a dotted IPv4 when it is one (an IPv4-mapped IPv6 address is unwrapped). */
export const callerAddress = (remote: string | undefined) => (remote ?? '').replace(/^::ffff:/, '')

/**
 * Repeated updates of one domain within a short time are refused as an overload: status 503, which
 * a published updater documents as "an overload error from repeated access and the like", beside 5
 * for the database server being busy and 9 for another error (magic-object/lib-python,
 * ValueDomainDdnsUpdate.py; tests/fixtures/live/README.md). The updaters publish a cron period of
 * minutes. The window and count are this sandbox's model, not a recorded figure.
 */
export const DDNS_BURST = { updates: 5, withinMs: 60_000 } as const
const DDNS_OVERLOAD_STATUS = 503
const recentUpdates = new WeakMap<SandboxState, Map<string, number[]>>()

function overloaded(state: SandboxState, domain: string, now: number): boolean {
  const byDomain = recentUpdates.get(state) ?? new Map<string, number[]>()
  recentUpdates.set(state, byDomain)
  const times = (byDomain.get(domain) ?? []).filter((t) => now - t < DDNS_BURST.withinMs)
  const over = times.length >= DDNS_BURST.updates
  if (!over) times.push(now)
  byDomain.set(domain, times)
  return over
}

/**
 * One call of the update address, its parameters from the query or, as some updaters send them,
 * from a form POST body (`d=&p=&h=&i=`, application/x-www-form-urlencoded): answered in plain text,
 * `status=<n>` then the reason on the next line.
 */
export function serveDynamicDns(
  state: SandboxState,
  query: URLSearchParams,
  caller: string,
  now: number = Date.now(),
): { text: string; changed: boolean } {
  if (query.has('ip') && !query.has('d')) return { text: `${caller}\n`, changed: false }
  const domainName = query.get('d') ?? ''
  const password = query.get('p') ?? ''
  if (!domainName || !password) return { text: answer(1, 'bad request'), changed: false }
  const d = state.domains.find((x) => canonicalHost(x.domainname) === canonicalHost(domainName))
  if (!d || d.dynamicdns === 0 || !d.ddnsPassword)
    return { text: answer(2, 'invalid domain or password'), changed: false }
  const ip = query.get('i') || caller
  if (!IPV4.test(ip)) return { text: answer(3, 'invalid IP address'), changed: false }
  if (password !== d.ddnsPassword) return { text: answer(4, 'password mismatch'), changed: false }
  if (overloaded(state, canonicalHost(d.domainname), now))
    return { text: answer(DDNS_OVERLOAD_STATUS, 'too many accesses; try again later'), changed: false }
  const flavour = nsFlavour(d)
  if (flavour !== 'svc1' && flavour !== 'svc11')
    return { text: answer(9, 'the domain does not use the service DNS'), changed: false }
  const host = (query.get('h') || '@').toLowerCase()
  const zone = d.dns[flavour]
  let found = false
  const lines = zone.records.split('\n').map((line) => {
    const m = /^a\s+(\S+)\s+\S+$/i.exec(line.trim())
    if (!m || m[1]!.toLowerCase() !== host) return line
    found = true
    return `a ${m[1]} ${ip}`
  })
  if (!found) return { text: answer(8, 'no record to update'), changed: false }
  zone.records = lines.join('\n')
  return { text: answer(0, 'OK'), changed: true }
}
