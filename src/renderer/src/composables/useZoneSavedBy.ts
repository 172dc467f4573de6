/**
 * Team mode: whose save made a zone as it is now (issue 53 point 6), for a conflict to name who
 * and when. The zone's history (the team's rows of it come in first, main's history.list) is
 * searched, newest first, for a colleague's save whose records are the zone's now. A change made
 * at the service's own panel matches none: nobody is named.
 */
import { shallowRef, watch, type Ref } from 'vue'
import type { SubjectKind } from '@shared/portfolio/history'
import { invoke } from '../data/bridge'
import { useAccountsStore } from '../stores/accounts'

export interface SavedBy {
  member: string
  workstation: string | undefined
  at: string
}

const normal = (records: string) => records.replace(/\r\n/g, '\n').trim()
const recordsOf = (v: unknown): string | undefined =>
  typeof v === 'object' && v !== null && 'records' in v && typeof v.records === 'string' ? v.records : undefined

/** `records`: the zone as it is now (undefined: nothing to name). */
export function useZoneSavedBy(zone: () => string, subjectKind: () => SubjectKind, records: Ref<string | undefined>) {
  const accounts = useAccountsStore()
  const savedBy = shallowRef<SavedBy>()
  watch(
    records,
    async (now) => {
      savedBy.value = undefined
      if (now === undefined) return
      const accountId = accounts.activeId
      const r = await invoke('history.list', { accountId, subjectKind: subjectKind(), subject: zone() })
      if (!r.ok || records.value !== now) return
      const maker = r.value.find(
        (e) => e.origin === 'app' && e.aspect === 'dns' && e.member && normal(recordsOf(e.after) ?? '') === normal(now),
      )
      if (maker?.member) savedBy.value = { member: maker.member, workstation: maker.workstation, at: maker.at }
    },
    { immediate: true },
  )
  return savedBy
}
