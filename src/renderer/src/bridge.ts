/**
 * The renderer's only way to the main process: `window.api`, which the preload (or the
 * end-to-end bridge) builds from the channel list, reached only from this file (lint holds the
 * rest of the renderer to it). Everything else calls `invoke` with a channel's name, typed by
 * the contract: the payload the channel takes and the Result it answers. API calls of one
 * account go through lib/account-api.ts, bound to that account.
 */
import type { LocalChannel } from '../../shared/ipc/channels'
import type { ApiPayload, ListAllPayload, LocalResults, PayloadOf, Progress, Result, WindowApi } from '../../shared/ipc/contract'
import type { EndpointResult, PagedEndpointName, PagedInput, PagedItem, ReadEndpointName } from '../../shared/endpoints/table'
import type { ErrorData } from '../../shared/errors'
import type { JobView } from '../../shared/jobs'
import type { ReminderTarget } from '../../shared/reminders'

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

type ChannelFunction = (payload: unknown, onProgress?: (p: Progress) => void) => Promise<unknown>

function isObject(v: unknown): v is Record<string, unknown> {
  return (typeof v === 'object' || typeof v === 'function') && v !== null
}

/** The function of `window.api` for a channel name (`domains.dns.get` is window.api.domains.dns.get). */
function channelFunction(channel: string): ChannelFunction {
  let node: unknown = window.api
  for (const part of channel.split('.')) node = isObject(node) ? node[part] : undefined
  if (typeof node !== 'function') throw new Error(`window.api has no channel ${channel}`)
  return (payload, onProgress) => Promise.resolve(node(payload, onProgress))
}

/**
 * Calls a channel by name: the payload is the channel's (PayloadOf in the contract), the
 * answer a Result of what it answers (ResultOf). Main validates the payload and its handler is
 * typed by the same contract, so the overloads below state what main answers; they are the
 * bridge's one step from the untyped transport to the contract's types.
 */
// A paged list's first page (a paged read with a limit): its items.
export function invoke<N extends PagedEndpointName>(channel: N, payload: PagedInput<N> & { accountId: string; callId?: string; limit: number }): Promise<Result<PagedItem<N>[]>>
// A read of one account.
export function invoke<N extends ReadEndpointName>(channel: N, payload: ApiPayload<N>): Promise<Result<EndpointResult<N>>>
// Every page of a list, with progress.
export function invoke<N extends PagedEndpointName>(channel: `all.${N}`, payload: ListAllPayload<N>, onProgress?: (p: Progress) => void): Promise<Result<PagedItem<N>[]>>
// A list as the store kept it: items of that list (main read them back with its item schema).
export function invoke<N extends PagedEndpointName>(channel: 'store.list', payload: { accountId: string; name: N; params: PagedInput<N> }): Promise<Result<StoredItems<N> | null>>
// The local channels: accounts, jobs, the store, history, reminders, the app.
export function invoke<C extends LocalChannel>(channel: C, payload: PayloadOf<C>): Promise<Result<LocalResults[C]>>
// (The implementation takes any name: TypeScript cannot check a generic `all.${N}` against ChannelName; the overloads hold callers to the channels.)
export function invoke(channel: string, payload: object, onProgress?: (p: Progress) => void): Promise<Result<unknown>> {
  return channelFunction(channel)(payload, onProgress).then(asResult)
}

/** Every channel answers a Result (main's router makes it so); anything else is a broken bridge. */
function asResult(answer: unknown): Result<unknown> {
  if (isObject(answer) && ((answer.ok === true && 'value' in answer) || (answer.ok === false && isObject(answer.error)))) return answer as Result<unknown>
  throw new Error('main answered without a Result')
}

/** Main's events: a write job changed, main asks before quitting, a reminder's notification was clicked. Each returns its unsubscribe. */
export const onJobUpdate = (listener: (job: JobView) => void): (() => void) => window.api.jobs.onUpdate(listener)
export const onQuitRequest = (listener: () => void): (() => void) => window.api.app.onQuitRequest(listener)
export const onReminderOpen = (listener: (target: ReminderTarget) => void): (() => void) => window.api.reminders.onOpen(listener)

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
  void invoke('app.reportError', { source, message: message.slice(0, 2000), ...(stack ? { stack: stack.slice(0, 8000) } : {}) }).catch(() => undefined)
}
