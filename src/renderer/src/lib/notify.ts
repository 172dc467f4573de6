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
/** A screen change that starts this soon after a notice is the action's own navigation. */
const FOLLOWS_ACTION_MS = 1500

let nextId = 1
let raisedAt = 0
/** When the screen change now under way started: it ends only once the new screen's code is loaded. */
let navigationStartedAt = 0
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
 * Called by the router before each screen change (main.ts wires it). Whether the change is the
 * action's own is judged from its start: the screen's code may take seconds to load on a busy
 * machine, and a notice raised just before the change must not go for that.
 */
export function screenChanging(): void {
  navigationStartedAt = Date.now()
}

/**
 * Called by the router after each screen change (main.ts wires it): the notice goes unless the
 * change is the action's own. The router calls this module, not the other way round: views
 * import notify, and the router imports the views.
 */
export function screenChanged(toPath: string, fromPath: string): void {
  if (toPath === fromPath || !currentNotice.value) return
  if (navigationStartedAt - raisedAt > FOLLOWS_ACTION_MS) dismissNotice()
}
