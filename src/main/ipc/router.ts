/**
 * The main-process side of the IPC boundary, as plain Node: Electron's ipcMain (src/main/index.ts)
 * and the end-to-end bridge (tests/e2e) both call `dispatch`.
 *
 * Before anything runs, the sender must be the app's own page (its frame URL on an allowed
 * origin); then the channel's handler validates the payload once and runs. Every outcome is a
 * Result; errors cross as plain data (a kind, a code and parameters), never a stack or the key.
 */
import type { ErrorData } from '../../shared/errors'
import type { Result } from '../../shared/ipc/contract'
import { toErrorData } from '../app-error'
import type { Sender } from './channel'
import type { ChannelHandlers } from './handlers'
import type { RunningCalls } from './running-calls'

export type { Sender } from './channel'

export interface RouterOptions {
  handlers: ChannelHandlers
  calls: RunningCalls
  /** Origins (protocol//host) allowed to call, e.g. app://app. */
  allowedOrigins: string[]
}

export interface IpcRouter {
  dispatch(channel: string, payload: unknown, sender: Sender): Promise<Result<unknown>>
  /** Cancellable calls in flight (for tests and shutdown). */
  readonly activeJobs: number
}

/** protocol//host of a URL; unlike URL.origin this is not "null" for custom schemes like app://. */
export function originOf(url: string): string | undefined {
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
  return {
    get activeJobs() {
      return opts.calls.size
    },
    async dispatch(channel, payload, sender) {
      const origin = originOf(sender.url)
      if (!origin || !allowed.has(origin)) return fail({ kind: 'forbidden', code: 'ipc.foreignSender' })
      const handler = handlers.get(channel)
      if (!handler) return fail({ kind: 'validation', code: 'ipc.unknownChannel', params: { channel: channel.slice(0, 80) } })
      try {
        return { ok: true, value: await handler.invoke(payload, sender) }
      } catch (err) {
        return fail(toErrorData(err))
      }
    },
  }
}

function fail(error: ErrorData): Result<never> {
  return { ok: false, error }
}

