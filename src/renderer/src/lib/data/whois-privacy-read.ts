/**
 * The domain list's WHOIS privacy column as a read of its own: each domain's flag, stored first
 * (instant start) and then read afresh in full in main, which keeps the whole WHOIS list and sends
 * only the flags (issue 40: the contacts, 10 MB for 10,000 domains, made long tasks while the list
 * was scrolled). The same states, progress, cancel and retry as any list read.
 */
import { reactive } from 'vue'
import type { WhoisPrivacyItem } from '@shared/ipc/whois-privacy'
import type { AccountApi } from '../../data/account-api'
import type { ListRead } from './list-read'
import { createRead } from './read'

export function createWhoisPrivacyRead(api: AccountApi, onFullRead?: () => void): ListRead<WhoisPrivacyItem> {
  const read = createRead<WhoisPrivacyItem[]>(async ({ signal, onProgress }) => {
    const r = await api.whoisPrivacy('service', { signal, onProgress })
    return r.ok ? { ok: true, value: r.value?.items ?? [] } : r
  })
  const initial: { complete: boolean; asOf: string | undefined } = { complete: false, asOf: undefined }
  const extra = reactive(initial)
  let storeTried = false
  /** The flags as stored at the WHOIS list's last full read, shown until the fresh read replaces them. */
  const fromStore = async (): Promise<void> => {
    if (storeTried) return
    storeTried = true
    const r = await api.whoisPrivacy('store')
    if (!r.ok || !r.value || read.state.data) return
    read.replace(r.value.items)
    extra.complete = r.value.complete
    extra.asOf = r.value.readAt ?? undefined
  }
  const loadAll = async () => {
    const items = await read.load()
    if (items) {
      extra.complete = true
      extra.asOf = undefined
      onFullRead?.()
    }
    return items
  }
  const ensureAll = () => {
    if (read.state.status === 'loading') return
    if (read.state.status === 'done' && extra.complete && !extra.asOf) return
    void fromStore().then(() => loadAll())
  }
  return {
    state: read.state,
    get complete() {
      return extra.complete
    },
    get asOf() {
      return extra.asOf
    },
    // Only ever read whole: the first page is the whole list.
    load: loadAll,
    loadFirst: loadAll,
    loadAll,
    retry: loadAll,
    ensureFirst: ensureAll,
    ensureAll,
    cancel: read.cancel,
    reset() {
      extra.complete = false
      read.reset()
    },
    replace: read.replace,
  }
}
