/**
 * The command's way into the app: the app's own services (accounts file, keychain entries, job
 * runner, journal, store and history) on the app's data folder, called through the app's IPC
 * router as the window calls it, so every payload is validated and every write goes through the
 * same runner, safety levels and journal. The router takes calls only from its allowed origins:
 * this session's is the command's own.
 */
import { createAppServices, type AppServices, type CliLockWait } from '../main/app-services'
import type { Sender } from '../main/ipc/channel'
import { AppError } from '../main/app-error'
import { CLI_ORIGIN } from '../main/cli-server'
import { currentHolder } from '../main/data-lock'
import { recordDdnsUpdate } from '../main/ddns-history'
import { sessionThroughApp } from './app-door'
import type { Session } from './session-api'

export type { Session } from './session-api'
import type { ErrorData } from '../shared/errors'
import type { Progress } from '../shared/ipc/contract'
import { isJobRunning, type JobView } from '../shared/jobs'



export type Opened = { ok: true; session: Session } | { ok: false; error: ErrorData }

export async function openSession(dataDir: string, opts: { onProgress?: (p: Progress) => void; storeWorkerUrl?: URL; lockWait?: CliLockWait } = {}): Promise<Opened> {
  // The app runs on this folder: its door takes the command's calls (a door that does not answer
  // leaves the folder to the lock below, which then says which process holds it).
  const holder = await currentHolder(dataDir)
  if (holder?.who === 'app' && holder.pid !== process.pid && holder.socket && holder.token) {
    const session = await sessionThroughApp(holder.socket, holder.token, opts.onProgress).catch(() => undefined)
    if (session) return { ok: true, session }
  }
  const waiting = new Map<string, (job: JobView) => void>()
  const sender: Sender = {
    url: `${CLI_ORIGIN}/`,
    key: 'cli',
    sendProgress: (p) => opts.onProgress?.(p),
    sendJob: (job) => {
      if (!isJobRunning(job) && job.status !== 'prepared') waiting.get(job.id)?.(job)
      return true
    },
  }
  let services: AppServices
  try {
    services = await createAppServices({
      userDataDir: dataDir,
      allowedOrigins: [CLI_ORIGIN],
      lockAs: 'cli',
      userAgent: 'hosting-admin-cli',
      storeWorkerUrl: opts.storeWorkerUrl ?? new URL('./store-worker.js', import.meta.url),
      ...(opts.lockWait ? { lockWait: opts.lockWait } : {}),
    })
  } catch (err) {
    if (err instanceof AppError) return { ok: false, error: err.data }
    throw err
  }
  let closed: Promise<void> | undefined
  const dispatch = (channel: string, payload: object) => services.router.dispatch(channel, payload, sender)
  await dispatch('jobs.watch', {})
  // The router answers each channel with its contract's result type (main's handlers are typed by
  // it); the overloads above say which, as the window's bridge does.
  const call = dispatch as Session['call']
  return {
    ok: true,
    session: {
      call,
      ended(job) {
        const now = services.jobs.list().find((j) => j.id === job.id)
        if (now && !isJobRunning(now) && now.status !== 'prepared') return Promise.resolve(now)
        return new Promise((resolve) => waiting.set(job.id, resolve))
      },
      recordDdns: (e) => recordDdnsUpdate(services.store, e),
      viaApp: false,
      close: () => (closed ??= services.close()),
    },
  }
}
