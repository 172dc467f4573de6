/**
 * The renderer's only way to the main process: `window.api`, which the preload (or the
 * end-to-end bridge) builds from the channel list. Everything else in the renderer reaches it
 * through lib/account-api.ts, bound to one account.
 */
import type { ChannelName } from '../../shared/ipc/channels'
import type { Progress, Result, WindowApi } from '../../shared/ipc/contract'
import type { ErrorData } from '../../shared/errors'

declare global {
  interface Window {
    api: WindowApi
  }
}

export type { Result, ErrorData, Progress }

type ChannelFunction = (payload: unknown, onProgress?: (p: Progress) => void) => Promise<unknown>

function isObject(v: unknown): v is Record<string, unknown> {
  return (typeof v === 'object' || typeof v === 'function') && v !== null
}

/** The function of `window.api` for a channel name (`domains.dns.get` is window.api.domains.dns.get). */
function channelFunction(channel: ChannelName): ChannelFunction {
  let node: unknown = window.api
  for (const part of channel.split('.')) node = isObject(node) ? node[part] : undefined
  if (typeof node !== 'function') throw new Error(`window.api has no channel ${channel}`)
  return (payload, onProgress) => Promise.resolve(node(payload, onProgress))
}

/**
 * Calls a channel by name. Main validated the payload and typed the answer; the answer is a
 * Result of the channel's result type (see ResultOf in the contract), which callers name.
 */
export function invoke(channel: ChannelName, payload: object, onProgress?: (p: Progress) => void): Promise<Result<unknown>> {
  return channelFunction(channel)(payload, onProgress) as Promise<Result<unknown>>
}

/** The one way job ids are made: a listAll or a cancellable call is followed and cancelled by it. */
export function newJobId(): string {
  return `job-${crypto.randomUUID()}`
}

/** Stops a running call or list read in main. */
export async function cancelJob(jobId: string): Promise<void> {
  await window.api.reads.cancel({ jobId })
}

/** The local channels (accounts, settings): not bound to an account. */
export const local = {
  accounts: () => window.api.accounts,
  app: () => window.api.app,
  store: () => window.api.store,
  history: () => window.api.history,
  reminders: () => window.api.reminders,
}

/**
 * Puts text on the clipboard through main: the page has no clipboard permission (every
 * permission is refused), so navigator.clipboard would fail in the app.
 */
export async function copyText(text: string): Promise<boolean> {
  const r = await window.api.app.copyText({ text })
  return r.ok
}

/** Sends an error of the page to the app's log (best effort: a failure here is not reported again). */
export function reportError(source: 'error' | 'rejection' | 'vue', error: unknown): void {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  const stack = error instanceof Error ? error.stack : undefined
  void window.api.app.reportError({ source, message: message.slice(0, 2000), ...(stack ? { stack: stack.slice(0, 8000) } : {}) }).catch(() => undefined)
}
