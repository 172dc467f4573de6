/**
 * The health of every zone the portfolio store holds (every account, DNS and free DNS), from
 * the records as last read: the offline rules only (no DNS asked for a whole portfolio at once),
 * so the Health screen lists them as soon as it opens.
 */
import { indexZone, zoneFindings, type HealthFinding } from '@shared/dns/health/rules'
import { parse } from '@shared/dns/records'
import type { ZoneHealth } from '@shared/portfolio'
import type { PortfolioStoreAsync } from '../store/store-async'

export async function storeHealth(store: Pick<PortfolioStoreAsync, 'listZones' | 'getZone'>): Promise<ZoneHealth[]> {
  const out: ZoneHealth[] = []
  for (const z of await store.listZones()) {
    const zone = await store.getZone(z.accountId, z.kind, z.domain)
    if (!zone) continue
    const findings: HealthFinding[] = zoneFindings(indexZone(parse(zone.records), z.domain))
    if (findings.length > 0) out.push({ accountId: z.accountId, kind: z.kind, domain: z.domain, readAt: zone.readAt, findings })
  }
  return out
}
