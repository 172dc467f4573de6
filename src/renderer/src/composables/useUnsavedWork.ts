/**
 * Unsaved edits are not dropped without a question when the window goes. The drafts store
 * holds them (never a secret); main is told how many there are, so closing the window asks
 * first (main's `close` event, answered through app.quit), and a reload asks through the
 * page's own `beforeunload`. Once the user has said to close, nothing asks again.
 */
import { computed, watch } from 'vue'
import { invoke } from '../data/bridge'
import { useDraftsStore } from '../stores/drafts'

let leaving = false

export function useUnsavedWork() {
  const drafts = useDraftsStore()
  const count = computed(() => drafts.zones.size + drafts.forms.size)
  // Said on change only: a fresh page has none, and main asking a page that has none (after a
  // reload) is answered at once by quitting (App.vue's askToQuit).
  watch(count, (n) => void invoke('app.unsavedWork', { count: n }))
  window.addEventListener('beforeunload', (event) => {
    if (leaving || count.value === 0) return
    // The browser's own question (Chromium shows it for a reload; its text is the browser's).
    event.preventDefault()
    event.returnValue = ''
  })
  return {
    count,
    /** The user chose to close although edits are unsaved: the page asks nothing more. */
    leave() {
      leaving = true
    },
  }
}
