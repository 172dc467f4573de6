/**
 * The one step from an untyped transport to the contract's `Call`, written once for every
 * client: the renderer's bridge (over the preload), main's router (over its handlers) and the
 * command line's door client (over the app's socket). Each transport answers a Result of
 * whatever crossed; main's handlers are typed by the contract and validate every payload, so
 * what a contract channel answers is its ResultOf. No library: the renderer bundles it.
 */
import type { ChannelName } from './channels'
import type { Call, Progress, Result } from './contract'

/** A transport's call: any contract channel, its payload, progress of an `all.*` read. */
export type Send = (
  channel: ChannelName,
  payload: unknown,
  onProgress?: (p: Progress) => void,
) => Promise<Result<unknown>>

export const callOver = (send: Send): Call => send as Call
