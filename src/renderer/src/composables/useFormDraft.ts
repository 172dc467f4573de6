/**
 * Keeps a form's unsaved edit (stores/drafts.ts) and offers it back when the form opens again:
 * every change that makes the form differ from what was read is kept; a form back at what was
 * read keeps nothing (unless an offer is still open); a save or a discard forgets it.
 */
import { shallowRef, watch } from 'vue'
import { useDraftsStore, type FormDraftValue } from '../stores/drafts'

export interface FormDraftOptions<V extends FormDraftValue> {
  /** The form's kept value of this kind, if the kept one is. */
  narrow: (v: FormDraftValue) => V | undefined
  /** What was read from the service, once it is. */
  loaded: () => V | undefined
  /** The form now, as a plain copy (undefined until it is filled). */
  current: () => V | undefined
  /** What to watch for a change (deeply). */
  track: () => unknown
  same: (a: V, b: V) => boolean
  /** Puts a kept value back into the form. */
  apply: (v: V) => void
}

export function useFormDraft<V extends FormDraftValue>(key: string, opts: FormDraftOptions<V>) {
  const drafts = useDraftsStore()
  // Shallow: the kept value stays a plain object (a form copies it with structuredClone, which a reactive proxy would refuse).
  const offered = shallowRef<{ value: V; at: string }>()
  let firstRead = true
  // One watcher for both, so that the form being filled from the first read is never taken
  // for the user going back to it (which would forget the edit before it is offered).
  watch(
    [opts.loaded, opts.track],
    () => {
      const loaded = opts.loaded()
      if (!loaded) return
      if (firstRead) {
        firstRead = false
        // Once read: a kept edit that differs from what the service holds now is offered.
        const kept = drafts.getForm(key)
        const value = kept ? opts.narrow(kept.value) : undefined
        offered.value = kept && value && !opts.same(value, loaded) ? { value, at: kept.at } : undefined
      }
      const current = opts.current()
      if (!current) return
      if (!opts.same(current, loaded)) {
        offered.value = undefined
        drafts.keepForm(key, current)
      } else if (!offered.value) drafts.dropForm(key)
    },
    { deep: true, immediate: true },
  )
  return {
    offered,
    restore() {
      const o = offered.value
      offered.value = undefined
      if (o) opts.apply(o.value)
    },
    forget() {
      offered.value = undefined
      drafts.dropForm(key)
    },
  }
}
