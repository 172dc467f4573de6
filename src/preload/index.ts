/**
 * Exposes `window.api`: one function per contract channel, nothing else. No raw
 * ipcRenderer and no generic send reach the page.
 */
import { contextBridge, ipcRenderer } from 'electron'
import { buildApi } from '../shared/ipc/build-api'
import { PROGRESS_CHANNEL, ipcChannel } from '../shared/ipc/channels'
import type { Progress } from '../shared/ipc/contract'

const api = buildApi({
  invoke: (channel, payload) => ipcRenderer.invoke(ipcChannel(channel), payload),
  onProgress: (listener) => {
    const handler = (_event: Electron.IpcRendererEvent, p: Progress) => listener(p)
    ipcRenderer.on(PROGRESS_CHANNEL, handler)
    return () => ipcRenderer.removeListener(PROGRESS_CHANNEL, handler)
  },
})

contextBridge.exposeInMainWorld('api', api)
