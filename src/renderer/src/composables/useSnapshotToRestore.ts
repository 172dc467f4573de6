/**
 * The snapshot a zone editor was opened to restore (`?restore=<id>` in the route), read from
 * the account's history. The editor waits for it (`ready`), so the snapshot's records become
 * the edit once, after the zone as it is now has loaded.
 */
import { ref, shallowRef } from 'vue'
import { useRoute } from 'vue-router'
import { invoke, type ErrorData } from '../data/bridge'
import { useAccountsStore } from '../stores/accounts'
import type { ZoneKind } from '@shared/portfolio'

export function useSnapshotToRestore(kind: ZoneKind, domain: string) {
  const route = useRoute()
  const accountId = useAccountsStore().activeId
  const snapshot = shallowRef<{ records: string; ttl?: number | undefined; at: string }>()
  const error = ref<ErrorData>()
  const raw = route.query.restore
  const id = typeof raw === 'string' && /^\d{1,12}$/.test(raw) ? Number(raw) : undefined
  const ready = ref(id === undefined)
  if (id !== undefined) {
    void invoke('history.snapshot', { accountId, id }).then((r) => {
      if (!r.ok) error.value = r.error
      // A snapshot of another zone is not this editor's to restore.
      else if (r.value && r.value.kind === kind && r.value.domain === domain)
        snapshot.value = { records: r.value.records, ttl: r.value.ttl, at: r.value.at }
      else error.value = { kind: 'validation', code: 'history.snapshotNotFound' }
      ready.value = true
    })
  }
  return { snapshot, error, ready }
}
