import { shallowRef, type ShallowRef } from 'vue'

/**
 * Undo and redo over a value that is replaced whole on every edit (the editor's rows). Every
 * edit goes through `commit`, so undo sees it; at most `limit` steps are kept.
 */
export function useUndoHistory<T>(current: ShallowRef<T>, limit = 200) {
  const past = shallowRef<T[]>([])
  const future = shallowRef<T[]>([])
  return {
    past,
    future,
    commit(next: T) {
      past.value = [...past.value.slice(-(limit - 1)), current.value]
      future.value = []
      current.value = next
    },
    undo() {
      const prev = past.value.at(-1)
      if (prev === undefined) return
      future.value = [current.value, ...future.value]
      past.value = past.value.slice(0, -1)
      current.value = prev
    },
    redo() {
      const next = future.value[0]
      if (next === undefined) return
      past.value = [...past.value, current.value]
      future.value = future.value.slice(1)
      current.value = next
    },
    /** Forgets every step (a fresh load). */
    clear() {
      past.value = []
      future.value = []
    },
  }
}
