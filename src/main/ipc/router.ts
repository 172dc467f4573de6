/**
 * The main-process side of the IPC boundary, as plain Node: Electron's ipcMain (src/main/index.ts)
 * and the end-to-end bridge (tests/e2e) both call `dispatch`.
 *
 * Before anything runs, the sender must be the app's own page (its frame URL on an allowed
 * origin), or the command line for its own channels (CLI_ONLY_CHANNELS); then the channel's handler validates the payload once and runs. Every outcome is a
 * Result; errors cross as plain data (a kind, a code and parameters), never a stack or the key.
 */
import type { ErrorData } from '@shared/errors'
import type { Call, Progress, Result } from '@shared/ipc/contract'
import { toErrorData } from '../base/app-error'
import type { Sender } from './channel'
import type { ChannelHandlers } from './handlers'
import type { RunningCalls } from '../reads/running-calls'
import type { AppLog } from '../base/app-log'
import { CHANNEL_NAMES, CLI_ONLY_CHANNELS, WINDOW_ONLY_CHANNELS } from '@shared/ipc/channels'
import { CLI_ORIGIN } from '@shared/ipc/door-messages'
import { callOver } from '@shared/ipc/call-over'
import { paceProgress } from './progress-pacer'

export type { Sender } from './channel'

export interface RouterOptions {
  /** Every channel's handler; when the app could not start, only the app's own (see `unavailable`). */
  handlers: ChannelHandlers | Partial<ChannelHandlers>
  calls: RunningCalls
  /** Origins (protocol//host) allowed to call, e.g. app://app. */
  allowedOrigins: string[]
  /** What a contract channel without a handler answers (the start-up problem); otherwise "unknown channel". */
  unavailable?: ErrorData
  /** Where refused senders and failed calls are noted (codes only, never a payload). */
  log?: Pick<AppLog, 'warn' | 'info'>
}

export interface IpcRouter {
  /** A call as it arrives from a transport (Electron's IPC, the command's door): any name, any payload. */
  dispatch(channel: string, payload: unknown, sender: Sender): Promise<Result<unknown>>
  /** The contract's typed client for callers in this process (the command line, tests), calling as `sender`. */
  client(sender: Sender): Call
  /** Cancellable calls in flight (for tests and shutdown). */
  readonly activeJobs: number
}

/** protocol//host of a URL; unlike URL.origin this is not "null" for custom schemes like app://. */
function originOf(url: string): string | undefined {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}`
  } catch {
    return undefined
  }
}

export function createIpcRouter(opts: RouterOptions): IpcRouter {
  const allowed = new Set(opts.allowedOrigins)
  const handlers = new Map(Object.entries(opts.handlers))
  const contract = new Set<string>(CHANNEL_NAMES)
  const cliOnly = new Set<string>(CLI_ONLY_CHANNELS)
  const windowOnly = new Set<string>(WINDOW_ONLY_CHANNELS)
  async function dispatch(channel: string, payload: unknown, sender: Sender): Promise<Result<unknown>> {
    const origin = originOf(sender.url)
    if (!origin || !allowed.has(origin)) {
      opts.log?.warn('ipc.foreignSender', { channel: channel.slice(0, 80), origin: (origin ?? 'none').slice(0, 200) })
      return fail({ kind: 'forbidden', code: 'ipc.foreignSender' })
    }
    // A channel of the command line's own: no other allowed sender (the window) may call it.
    if (cliOnly.has(channel) && origin !== CLI_ORIGIN) {
      opts.log?.warn('ipc.cliOnlyChannel', { channel, origin: origin.slice(0, 200) })
      return fail({ kind: 'forbidden', code: 'ipc.foreignSender' })
    }
    // A channel of the window's own: the command line (its door to the running app included) may not call it.
    if (windowOnly.has(channel) && origin === CLI_ORIGIN) {
      opts.log?.warn('ipc.windowOnlyChannel', { channel })
      return fail({ kind: 'forbidden', code: 'ipc.foreignSender' })
    }
    const handler = handlers.get(channel)
    if (!handler) {
      if (opts.unavailable && contract.has(channel)) return fail(opts.unavailable)
      return fail({ kind: 'validation', code: 'ipc.unknownChannel', params: { channel: channel.slice(0, 80) } })
    }
    // The call's progress paced (progress-pacer.ts), its last count sent before its answer.
    const progress = paceProgress((p) => sender.sendProgress(p))
    try {
      return { ok: true, value: await handler.invoke(payload, { ...sender, sendProgress: progress.send }) }
    } catch (err) {
      const error = toErrorData(err)
      opts.log?.info('ipc.failed', {
        channel,
        kind: error.kind,
        code: error.code,
        status: error.status,
        requestId: error.requestId,
      })
      return fail(error)
    } finally {
      progress.flush()
    }
  }
  /** A call with its own progress listener: the sender's progress of that call goes to it too. */
  function dispatchFollowed(
    channel: string,
    payload: unknown,
    sender: Sender,
    onProgress?: (p: Progress) => void,
  ): Promise<Result<unknown>> {
    if (!onProgress) return dispatch(channel, payload, sender)
    const callId = typeof payload === 'object' && payload !== null && 'callId' in payload ? payload.callId : undefined
    return dispatch(channel, payload, {
      ...sender,
      sendProgress: (p) => {
        sender.sendProgress(p)
        if (p.callId === callId) onProgress(p)
      },
    })
  }
  return {
    get activeJobs() {
      return opts.calls.size
    },
    dispatch,
    // Each channel's handler is typed by the contract (ChannelHandlers) and validates its payload.
    client: (sender) =>
      callOver((channel, payload, onProgress) => dispatchFollowed(channel, payload, sender, onProgress)),
  }
}

function fail(error: ErrorData): Result<never> {
  return { ok: false, error }
}
