/**
 * Lists shared across screens (servers of each kind, service IPs, domains), kept per account so
 * that going back to a list shows it at once, and another account's list is never shown for
 * this one. A list read of an account stops when the user switches away from it.
 */
import { defineStore } from 'pinia'
import type { PagedEndpointName, PagedInput, PagedItem } from '@shared/endpoints/table'
import type { AccountApi } from '../data/account-api'
import { createListRead, type ListRead } from '../lib/data/list-read'
import { createWhoisPrivacyRead } from '../lib/data/whois-privacy-read'
import type { WhoisPrivacyItem } from '@shared/ipc/whois-privacy'
import { useHistoryStore } from './history'
import { whenIdleAfterPaint } from '../lib/after-next-paint'

export const useListsStore = defineStore('lists', () => {
  // Each entry's key names its endpoint, so an entry read back has that endpoint's item type.
  const lists = new Map<string, { accountId: string; read: ListRead<unknown> }>()

  /**
   * A refresh may have found changes made outside this app: the sidebar's badge asks again, once the
   * rows it brought are painted. Asked as they came, its question to main and main's answer (a task of
   * the window's) fell between the domain list's arrival and its first paint (issue 54).
   */
  const refreshBadge = () => void whenIdleAfterPaint().then(() => useHistoryStore().refresh())

  function list<N extends PagedEndpointName>(api: AccountApi, name: N, params: PagedInput<N>): ListRead<PagedItem<N>> {
    const key = `${api.accountId}\u0000${name}\u0000${JSON.stringify(params)}`
    const found = lists.get(key)
    // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- the key names the endpoint, so the entry holds that endpoint's items (see above)
    if (found) return found.read as ListRead<PagedItem<N>>
    const read = createListRead(api, name, params, refreshBadge)
    lists.set(key, { accountId: api.accountId, read })
    return read
  }

  // The domain list's WHOIS privacy column, per account: the WHOIS list's flags without its contacts.
  const whoisReads = new Map<string, ListRead<WhoisPrivacyItem>>()
  function whoisPrivacy(api: AccountApi): ListRead<WhoisPrivacyItem> {
    const found = whoisReads.get(api.accountId)
    if (found) return found
    const read = createWhoisPrivacyRead(api, refreshBadge)
    whoisReads.set(api.accountId, read)
    return read
  }

  /** Stops every list read of an account (the user switched away from it). */
  function cancelAccount(accountId: string): void {
    for (const entry of lists.values()) if (entry.accountId === accountId) entry.read.cancel()
    whoisReads.get(accountId)?.cancel()
  }

  /** Drops an account's lists (the account was removed). */
  function forgetAccount(accountId: string): void {
    for (const [key, entry] of lists) {
      if (entry.accountId !== accountId) continue
      entry.read.reset()
      lists.delete(key)
    }
    whoisReads.get(accountId)?.reset()
    whoisReads.delete(accountId)
  }

  return { list, whoisPrivacy, cancelAccount, forgetAccount }
})
