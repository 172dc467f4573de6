/**
 * Runs in the page before the app (Playwright init script): installs window.api with the
 * very builder the preload uses, over a Playwright binding instead of ipcRenderer.
 */
import { buildApi } from '../../src/shared/ipc/build-api'
import type { ChannelName, Progress } from '../../src/shared/ipc/contract'

interface BridgeWindow {
  api: unknown
  __haInvoke(channel: ChannelName, payload: unknown): Promise<unknown>
  __haProgress?: (p: Progress) => void
}
const w = window as unknown as BridgeWindow
let listener: ((p: Progress) => void) | undefined

w.api = Object.freeze(
  buildApi({
    invoke: (channel, payload) => w.__haInvoke(channel, payload),
    onProgress: (l) => {
      listener = l
      return () => {
        listener = undefined
      }
    },
  }),
)
w.__haProgress = (p) => listener?.(p)
