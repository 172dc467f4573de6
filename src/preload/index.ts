/**
 * Exposes `window.api`: one `invoke(channel, payload)` that sends only the contract's channel
 * names (any other is refused here, never sent), and main's events. No raw ipcRenderer and no
 * generic send reach the page.
 */
import { contextBridge, ipcRenderer } from 'electron'
import { buildApi } from '@shared/ipc/build-api'
import {
  JOB_CHANNEL,
  PROGRESS_CHANNEL,
  QUIT_CHANNEL,
  RELOAD_CHANNEL,
  REMINDER_OPEN_CHANNEL,
  ipcChannel,
} from '@shared/ipc/channels'
import type { Progress } from '@shared/ipc/contract'
import type { JobView } from '@shared/jobs'
import type { ReminderTarget } from '@shared/portfolio/reminders'

/** Follows one of main's events, giving its values to `listener`; answers the function that stops it. */
function follow<T extends unknown[]>(channel: string, listener: (...values: T) => void): () => void {
  const handler = (_event: Electron.IpcRendererEvent, ...values: T) => listener(...values)
  ipcRenderer.on(channel, handler)
  return () => ipcRenderer.removeListener(channel, handler)
}

const api = buildApi({
  invoke: (channel, payload) => ipcRenderer.invoke(ipcChannel(channel), payload),
  onProgress: (listener) => follow<[Progress]>(PROGRESS_CHANNEL, listener),
  onJob: (listener) => follow<[JobView]>(JOB_CHANNEL, listener),
  onQuitRequest: (listener) => follow(QUIT_CHANNEL, () => listener()),
  onReloadRequest: (listener) => follow(RELOAD_CHANNEL, () => listener()),
  onReminderOpen: (listener) => follow<[ReminderTarget]>(REMINDER_OPEN_CHANNEL, listener),
})

contextBridge.exposeInMainWorld('api', api)
