/**
 * The health of every zone the portfolio store holds (every account, DNS and free DNS), from
 * the records as last read: the offline rules only (no DNS asked for a whole portfolio at once),
 * so the Health screen lists them as soon as it opens; with the zones' last comparisons with
 * their nameservers, and how much of the accounts' zones was read and when (issue 53 point 2).
 */
import { indexZone, zoneFindings, type HealthFinding } from '@shared/dns/health/rules'
import { parse } from '@shared/dns/records'
import type { HealthOverview, ZoneHealth } from '@shared/portfolio'
import type { PortfolioStoreAsync } from '../store/store-async'

type HealthStore = Pick<PortfolioStoreAsync, 'listZones' | 'getZone' | 'readList' | 'history'>

/** The domains an account is known to have, as last listed (none when never listed). */
async function domainsListed(store: HealthStore, accountId: string): Promise<string[]> {
  const list = await store.readList(accountId, 'domains.list', {})
  return (list?.items ?? []).flatMap((item) =>
    'domainname' in item && typeof item.domainname === 'string' ? [item.domainname] : [],
  )
}

export async function storeHealth(store: HealthStore, accountIds: readonly string[]): Promise<HealthOverview> {
  const asked = new Set(accountIds)
  const zones: ZoneHealth[] = []
  let zonesRead = 0
  let oldestReadAt: string | undefined
  const read = (await store.listZones()).filter((z) => asked.has(z.accountId))
  for (const z of read) {
    const zone = await store.getZone(z.accountId, z.kind, z.domain)
    if (!zone) continue
    zonesRead++
    if (oldestReadAt === undefined || zone.readAt < oldestReadAt) oldestReadAt = zone.readAt
    const findings: HealthFinding[] = zoneFindings(indexZone(parse(zone.records), z.domain))
    if (findings.length > 0)
      zones.push({ accountId: z.accountId, kind: z.kind, domain: z.domain, readAt: zone.readAt, findings })
  }
  let zonesKnown = 0
  for (const accountId of asked) {
    // A domain listed whose zone was never read, a zone read whose domain the list does not
    // (yet) hold, and every free DNS zone read: each counted once.
    const names = new Set((await domainsListed(store, accountId)).map((d) => d.toLowerCase()))
    for (const z of read) if (z.accountId === accountId && z.kind === 'dns') names.add(z.domain.toLowerCase())
    zonesKnown += names.size + read.filter((z) => z.accountId === accountId && z.kind === 'freedns').length
  }
  const served = (await store.history.servedResults()).filter((r) => asked.has(r.accountId))
  return { zones, served, zonesRead, zonesKnown, oldestReadAt }
}
