/**
 * Runs in the page before the app (Playwright init script): installs window.api with the
 * very builder the preload uses, over a Playwright binding instead of ipcRenderer.
 */
import { buildApi } from '@shared/ipc/build-api'
import type { ChannelName, Progress, WindowApi } from '@shared/ipc/contract'
import type { JobView } from '@shared/jobs'
import type { ReminderTarget } from '@shared/portfolio/reminders'
import { nextTask } from '../src/renderer/src/lib/sliced'

declare global {
  /**
   * The page's window as this bridge makes it: the specs, the harness and the benchmarks of the
   * e2e program read these members as typed here (the app's own window has only `api`).
   */
  interface Window {
    api: WindowApi
    /** The answer as JSON text: Playwright carries a string far faster than a large object. */
    __haInvoke(channel: ChannelName, payload: unknown): Promise<string>
    __haProgress?: (p: Progress) => void
    __haJob?: (job: JobView) => void
    __haQuitRequest?: () => void
    /** As main's ask before a reload the page's unsaved edits held back (Electron's will-prevent-unload). */
    __haReloadRequest?: () => void
    /** Main's "open this reminder's item" (a notification was clicked). */
    __haReminderOpen?: (target: ReminderTarget) => void
    /** Set before this script by a bench (harness.ts, BridgeOptions): each answer handed over in a task of its own. */
    __haAnswerInOwnTask?: boolean
  }
}
const w = window
let listener: ((p: Progress) => void) | undefined
const jobListeners = new Set<(job: JobView) => void>()
const quitListeners = new Set<() => void>()
const reminderListeners = new Set<(target: ReminderTarget) => void>()
const reloadListeners = new Set<() => void>()

/**
 * Asked for by a bench: the answer's text arrives in the task of the DevTools message that carried it (its
 * parse there is the protocol's, tens of ms for a 300 KB part); the app's read of it, JSON.parse standing in
 * for Electron's deserialisation, and its work on it then run in the next task (the window's own message-port
 * hop: a timer's could be throttled).
 */
const answerInOwnTask = w.__haAnswerInOwnTask === true

w.api = Object.freeze(
  buildApi({
    invoke: async (channel, payload): Promise<unknown> => {
      const text = await w.__haInvoke(channel, payload)
      if (answerInOwnTask) await nextTask()
      return JSON.parse(text)
    },
    onProgress: (l) => {
      listener = l
      return () => {
        listener = undefined
      }
    },
    onJob: (l) => {
      jobListeners.add(l)
      return () => jobListeners.delete(l)
    },
    onQuitRequest: (l) => {
      quitListeners.add(l)
      return () => quitListeners.delete(l)
    },
    onReloadRequest: (l) => {
      reloadListeners.add(l)
      return () => reloadListeners.delete(l)
    },
    onReminderOpen: (l) => {
      reminderListeners.add(l)
      return () => reminderListeners.delete(l)
    },
  }),
)
w.__haProgress = (p) => listener?.(p)
w.__haJob = (job) => {
  for (const l of jobListeners) l(job)
}
w.__haQuitRequest = () => {
  for (const l of quitListeners) l()
}
w.__haReloadRequest = () => {
  for (const l of reloadListeners) l()
}
w.__haReminderOpen = (target) => {
  for (const l of reminderListeners) l(target)
}
