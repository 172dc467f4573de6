/**
 * Builds `window.api` from the channel list over any transport. The preload uses it with
 * ipcRenderer; the end-to-end bridge uses it with a Playwright binding. One builder, so the
 * two cannot drift. Plain code with no library: it is most of what the preload bundles.
 */
import { CHANNEL_NAMES, type ChannelName } from './channels'
import type { Progress, Result, WindowApi } from './contract'
import type { JobView } from '../jobs'
import type { ReminderTarget } from '../reminders'

export interface Transport {
  invoke(channel: ChannelName, payload: unknown): Promise<unknown>
  /** Subscribes to progress events; returns the unsubscribe function. */
  onProgress(listener: (p: Progress) => void): () => void
  /** Subscribes to write job changes; returns the unsubscribe function. */
  onJob(listener: (job: JobView) => void): () => void
  /** Subscribes to main's question before quitting while writes run. */
  onQuitRequest(listener: () => void): () => void
  /** Subscribes to clicks on reminder notifications. */
  onReminderOpen(listener: (target: ReminderTarget) => void): () => void
}

export function buildApi(transport: Transport): WindowApi {
  const listeners = new Map<string, (p: Progress) => void>()
  transport.onProgress((p) => listeners.get(p.callId)?.(p))

  const root: Record<string, unknown> = {}
  for (const channel of CHANNEL_NAMES) {
    const path = channel.split('.')
    let node = root
    for (const part of path.slice(0, -1)) {
      node[part] ??= {}
      node = node[part] as Record<string, unknown>
    }
    const leaf = path[path.length - 1] as string
    node[leaf] = channel.startsWith('all.')
      ? async (payload: { callId?: unknown }, onProgress?: (p: Progress) => void) => {
          const callId = typeof payload?.callId === 'string' ? payload.callId : undefined
          if (callId && onProgress) listeners.set(callId, onProgress)
          try {
            return (await transport.invoke(channel, payload)) as Result<unknown>
          } finally {
            if (callId) listeners.delete(callId)
          }
        }
      : (payload: unknown) => transport.invoke(channel, payload) as Promise<Result<unknown>>
  }
  const jobs = root.jobs as Record<string, unknown>
  jobs.onUpdate = (listener: (job: JobView) => void) => transport.onJob(listener)
  const app = root.app as Record<string, unknown>
  app.onQuitRequest = (listener: () => void) => transport.onQuitRequest(listener)
  // The channels made the `reminders` node; its event subscription joins them there.
  const reminders = root.reminders
  if (typeof reminders === 'object' && reminders !== null) Object.assign(reminders, { onOpen: (listener: (target: ReminderTarget) => void) => transport.onReminderOpen(listener) })
  // The nested object is built from the same names the WindowApi type is built from.
  return root as unknown as WindowApi
}
