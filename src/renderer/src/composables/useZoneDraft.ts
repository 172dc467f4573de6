/**
 * An unsaved edit of a DNS zone kept across visits (stores/drafts.ts): every change of the edit
 * is kept under the zone's key, an edit back to the loaded zone is no edit, and an edit from an
 * earlier visit is offered back once the zone is loaded.
 */
import { nextTick, shallowRef, watch } from 'vue'
import { useDraftsStore, type ZoneDraft } from '../stores/drafts'

export interface ZoneDraftInputs {
  /** Where the edit is kept; none keeps nothing. */
  key: () => string | undefined
  /** The edit's parts to follow; undefined until the zone is loaded. */
  track: () => unknown
  /** The edit as it stands, undefined until the zone is loaded. */
  edit: () => Omit<ZoneDraft, 'at'> | undefined
  dirty: () => boolean
  /** Puts an offered edit back into the editor. */
  put: (d: ZoneDraft) => void
}

export function useZoneDraft(input: ZoneDraftInputs) {
  const drafts = useDraftsStore()
  /** An unsaved edit of this zone from an earlier visit, offered back once the zone is loaded. */
  const offered = shallowRef<ZoneDraft>()
  /** While the loaded zone is being shown, its rows are not an edit to keep. */
  let showing = false
  function drop() {
    const key = input.key()
    if (key) drafts.drop(key)
  }
  function restore() {
    const d = offered.value
    offered.value = undefined
    if (d) input.put(d)
  }
  function discard() {
    offered.value = undefined
    drop()
  }
  /** The loaded zone is being put in the editor: what changes until the next tick is no edit. */
  function showingLoaded() {
    showing = true
    void nextTick(() => (showing = false))
  }
  /** Offers the kept edit when it differs from the zone as loaded. */
  function offerAgainst(z: { records: string; ttl: number | undefined; ns_type?: string | undefined }) {
    const key = input.key()
    const draft = key ? drafts.get(key) : undefined
    offered.value =
      draft && (draft.records !== z.records || draft.ttl !== z.ttl || (draft.nsType ?? '') !== (z.ns_type ?? ''))
        ? draft
        : undefined
  }
  watch(input.track, () => {
    const key = input.key()
    const edit = input.edit()
    if (!key || !edit || showing) return
    if (input.dirty()) {
      offered.value = undefined
      drafts.keep(key, { ...edit, at: new Date().toISOString() })
    } else if (!offered.value) drafts.drop(key)
  })
  return { offered, restore, discard, drop, showingLoaded, offerAgainst }
}
