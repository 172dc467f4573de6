import { ref } from 'vue'

/**
 * The success line of the screen that raised it: shown in a polite live region, gone by
 * itself after a few seconds, and gone when the user moves to another screen. A notice raised
 * just before the action itself moves to another screen (a removal that returns to the list)
 * goes along with it. Errors are not notices: they stay until dismissed or resolved.
 */
export interface Notice {
  id: number
  text: string
}

export const currentNotice = ref<Notice>()

/** How long a notice stays up. */
const NOTICE_MS = 8000
/** A screen change this soon after a notice is the action's own navigation. */
const FOLLOWS_ACTION_MS = 1500

let nextId = 1
let raisedAt = 0
let timer: ReturnType<typeof setTimeout> | undefined

export function notify(text: string): void {
  const notice = { id: nextId++, text }
  currentNotice.value = notice
  raisedAt = Date.now()
  if (timer) clearTimeout(timer)
  timer = setTimeout(() => dismissNotice(notice.id), NOTICE_MS)
}

export function dismissNotice(id?: number): void {
  if (id === undefined || currentNotice.value?.id === id) currentNotice.value = undefined
}

/**
 * Called by the router after each screen change (main.ts wires it): the notice goes unless the
 * change is the action's own. The router calls this module, not the other way round: views
 * import notify, and the router imports the views.
 */
export function screenChanged(toPath: string, fromPath: string): void {
  if (toPath === fromPath || !currentNotice.value) return
  if (Date.now() - raisedAt > FOLLOWS_ACTION_MS) dismissNotice()
}
