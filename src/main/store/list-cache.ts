/**
 * A parsed copy of the few lists the screens open on (domains, servers, service IPs), so the
 * window's first paint from the store does not wait for 10,000 rows to be read and checked
 * again. Filled off the critical path: after each write of such a list and when the app starts;
 * dropped on every write that touches it, and with its account.
 */
import { listIdentity } from './lists'
import type { StoredList, StoredListName } from '@shared/portfolio'

const CACHED: ReadonlySet<StoredListName> = new Set(['domains.list', 'servers.list', 'svcips.list'])

export class ListCache {
  private readonly lists = new Map<string, StoredList<StoredListName>>()

  static keeps(name: StoredListName): boolean {
    return CACHED.has(name)
  }

  private key(accountId: string, name: StoredListName, params: Readonly<Record<string, unknown>>): string {
    return `${accountId}\u0000${name}\u0000${listIdentity(name, params).key}`
  }

  get(
    accountId: string,
    name: StoredListName,
    params: Readonly<Record<string, unknown>>,
  ): StoredList<StoredListName> | undefined {
    return CACHED.has(name) ? this.lists.get(this.key(accountId, name, params)) : undefined
  }

  set(
    accountId: string,
    name: StoredListName,
    params: Readonly<Record<string, unknown>>,
    list: StoredList<StoredListName> | undefined,
  ): void {
    if (!CACHED.has(name)) return
    const key = this.key(accountId, name, params)
    if (list) this.lists.set(key, list)
    else this.lists.delete(key)
  }

  drop(accountId: string, name: StoredListName, params: Readonly<Record<string, unknown>>): void {
    if (CACHED.has(name)) this.lists.delete(this.key(accountId, name, params))
  }

  dropAccount(accountId: string): void {
    for (const key of this.lists.keys()) if (key.startsWith(`${accountId}\u0000`)) this.lists.delete(key)
  }
}
