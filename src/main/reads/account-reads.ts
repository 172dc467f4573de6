/**
 * The read path of one account, as the window and the command line ask it: an operation read from
 * the service, a zone read and kept, a list read in full and kept, a list as last kept, the whole
 * portfolio refreshed. Each answer teaches the account's auto-renewal value (learned-autorenew.ts);
 * in team mode a colleague's writes are caught up with before what is read is compared with the
 * store, meanwhile (so their write is never taken for a change from outside). Cancellable by the
 * caller's call id (running-calls.ts); a store that fails never fails a read.
 */
import type { EndpointResult, PagedEndpointName, PagedItem, ReadEndpointName } from '@shared/endpoints/table'
import type { ApiParsed, ListAllParsed, Progress } from '@shared/ipc/contract'
import { isStoredList, type StoredList, type StoredListName, type StoredListPart } from '@shared/portfolio'
import type { HistoryEntry } from '@shared/portfolio/history'
import type { AccountService } from '../accounts/account-service'
import type { PortfolioStoreAsync } from '../store/store-async'
import type { AutorenewOnValues } from './learned-autorenew'
import { refreshAccount, type AccountRefresh } from './refresh-account'
import type { RunningCalls } from './running-calls'

/** Team mode's history feed (team/team-history-feed.ts), as the reads use it. */
export interface TeamCatchUp {
  /** Brings the account's team rows into the local history; never throws. */
  catchUp(accountId: string): Promise<void>
  /** Changes from outside looked at here: looked at for the team. */
  seenHere(accountId: string, entries: readonly HistoryEntry[]): Promise<void>
}

export interface AccountReadsDeps {
  accounts: Pick<AccountService, 'client'>
  calls: RunningCalls
  /** Where every list read in full and every zone read is kept, for the next start and for search. */
  store?: PortfolioStoreAsync | undefined
  /** A store write that failed: never the read's failure, only noted. */
  onStoreError?: ((err: unknown) => void) | undefined
  /** Learns from every answer what the account's service writes for an auto-renewal setting that is on. */
  autorenewOn?: AutorenewOnValues | undefined
  /** Team mode: the other members' writes brought into the local history before it is read or compared. */
  teamHistory?: TeamCatchUp | undefined
}

export type ZoneReadName = 'domains.dns.get' | 'freedns.get'

export interface AccountReads {
  /** Keeps what was read (in the store's thread); a store that fails never fails the read. */
  keep(write: (s: PortfolioStoreAsync) => Promise<unknown>): Promise<void>
  /** One operation read from the service. */
  endpoint<N extends ReadEndpointName>(name: N, p: ApiParsed<N>): Promise<EndpointResult<N>>
  /** A zone read from the service and kept for search and the next start. */
  zone<N extends ZoneReadName>(name: N, p: ApiParsed<N>): Promise<EndpointResult<N>>
  /** Every page of a list, with progress; a stored list is kept. */
  listAll<N extends PagedEndpointName>(
    name: N,
    p: ListAllParsed<N>,
    onProgress: (p: Progress) => void,
  ): Promise<PagedItem<N>[]>
  /** As listAll, with the time the list was kept under (a stored list's parts are told apart by it). */
  listAllRead<N extends PagedEndpointName>(
    name: N,
    p: ListAllParsed<N>,
    onProgress: (p: Progress) => void,
  ): Promise<{ items: PagedItem<N>[]; readAt: string }>
  /** A list as last kept, whatever page was asked (paging is not part of which list it is); null when none. */
  storedList<N extends StoredListName>(
    name: N,
    accountId: string,
    params: Readonly<Record<string, unknown>>,
  ): Promise<StoredList<N> | null>
  /** One part of a list as last kept, cut in the store's thread (main takes in the part only); null when none. */
  storedListPart(
    name: StoredListName,
    accountId: string,
    params: Readonly<Record<string, unknown>>,
    part: number,
  ): Promise<StoredListPart<StoredListName> | null>
  /** Every account-wide list read and kept (refresh-account.ts). */
  refresh(
    p: { accountId: string; callId?: string | undefined },
    onList: (done: number, total: number) => void,
  ): Promise<AccountRefresh>
}

const ZONE_KIND = { 'domains.dns.get': 'dns', 'freedns.get': 'freedns' } as const

export function createAccountReads(deps: AccountReadsDeps): AccountReads {
  const { accounts, calls, store, onStoreError, autorenewOn, teamHistory } = deps
  const now = () => new Date().toISOString()
  const keep: AccountReads['keep'] = async (write) => {
    if (!store) return
    try {
      await write(store)
    } catch (err) {
      onStoreError?.(err)
    }
  }
  const listAllRead: AccountReads['listAllRead'] = (name, p, onProgress) =>
    calls.run(p.callId, async (signal) => {
      // Team mode: a colleague's writes known before the list is compared, meanwhile (never a change from outside).
      const caughtUp = isStoredList(name) ? teamHistory?.catchUp(p.accountId) : undefined
      const client = await accounts.client(p.accountId)
      const items = await client.listAllParsed(name, p.params, {
        signal,
        onProgress: (pr) =>
          onProgress({ callId: p.callId, loadedItems: pr.loadedItems, expectedItems: pr.expectedItems }),
      })
      await caughtUp
      // Every list read in full is kept: the next start paints from it.
      const readAt = now()
      if (isStoredList(name)) await keep((s) => s.keepList(p.accountId, name, p.params, items, readAt))
      autorenewOn?.learn(p.accountId, items)
      return { items, readAt }
    })
  return {
    keep,
    endpoint: (name, p) =>
      calls.run(p.callId, async (signal) => {
        const result = await (await accounts.client(p.accountId)).callParsed(name, p.params, { signal })
        autorenewOn?.learn(p.accountId, result)
        return result
      }),
    zone: (name, p) =>
      calls.run(p.callId, async (signal) => {
        // Team mode: a colleague's saves known before the zone is compared, meanwhile (never a change from outside).
        const caughtUp = teamHistory?.catchUp(p.accountId)
        const zone = await (await accounts.client(p.accountId)).callParsed(name, p.params, { signal })
        await caughtUp
        const kept = { records: zone.records, ttl: zone.ttl, ns_type: 'ns_type' in zone ? zone.ns_type : undefined }
        await keep((s) => s.putZone(p.accountId, ZONE_KIND[name], zone.domainname, kept, now()))
        return zone
      }),
    listAll: (name, p, onProgress) => listAllRead(name, p, onProgress).then((read) => read.items),
    listAllRead,
    storedList: async (name, accountId, params) => {
      const { limit: _l, page: _p, ...own } = params
      return store ? ((await store.readList(accountId, name, own)) ?? null) : null
    },
    storedListPart: async (name, accountId, params, part) => {
      const { limit: _l, page: _p, ...own } = params
      return store ? ((await store.readListPart(accountId, name, own, part)) ?? null) : null
    },
    refresh: async (p, onList) => {
      if (!store) return { read: 0, drift: 0, failed: [] }
      const portfolio = store
      // A colleague's write known first, so the refresh that finds it does not call it a change from outside.
      await teamHistory?.catchUp(p.accountId)
      return calls.run(p.callId, async (signal) =>
        refreshAccount(await accounts.client(p.accountId), portfolio, p.accountId, { signal, onList }),
      )
    },
  }
}
