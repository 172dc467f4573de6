/**
 * The columns the zones table and the zone_snapshots table both have: which zone (account, kind,
 * domain) and its settings (TTL, and the NS type of a DNS zone), with how a row's columns become
 * the plain shape the store's callers see. A setting the service did not give is NULL in the
 * file and absent (undefined) outside it.
 */
import { z } from 'zod'
import { ZONE_KINDS, type ZoneKind } from '@shared/portfolio'

export const zoneKeyColumns = { account_id: z.string(), kind: z.enum(ZONE_KINDS), domain: z.string() }
export const zoneSettingColumns = { ttl: z.number().int().nullable(), ns_type: z.string().nullable() }

export const zoneKeyOf = (r: { account_id: string; kind: ZoneKind; domain: string }) => ({
  accountId: r.account_id,
  kind: r.kind,
  domain: r.domain,
})

export const zoneSettingsOf = (r: { ttl: number | null; ns_type: string | null }) => ({
  ttl: r.ttl ?? undefined,
  ns_type: r.ns_type ?? undefined,
})
