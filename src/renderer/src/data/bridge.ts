/**
 * The renderer's only way to the main process: `window.api`, which the preload (or the
 * end-to-end bridge) builds, reached only from this file (lint holds the rest of the renderer
 * to it). Everything else calls `invoke` with a channel's name, typed by the contract's `Call`:
 * the payload the channel takes and the Result it answers. API calls of one account go through
 * data/account-api.ts, bound to that account.
 */
import type { Call, ChannelName, Progress, Result, WindowApi } from '@shared/ipc/contract'
import { callOver } from '@shared/ipc/call-over'
import type { PagedEndpointName, PagedItem } from '@shared/endpoints/table'
import type { ErrorData } from '@shared/errors'
import type { JobView } from '@shared/jobs'
import type { ReminderTarget } from '@shared/portfolio/reminders'

declare global {
  interface Window {
    api: WindowApi
  }
}

export type { Result, ErrorData, Progress }

/** A list as the portfolio store kept it: its items, when they were read, whether it was whole. */
export interface StoredItems<N extends PagedEndpointName> {
  items: PagedItem<N>[]
  readAt: string
  complete: boolean
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null
}

/** Every channel answers a Result (main's router makes it so); anything else is a broken bridge. */
function isResult(answer: unknown): answer is Result<unknown> {
  return (
    isObject(answer) && ((answer.ok === true && 'value' in answer) || (answer.ok === false && isObject(answer.error)))
  )
}

/** Progress listeners of the `all.*` reads in flight, by call id; one subscription serves them all. */
const progressListeners = new Map<string, (p: Progress) => void>()
let progressSubscribed = false

async function send(
  channel: ChannelName,
  payload: unknown,
  onProgress?: (p: Progress) => void,
): Promise<Result<unknown>> {
  const callId = isObject(payload) && typeof payload.callId === 'string' ? payload.callId : undefined
  if (callId && onProgress) {
    if (!progressSubscribed) {
      progressSubscribed = true
      window.api.onProgress((p) => progressListeners.get(p.callId)?.(p))
    }
    progressListeners.set(callId, onProgress)
  }
  try {
    const answer = await window.api.invoke(channel, payload)
    if (!isResult(answer)) throw new Error('main answered without a Result')
    return answer
  } finally {
    if (callId) progressListeners.delete(callId)
  }
}

/**
 * Calls a channel by name: the payload is the channel's (PayloadOf in the contract), the
 * answer a Result of what it answers (ResultOf): the contract's `Call`.
 */
export const invoke: Call = callOver(send)

/** Main's events: a write job changed, main asks before quitting, a reminder's notification was clicked. Each returns its unsubscribe. */
export const onJobUpdate = (listener: (job: JobView) => void): (() => void) => window.api.onJob(listener)
export const onQuitRequest = (listener: () => void): (() => void) => window.api.onQuitRequest(listener)
export const onReloadRequest = (listener: () => void): (() => void) => window.api.onReloadRequest(listener)
export const onReminderOpen = (listener: (target: ReminderTarget) => void): (() => void) =>
  window.api.onReminderOpen(listener)

/** The one way a read's call ids are made: a listAll or a cancellable call is followed and cancelled by it. */
export function newCallId(): string {
  return `call-${crypto.randomUUID()}`
}

/** Stops a running call or list read in main. */
export async function cancelCall(callId: string): Promise<void> {
  await invoke('reads.cancel', { callId })
}

/**
 * Puts text on the clipboard through main: the page has no clipboard permission (every
 * permission is refused), so navigator.clipboard would fail in the app.
 */
export async function copyText(text: string): Promise<boolean> {
  const r = await invoke('app.copyText', { text })
  return r.ok
}

/** Sends an error of the page to the app's log (best effort: a failure here is not reported again). */
export function reportError(source: 'error' | 'rejection' | 'vue', error: unknown): void {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  const stack = error instanceof Error ? error.stack : undefined
  void invoke('app.reportError', {
    source,
    message: message.slice(0, 2000),
    ...(stack ? { stack: stack.slice(0, 8000) } : {}),
  }).catch(() => undefined)
}
