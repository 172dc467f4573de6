/**
 * Builds `window.api` over any transport: one flat `invoke` that sends only the contract's
 * channel names, and main's events. The preload uses it with ipcRenderer; the end-to-end
 * bridge uses it with a Playwright binding. One builder, so the two cannot drift. Plain code
 * with no library: it is most of what the preload bundles.
 */
import { CHANNEL_NAMES, type ChannelName } from './channels'
import type { Progress, Result, WindowApi } from './contract'
import type { JobView } from '../jobs'
import type { ReminderTarget } from '../portfolio/reminders'

export interface Transport {
  invoke(channel: ChannelName, payload: unknown): Promise<unknown>
  /** Subscribes to progress events; returns the unsubscribe function. */
  onProgress(listener: (p: Progress) => void): () => void
  /** Subscribes to write job changes; returns the unsubscribe function. */
  onJob(listener: (job: JobView) => void): () => void
  /** Subscribes to main's question before quitting while writes run. */
  onQuitRequest(listener: () => void): () => void
  /** Subscribes to main's question before a reload the unsaved edits held back. */
  onReloadRequest(listener: () => void): () => void
  /** Subscribes to clicks on reminder notifications. */
  onReminderOpen(listener: (target: ReminderTarget) => void): () => void
}

export function buildApi(transport: Transport): WindowApi {
  const contract = new Set<string>(CHANNEL_NAMES)
  return {
    // The page's script is not trusted with the transport: a name outside the contract never
    // reaches it, and is answered as main would answer it.
    invoke: (channel, payload) => {
      if (typeof channel === 'string' && contract.has(channel)) return transport.invoke(channel, payload)
      const refused: Result<never> = { ok: false, error: { kind: 'validation', code: 'ipc.unknownChannel', params: { channel: String(channel).slice(0, 80) } } }
      return Promise.resolve(refused)
    },
    onProgress: (listener) => transport.onProgress(listener),
    onJob: (listener) => transport.onJob(listener),
    onQuitRequest: (listener) => transport.onQuitRequest(listener),
    onReloadRequest: (listener) => transport.onReloadRequest(listener),
    onReminderOpen: (listener) => transport.onReminderOpen(listener),
  }
}
