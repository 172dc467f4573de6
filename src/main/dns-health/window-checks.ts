/**
 * The window's checks that need DNS, run in main (the renderer asks nothing of the network):
 * a plan's health with the rules that ask DNS (SPF lookups through include and redirect, dangling
 * targets, MX/NS at a CNAME), and a zone served against saved (each delegated nameserver asked
 * directly). Resolvers and nameserver addresses are the machine's, or the ones
 * HOSTING_ADMIN_RESOLVERS and HOSTING_ADMIN_NS_ADDRESSES name, as for the command line.
 */
import { planHealth } from '@shared/dns/health/asked'
import type { HealthFinding } from '@shared/dns/health/rules'
import type { ServedReport } from '@shared/dns/health/served'
import { parse } from '@shared/dns/records'
import type { ApiClient } from '../http'
import { zoneComparer } from './compare-zone'
import { resolverAsker, resolversOf } from './resolver-asker'

/** Every finding of the zone as it would be after the save, the ones the save introduces first. */
export async function askedPlanHealth(
  p: { zone: string; before: string; after: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<HealthFinding[]> {
  const ask = resolverAsker({ servers: resolversOf(env), timeoutMs: 2000 })
  return planHealth(parse(p.before), parse(p.after), p.zone, ask)
}

/** What the domain's nameservers serve, held against the zone the service holds now. */
export async function servedZone(
  client: ApiClient,
  domain: string,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServedReport> {
  const [d, zone] = await Promise.all([
    client.call('domains.get', { domain }, { signal }),
    client.call('domains.dns.get', { domain }, { signal }),
  ])
  return zoneComparer(env)({ domain, ns: d.ns, records: zone.records }, signal)
}
