/**
 * A whole account's lists as the app would have read them: the sandbox's seeded state, put in
 * the service's wire shapes (src/sandbox/wire.ts) and decoded with the endpoint table's own
 * schemas, without a server in between. For the portfolio store's tests and benchmark.
 */
import { z } from 'zod'
import { SERVER_KINDS, type ServerKind } from '@shared/service/constants'
import { endpoints, type PagedItem } from '@shared/endpoints/table'
import { defaultBehaviour } from '../src/sandbox/behaviour'
import { seedState, type SeedOptions } from '../src/sandbox/seed'
import type { SandboxState } from '../src/sandbox/state'
import * as wire from '../src/sandbox/wire'
import type { PortfolioStore } from '../src/main/store'
import type { PortfolioStoreAsync } from '../src/main/store/store-async'
import { fromKeys } from '../src/sandbox/from-keys'

export interface AccountLists {
  state: SandboxState
  servers: Record<ServerKind, PagedItem<'servers.list'>[]>
  svcips: PagedItem<'svcips.list'>[]
  domains: PagedItem<'domains.list'>[]
  expiration: PagedItem<'domains.expiration.list'>[]
  autorenew: PagedItem<'domains.autorenew.list'>[]
  transferlock: PagedItem<'domains.transferlock.list'>[]
  whois: PagedItem<'domains.whois.list'>[]
  nameserver: PagedItem<'domains.nameserver.list'>[]
  dns: PagedItem<'domains.dns.list'>[]
  dynamicdns: PagedItem<'domains.dynamicdns.list'>[]
  dnssec: PagedItem<'domains.dnssec.list'>[]
  freedns: PagedItem<'freedns.list'>[]
}

const decode = <T>(schema: z.ZodType<T[]>, wireItems: unknown[]): T[] => schema.parse(wireItems)

export interface AccountOptions extends SeedOptions {
  /**
   * Size each domain's zone (by its index) to this many records, taken from its seeded zone:
   * the benchmark's record count is then exact whichever zone the domain shows.
   */
  zoneLines?: (index: number) => number
}

export function accountLists(opts: AccountOptions = {}): AccountLists {
  const state = seedState(opts)
  if (opts.zoneLines) {
    const cut = opts.zoneLines
    state.domains.forEach((d, i) => {
      const records = d.dns.svc1.records.split('\n').slice(0, cut(i)).join('\n')
      d.dns.svc1.records = records
      d.dns.svc11.records = records
    })
  }
  const service = defaultBehaviour()
  const ds = state.domains
  return {
    state,
    servers: fromKeys(SERVER_KINDS, (k) =>
      decode(endpoints['servers.list'].result, state.servers[k].map(wire.serverOut)),
    ),
    svcips: decode(endpoints['svcips.list'].result, state.svcips.map(wire.svcipOut)),
    domains: decode(endpoints['domains.list'].result, ds.map(wire.domainItemOut)),
    expiration: decode(endpoints['domains.expiration.list'].result, ds.map(wire.expOut)),
    autorenew: decode(endpoints['domains.autorenew.list'].result, ds.map(wire.autoOut)),
    transferlock: decode(endpoints['domains.transferlock.list'].result, ds.map(wire.lockOut)),
    whois: decode(endpoints['domains.whois.list'].result, ds.map(wire.whoisOut)),
    nameserver: decode(endpoints['domains.nameserver.list'].result, ds.map(wire.nsOut)),
    dns: decode(
      endpoints['domains.dns.list'].result,
      ds.map((d) => wire.dnsOut(d, service)),
    ),
    dynamicdns: decode(endpoints['domains.dynamicdns.list'].result, ds.map(wire.ddnsOut)),
    dnssec: decode(endpoints['domains.dnssec.list'].result, ds.map(wire.dnssecOut)),
    freedns: decode(endpoints['freedns.list'].result, state.freedns.map(wire.freeOut)),
  }
}

/** Every list of the account into the store, as a full refresh would put them. */
export function putAccount(store: PortfolioStore, accountId: string, lists: AccountLists, readAt: string): void {
  for (const kind of SERVER_KINDS) store.putList(accountId, 'servers.list', { kind }, lists.servers[kind], readAt)
  store.putList(accountId, 'svcips.list', {}, lists.svcips, readAt)
  store.putList(accountId, 'domains.list', {}, lists.domains, readAt)
  store.putList(accountId, 'domains.expiration.list', {}, lists.expiration, readAt)
  store.putList(accountId, 'domains.autorenew.list', {}, lists.autorenew, readAt)
  store.putList(accountId, 'domains.transferlock.list', {}, lists.transferlock, readAt)
  store.putList(accountId, 'domains.whois.list', {}, lists.whois, readAt)
  store.putList(accountId, 'domains.nameserver.list', {}, lists.nameserver, readAt)
  store.putList(accountId, 'domains.dns.list', {}, lists.dns, readAt)
  store.putList(accountId, 'domains.dynamicdns.list', {}, lists.dynamicdns, readAt)
  store.putList(accountId, 'domains.dnssec.list', {}, lists.dnssec, readAt)
  store.putList(accountId, 'freedns.list', {}, lists.freedns, readAt)
}

/** The same, into the store in its worker thread (or any PortfolioStoreAsync). */
export async function putAccountAsync(
  store: PortfolioStoreAsync,
  accountId: string,
  lists: AccountLists,
  readAt: string,
): Promise<void> {
  for (const kind of SERVER_KINDS) await store.putList(accountId, 'servers.list', { kind }, lists.servers[kind], readAt)
  await store.putList(accountId, 'svcips.list', {}, lists.svcips, readAt)
  await store.putList(accountId, 'domains.list', {}, lists.domains, readAt)
  await store.putList(accountId, 'domains.expiration.list', {}, lists.expiration, readAt)
  await store.putList(accountId, 'domains.autorenew.list', {}, lists.autorenew, readAt)
  await store.putList(accountId, 'domains.transferlock.list', {}, lists.transferlock, readAt)
  await store.putList(accountId, 'domains.whois.list', {}, lists.whois, readAt)
  await store.putList(accountId, 'domains.nameserver.list', {}, lists.nameserver, readAt)
  await store.putList(accountId, 'domains.dns.list', {}, lists.dns, readAt)
  await store.putList(accountId, 'domains.dynamicdns.list', {}, lists.dynamicdns, readAt)
  await store.putList(accountId, 'domains.dnssec.list', {}, lists.dnssec, readAt)
  await store.putList(accountId, 'freedns.list', {}, lists.freedns, readAt)
}
