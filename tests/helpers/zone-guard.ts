/**
 * A zone save as main takes it: with the zone it was planned from (its guard), read from the
 * service just before, and marked as confirmed over the safety rule by the user. For tests whose
 * subject is not the guard or the rule (history, every channel, what the service kept).
 */
import type { ApiClient } from '../../src/main/http'

const ZONE_SAVES = { 'domains.dns.set': 'domains.dns.get', 'freedns.set': 'freedns.get' } as const

export async function asGuardedItem(
  operation: string,
  params: Record<string, unknown>,
  client: ApiClient,
): Promise<{ params: Record<string, unknown>; guard?: { records: string }; overRule?: true }> {
  if (operation !== 'domains.dns.set' && operation !== 'freedns.set') return { params }
  const domain = String(params.domain)
  const zone =
    ZONE_SAVES[operation] === 'domains.dns.get'
      ? await client.call('domains.dns.get', { domain })
      : await client.call('freedns.get', { domain })
  return { params, guard: { records: zone.records }, overRule: true }
}
