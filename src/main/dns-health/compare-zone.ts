/**
 * Compare a zone with its nameservers: the one served-against-saved comparison the window
 * (window-checks.ts) and the command line (cli/served.ts) both run. The delegated nameservers'
 * names become addresses (the machine's lookup, or HOSTING_ADMIN_NS_ADDRESSES), then each is
 * asked directly for what the saved zone holds (served.ts).
 */
import { addressMapOf, nameserversOf } from './nameservers'
import { resolverNsAsk, servedAgainstSaved, type NsAsk } from './served'
import type { ServedReport } from '@shared/dns/health/served'

/** A zone as the service holds it, and the nameservers its domain is delegated to. */
export interface ZoneToCompare {
  domain: string
  ns: readonly string[]
  records: string
}

export type CompareZone = (zone: ZoneToCompare, signal?: AbortSignal) => Promise<ServedReport>

/** A comparer whose nameserver sockets are shared by every zone it compares. */
export function zoneComparer(env: NodeJS.ProcessEnv = process.env, ask: NsAsk = resolverNsAsk()): CompareZone {
  const given = addressMapOf(env.HOSTING_ADMIN_NS_ADDRESSES)
  return async (zone, signal) => {
    const { nameservers, unresolved } = await nameserversOf([...zone.ns], given)
    return servedAgainstSaved({ domain: zone.domain, records: zone.records, nameservers, unresolved }, ask, signal)
  }
}
