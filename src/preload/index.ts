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

const api = buildApi({
  invoke: (channel, payload) => ipcRenderer.invoke(ipcChannel(channel), payload),
  onProgress: (listener) => {
    const handler = (_event: Electron.IpcRendererEvent, p: Progress) => listener(p)
    ipcRenderer.on(PROGRESS_CHANNEL, handler)
    return () => ipcRenderer.removeListener(PROGRESS_CHANNEL, handler)
  },
  onJob: (listener) => {
    const handler = (_event: Electron.IpcRendererEvent, job: JobView) => listener(job)
    ipcRenderer.on(JOB_CHANNEL, handler)
    return () => ipcRenderer.removeListener(JOB_CHANNEL, handler)
  },
  onQuitRequest: (listener) => {
    const handler = () => listener()
    ipcRenderer.on(QUIT_CHANNEL, handler)
    return () => ipcRenderer.removeListener(QUIT_CHANNEL, handler)
  },
  onReloadRequest: (listener) => {
    const handler = () => listener()
    ipcRenderer.on(RELOAD_CHANNEL, handler)
    return () => ipcRenderer.removeListener(RELOAD_CHANNEL, handler)
  },
  onReminderOpen: (listener) => {
    const handler = (_event: Electron.IpcRendererEvent, target: ReminderTarget) => listener(target)
    ipcRenderer.on(REMINDER_OPEN_CHANNEL, handler)
    return () => ipcRenderer.removeListener(REMINDER_OPEN_CHANNEL, handler)
  },
})

contextBridge.exposeInMainWorld('api', api)
