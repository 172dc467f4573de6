/**
 * Builds `window.api` over any transport: one flat `invoke` that sends only the contract's
 * channel names, and main's events. The preload uses it with ipcRenderer; the end-to-end
 * bridge uses it with a Playwright binding. One builder, so the two cannot drift. Plain code
 * with no library: it is most of what the preload bundles.
 */
import { CHANNEL_NAMES } from './channels'
import type { Result, WindowApi } from './contract'

/** A transport carries what `window.api` offers: the builder only guards the names sent over it. */
export type Transport = WindowApi

export function buildApi(transport: Transport): WindowApi {
  const contract = new Set<string>(CHANNEL_NAMES)
  return {
    // The page's script is not trusted with the transport: a name outside the contract never
    // reaches it, and is answered as main would answer it.
    invoke: (channel, payload) => {
      if (typeof channel === 'string' && contract.has(channel)) return transport.invoke(channel, payload)
      const refused: Result<never> = {
        ok: false,
        error: { kind: 'validation', code: 'ipc.unknownChannel', params: { channel: String(channel).slice(0, 80) } },
      }
      return Promise.resolve(refused)
    },
    onProgress: (listener) => transport.onProgress(listener),
    onJob: (listener) => transport.onJob(listener),
    onQuitRequest: (listener) => transport.onQuitRequest(listener),
    onReloadRequest: (listener) => transport.onReloadRequest(listener),
    onReminderOpen: (listener) => transport.onReminderOpen(listener),
  }
}
