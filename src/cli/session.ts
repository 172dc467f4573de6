/**
 * The command's way into the app: the app's own services (accounts file, keychain entries, job
 * runner, journal, store and history) on the app's data folder, called through the app's IPC
 * router as the window calls it, so every payload is validated and every write goes through the
 * same runner, safety levels and journal. The router takes calls only from its allowed origins:
 * this session's is the command's own.
 */
import { createAppServices, type AppServices, type CliLockWait, type Sender } from '../main/app/app-services'
import type { SecretStore } from '../main/accounts/secret-store'
import { AppError } from '../main/base/app-error'
import { CLI_ORIGIN } from '@shared/ipc/door-messages'
import { currentHolder } from '../main/base/data-lock'
import { sessionThroughApp } from './app-door'
import type { Session } from './session-api'

export type { Session } from './session-api'
import type { ErrorData } from '@shared/errors'
import type { Progress } from '@shared/ipc/contract'
import { isJobRunning, type JobView } from '@shared/jobs'

export type Opened = { ok: true; session: Session } | { ok: false; error: ErrorData }

export interface SessionOptions {
  onProgress?: (p: Progress) => void
  storeWorkerUrl?: URL
  /**
   * The keys of a command given a key file or a systemd credential (key-source-store.ts), used
   * instead of the keychain, which is then never asked. Through the app's door the app acts with
   * the keys it keeps itself, so this is for services of the command's own only.
   */
  secrets?: SecretStore
  /** How long an ACME hook waits for a data folder another command holds (up to its --timeout). */
  lockWait?: CliLockWait
}

export async function openSession(dataDir: string, opts: SessionOptions = {}): Promise<Opened> {
  // The app holds this folder (data-lock.ts: its OS lock stands): its door takes the command's
  // calls. Any other holder (another command) is waited for by the lock below.
  const holder = await currentHolder(dataDir)
  if (holder?.who === 'app' && holder.pid !== process.pid) {
    const session =
      holder.socket && holder.token
        ? await sessionThroughApp(holder.socket, holder.token, opts.onProgress).catch(() => undefined)
        : undefined
    if (session) return { ok: true, session }
    // The app holds the folder (its OS lock stands) but no door of the user's answers: the app
    // advertises none it could not open safely, and one that is not the user's alone is not used.
    return {
      ok: false,
      error: { kind: 'internal', code: 'cli.appDoorUnreachable', params: { path: dataDir, pid: holder.pid } },
    }
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
  const secrets = opts.secrets
  let services: AppServices
  try {
    services = await createAppServices({
      userDataDir: dataDir,
      allowedOrigins: [CLI_ORIGIN],
      lockAs: 'cli',
      ...(secrets ? { keychain: () => Promise.resolve(secrets) } : {}),
      userAgent: 'hosting-admin-cli',
      storeWorkerUrl: opts.storeWorkerUrl ?? new URL('./store-worker.js', import.meta.url),
      ...(opts.lockWait ? { lockWait: opts.lockWait } : {}),
    })
  } catch (err) {
    if (err instanceof AppError) return { ok: false, error: err.data }
    throw err
  }
  let closed: Promise<void> | undefined
  const call = services.router.client(sender)
  await call('jobs.watch', {})
  return {
    ok: true,
    session: {
      call,
      ended(job) {
        const now = services.jobs.list().find((j) => j.id === job.id)
        if (now && !isJobRunning(now) && now.status !== 'prepared') return Promise.resolve(now)
        return new Promise((resolve) => waiting.set(job.id, resolve))
      },
      viaApp: false,
      close: () => (closed ??= services.close()),
    },
  }
}
