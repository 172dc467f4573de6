/**
 * What expires, per account, from what the portfolio store last read: domains, servers of the
 * three kinds and service IPs.
 *
 * Two lists may say the same thing (a domain's expiry date is in both the domain list and the
 * expiration list; its auto-renewal in both the domain list and the auto-renewal list): the
 * one read last wins, since a renewal made in between shows only there. Service IPs have no
 * auto-renewal, and their expiry dates come from the service IP list (the service's own
 * expiration list of them is not paged, so it is not kept).
 */
import { SERVER_KINDS, type ServerKind } from '@shared/service/constants'
import { domainAutorenew, serverAutorenew } from '@shared/service/autorenew'
import type { PortfolioStoreAsync } from '../store/store-async'
import type { ExpiringItem } from '@shared/portfolio/reminders'

interface Read<T> {
  items: T[]
  readAt: string
}

/** The list read last of those that were read at all. */
function latest<T>(...lists: (Read<T> | undefined)[]): Read<T> | undefined {
  let found: Read<T> | undefined
  for (const l of lists) if (l && (!found || l.readAt > found.readAt)) found = l
  return found
}

/** Each item's value from the list read last that has the item. */
function byLatest<T, V>(
  key: (item: T) => string,
  value: (item: T) => V,
  ...lists: (Read<T> | undefined)[]
): Map<string, V> {
  const out = new Map<string, V>()
  const read = lists.filter((l): l is Read<T> => l !== undefined).sort((a, b) => a.readAt.localeCompare(b.readAt))
  for (const list of read) for (const item of list.items) out.set(key(item), value(item))
  return out
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

async function domains(store: PortfolioStoreAsync, accountId: string): Promise<ExpiringItem[]> {
  const list = await store.getList(accountId, 'domains.list', {})
  const dated = latest<{ domainname: string; expirationdate: string }>(
    list,
    await store.getList(accountId, 'domains.expiration.list', {}),
  )
  const name = (d: { domainname: string }) => d.domainname
  const autorenew = byLatest(
    name,
    (d) => domainAutorenew(d).on,
    list,
    await store.getList(accountId, 'domains.autorenew.list', {}),
  )
  return (dated?.items ?? []).map((d) => ({
    accountId,
    kind: 'domain',
    id: d.domainname,
    label: d.domainname,
    expires: d.expirationdate,
    autorenew: autorenew.get(d.domainname),
  }))
}

async function servers(store: PortfolioStoreAsync, accountId: string, serverKind: ServerKind): Promise<ExpiringItem[]> {
  const list = await store.getList(accountId, 'servers.list', { kind: serverKind })
  const dated = latest<{ webid: string; webname: string; expirationdate: string }>(
    list,
    await store.getList(accountId, 'servers.expiration.list', { kind: serverKind }),
  )
  const webid = (s: { webid: string }) => s.webid
  const autorenew = byLatest(
    webid,
    (s) => serverAutorenew(s).on,
    list,
    await store.getList(accountId, 'servers.autorenew.list', { kind: serverKind }),
  )
  return (dated?.items ?? []).map((s) => ({
    accountId,
    kind: 'server',
    id: s.webid,
    serverKind,
    label: s.webname || s.webid,
    expires: s.expirationdate,
    autorenew: autorenew.get(s.webid),
  }))
}

async function svcips(store: PortfolioStoreAsync, accountId: string): Promise<ExpiringItem[]> {
  const list = await store.getList(accountId, 'svcips.list', {})
  return (list?.items ?? []).map((v) => ({
    accountId,
    kind: 'svcip',
    id: v.vipid,
    label: v.vipname || v.vipid,
    expires: v.expirationdate,
    autorenew: false,
  }))
}

/** Every item of the account that has an expiry date, as last read. */
export async function expiringItems(store: PortfolioStoreAsync, accountId: string): Promise<ExpiringItem[]> {
  const parts = await Promise.all([
    domains(store, accountId),
    ...SERVER_KINDS.map((k) => servers(store, accountId, k)),
    svcips(store, accountId),
  ])
  return parts.flat().filter((i) => ISO_DATE.test(i.expires))
}
