/**
 * Saving a setting someone else may have changed meanwhile (DNS records, nameservers, WHOIS):
 * read the current value again, compare it with the one the user started from, and only then
 * send. If it changed, nothing is sent: `conflict` holds theirs, and the user keeps theirs or
 * sends theirs over. A failed save keeps everything the user typed.
 */
import { ref, shallowRef, type Ref } from 'vue'
import type { ErrorData, Result } from '../data/bridge'
import { useAction } from './useAction'

export interface GuardedSaveOptions<V> {
  /** The value as the service holds it now. */
  readCurrent: () => Promise<Result<V>>
  /** Whether two versions are the same, as far as this setting goes. */
  same: (a: V, b: V) => boolean
  /**
   * Sends the user's version over `over`, the version the service held when it was last read
   * (main checks it again just before sending); answers what the service kept.
   */
  send: (over: V | undefined) => Promise<Result<V>>
}

export function useGuardedSave<V>(loaded: Ref<V | undefined>, opts: GuardedSaveOptions<V>) {
  const conflict = shallowRef<V>()
  const checkError = ref<ErrorData>()
  const sending = useAction(opts.send)

  /** Checks for a change made elsewhere, then sends; `force` sends over a known conflict. */
  async function save(force = false): Promise<V | undefined> {
    if (sending.busy.value) return undefined
    checkError.value = undefined
    // Sent over theirs when the user chose to keep theirs out (force), else over what was just read.
    let over = force ? (conflict.value ?? loaded.value) : loaded.value
    if (!force) {
      const current = await opts.readCurrent()
      if (!current.ok) {
        checkError.value = current.error
        return undefined
      }
      if (loaded.value !== undefined && !opts.same(current.value, loaded.value)) {
        conflict.value = current.value
        return undefined
      }
      over = current.value
    }
    const kept = await sending.run(over)
    if (kept !== undefined) {
      conflict.value = undefined
      loaded.value = kept
    }
    return kept
  }

  /** Gives up the user's version: theirs becomes the version to start from, and is returned to show. */
  function takeTheirs(): V | undefined {
    const theirs = conflict.value
    if (theirs === undefined) return undefined
    loaded.value = theirs
    conflict.value = undefined
    return theirs
  }

  return {
    save,
    keepMine: () => save(true),
    takeTheirs,
    conflict,
    checkError,
    saveError: sending.error,
    busy: sending.busy,
  }
}
