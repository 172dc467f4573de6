/**
 * Everything behind the IPC boundary, wired once: profiles, keychain, demo account, the write
 * jobs and their journal, and the IPC router. Plain Node, so the Electron shell and the end-to-end bridge build the
 * very same thing.
 */
import { join } from 'node:path'
import { AccountService, type DemoBackend } from './accounts/account-service'
import { ProfileStore } from './accounts/profile-store'
import { KeytarSecretStore, loadKeytar, type SecretStore } from './accounts/secret-store'
import { sandboxDemo } from './accounts/demo'
import { createIpcRouter, type IpcRouter } from './ipc/router'
import { createChannelHandlers } from './ipc/handlers'
import { RunningCalls } from './ipc/running-calls'
import { JobEvents } from './ipc/job-events'
import { Journal } from './jobs/journal'
import { JobRunner } from './jobs/runner'

export interface AppServicesOptions {
  userDataDir: string
  allowedOrigins: string[]
  /** Defaults to the OS keychain through keytar. */
  keychain?: () => Promise<SecretStore>
  demo?: DemoBackend
  /** When the service's log is read after an unknown outcome (tests shorten it). */
  logCheckDelaysMs?: number[]
  /** The user confirmed quitting while writes were running. */
  onQuitConfirmed?: () => void
  /** The User-Agent of every request to the service. */
  userAgent?: string
}

export interface AppServices {
  accounts: AccountService
  router: IpcRouter
  profiles: ProfileStore
  jobs: JobRunner
  close(): Promise<void>
}

export async function createAppServices(opts: AppServicesOptions): Promise<AppServices> {
  const profiles = new ProfileStore(join(opts.userDataDir, 'accounts.json'))
  await profiles.load()
  let keychain: Promise<SecretStore> | undefined
  const defaultKeychain = () => {
    // Retried on each use after a failure: the user may unlock or start the keyring meanwhile.
    keychain ??= loadKeytar()
      .then((k) => new KeytarSecretStore(k))
      .catch((err: unknown) => {
        keychain = undefined
        throw err
      })
    return keychain
  }
  const accounts = new AccountService({
    profiles,
    keychain: opts.keychain ?? defaultKeychain,
    demo: opts.demo ?? sandboxDemo(),
    ...(opts.userAgent ? { userAgent: opts.userAgent } : {}),
  })
  const calls = new RunningCalls()
  const jobEvents = new JobEvents()
  const jobs = new JobRunner({
    accounts: { client: (id) => accounts.client(id), nameOf: (id) => accounts.nameOf(id) },
    journal: new Journal(join(opts.userDataDir, 'journal.jsonl')),
    onChange: (job) => jobEvents.changed(job),
    ...(opts.logCheckDelaysMs ? { logCheckDelaysMs: opts.logCheckDelaysMs } : {}),
  })
  await jobs.init()
  const router = createIpcRouter({ handlers: createChannelHandlers({ accounts, calls, jobs, jobEvents, quitConfirmed: () => opts.onQuitConfirmed?.() }), calls, allowedOrigins: opts.allowedOrigins })
  return {
    accounts,
    router,
    profiles,
    jobs,
    async close() {
      jobEvents.close()
      await jobs.close()
      await accounts.close()
    },
  }
}
