/**
 * Runs in the page before the app (Playwright init script): installs window.api with the
 * very builder the preload uses, over a Playwright binding instead of ipcRenderer.
 */
import { buildApi } from '@shared/ipc/build-api'
import type { ChannelName, Progress, WindowApi } from '@shared/ipc/contract'
import type { JobView } from '@shared/jobs'
import type { ReminderTarget } from '@shared/portfolio/reminders'

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
  }
}
const w = window
let listener: ((p: Progress) => void) | undefined
const jobListeners = new Set<(job: JobView) => void>()
const quitListeners = new Set<() => void>()
const reminderListeners = new Set<(target: ReminderTarget) => void>()
const reloadListeners = new Set<() => void>()

w.api = Object.freeze(
  buildApi({
    invoke: async (channel, payload): Promise<unknown> => JSON.parse(await w.__haInvoke(channel, payload)),
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
