/**
 * Exposes `window.api`: one `invoke(channel, payload)` that sends only the contract's channel
 * names (any other is refused here, never sent), and main's events. No raw ipcRenderer and no
 * generic send reach the page.
 */
import { contextBridge, ipcRenderer } from 'electron'
import { buildApi } from '@shared/ipc/build-api'
import { EVENT_CHANNELS, ipcChannel } from '@shared/ipc/channels'
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
  onProgress: (listener) => follow<[Progress]>(EVENT_CHANNELS.progress, listener),
  onJob: (listener) => follow<[JobView]>(EVENT_CHANNELS.job, listener),
  onQuitRequest: (listener) => follow(EVENT_CHANNELS.quitRequest, () => listener()),
  onReloadRequest: (listener) => follow(EVENT_CHANNELS.reloadRequest, () => listener()),
  onReminderOpen: (listener) => follow<[ReminderTarget]>(EVENT_CHANNELS.reminderOpen, listener),
})

contextBridge.exposeInMainWorld('api', api)
