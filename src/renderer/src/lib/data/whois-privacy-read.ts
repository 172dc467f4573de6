/**
 * The domain list's WHOIS privacy column as a read of its own: each domain's flag, stored first
 * (instant start) and then read afresh in full in main, which keeps the whole WHOIS list and sends
 * only the flags (issue 40: the contacts, 10 MB for 10,000 domains, made long tasks while the list
 * was scrolled). The same states, progress, cancel and retry as any list read.
 */
import type { WhoisPrivacyItem } from '@shared/ipc/whois-privacy'
import type { AccountApi } from '../../data/account-api'
import { listReadParts, type ListRead } from './list-read'
import { createRead } from './read'

export function createWhoisPrivacyRead(api: AccountApi, onFullRead?: () => void): ListRead<WhoisPrivacyItem> {
  const read = createRead<WhoisPrivacyItem[]>(async ({ signal, onProgress }) => {
    const r = await api.whoisPrivacy('service', { signal, onProgress })
    return r.ok ? { ok: true, value: r.value?.items ?? [] } : r
  })
  const { marks, showStored, readWhole, listRead } = listReadParts(read, onFullRead)
  let storeTried = false
  /** The flags as stored at the WHOIS list's last full read, shown until the fresh read replaces them. */
  const fromStore = async (): Promise<void> => {
    if (storeTried) return
    storeTried = true
    const r = await api.whoisPrivacy('store')
    if (!r.ok || !r.value || read.state.data) return
    showStored(r.value)
  }
  const loadAll = async () => readWhole(await read.load())
  const ensureAll = () => {
    if (read.state.status === 'loading') return
    if (read.state.status === 'done' && marks.complete && !marks.asOf) return
    void fromStore().then(() => loadAll())
  }
  // Only ever read whole: the first page is the whole list.
  return listRead({ load: loadAll, loadFirst: loadAll, loadAll, retry: loadAll, ensureFirst: ensureAll, ensureAll })
}
