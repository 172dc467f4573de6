/**
 * The main-process side of the IPC contract, as plain Node: Electron's ipcMain (in
 * src/main/index.ts) and the end-to-end bridge (tests/e2e) both call `dispatch`.
 *
 * Before anything runs: the sender must be the app's own page (its frame URL on an
 * allowed origin) and the payload must match the channel's schema. Every outcome is
 * a Result; errors cross as plain data (kind, status, message, requestId), never a
 * stack and never the key.
 */
import {
  CHANNEL_NAMES,
  payloadSchemas,
  type ChannelName,
  type Progress,
  type Result,
} from '../../shared/ipc/contract'
import { ENDPOINT_NAMES, type EndpointName, type PagedEndpointName } from '../../shared/endpoints/table'
import type { ErrorData } from '../../shared/errors'
import { ApiError } from '../http/errors'
import type { AccountService } from '../accounts/account-service'

export interface Sender {
  /** URL of the frame that sent the message. */
  url: string
  /** Sends an event back to that page. */
  sendProgress(p: Progress): void
}

export interface RouterOptions {
  accounts: AccountService
  /** Origins (protocol//host) allowed to call, e.g. app://app. */
  allowedOrigins: string[]
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

const channels = new Set<string>(CHANNEL_NAMES)
const endpointNames = new Set<string>(ENDPOINT_NAMES)

export interface IpcRouter {
  dispatch(channel: string, payload: unknown, sender: Sender): Promise<Result<unknown>>
  /** Jobs in flight (for tests and shutdown). */
  readonly activeJobs: number
}

export function createIpcRouter(opts: RouterOptions): IpcRouter {
  const allowed = new Set(opts.allowedOrigins)
  const jobs = new Map<string, AbortController>()
  const { accounts } = opts

  async function run(channel: ChannelName, p: Record<string, unknown>, sender: Sender): Promise<unknown> {
    switch (channel) {
      case 'accounts.list':
        return accounts.list()
      case 'accounts.create':
        return accounts.create(p.fields as never, p.apiKey as string, p.storage as 'keychain' | 'session')
      case 'accounts.update':
        return accounts.update(p.id as string, p.fields as never)
      case 'accounts.remove':
        await accounts.remove(p.id as string)
        return null
      case 'accounts.setActive':
        await accounts.setActive(p.id as string)
        return null
      case 'accounts.replaceKey':
        await accounts.replaceKey(p.id as string, p.apiKey as string, p.storage as 'keychain' | 'session')
        return null
      case 'accounts.testConnection':
        return accounts.testConnection(p.id as string)
      case 'accounts.keychainStatus':
        return accounts.keychainStatus()
      case 'jobs.cancel':
        jobs.get(p.jobId as string)?.abort()
        return null
    }
    const { accountId, jobId, ...params } = p as { accountId: string; jobId?: string } & Record<string, unknown>
    const controller = new AbortController()
    if (jobId) {
      jobs.get(jobId)?.abort()
      jobs.set(jobId, controller)
    }
    try {
      const client = await accounts.client(accountId)
      if (channel.startsWith('all.')) {
        const name = channel.slice(4) as PagedEndpointName
        return await client.listAll(name, params as never, {
          signal: controller.signal,
          onProgress: (pr) => sender.sendProgress({ jobId: jobId ?? '', loadedItems: pr.loadedItems, expectedItems: pr.expectedItems }),
        })
      }
      return await client.call(channel as EndpointName, params as never, { signal: controller.signal })
    } finally {
      if (jobId && jobs.get(jobId) === controller) jobs.delete(jobId)
    }
  }

  return {
    get activeJobs() {
      return jobs.size
    },
    async dispatch(channel, payload, sender) {
      const origin = originOf(sender.url)
      if (!origin || !allowed.has(origin)) {
        return fail({ kind: 'forbidden', message: 'This request did not come from the app’s own page and was refused.' })
      }
      if (!channels.has(channel)) return fail({ kind: 'validation', message: `Unknown channel ${channel}.` })
      const name = channel as ChannelName
      const parsed = payloadSchemas[name].safeParse(payload)
      if (!parsed.success) {
        const issues = parsed.error.issues.slice(0, 20).map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))
        return fail({
          kind: 'validation',
          message: `Invalid request: ${issues.map((i) => `${i.path || 'payload'} ${i.message}`).join('; ')}`,
          issues,
        })
      }
      try {
        // API parameters are passed on as sent (the client validates them again and applies its own transforms).
        const value = await run(name, (endpointNames.has(name) || name.startsWith('all.') ? payload : parsed.data) as Record<string, unknown>, sender)
        return { ok: true, value }
      } catch (err) {
        return fail(toErrorData(err))
      }
    },
  }
}

function fail(error: ErrorData): Result<never> {
  return { ok: false, error }
}

/** Any thrown value as plain error data. Unknown errors become a generic message: their text may hold anything. */
export function toErrorData(err: unknown): ErrorData {
  if (err instanceof ApiError) return err.toData()
  return { kind: 'internal', message: 'Something went wrong inside the app. Try again; if it keeps happening, restart the app.' }
}
