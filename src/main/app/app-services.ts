/**
 * Everything behind the IPC boundary, wired once: profiles, keychain, demo account, the write
 * jobs and their journal, the log, and the IPC router. Plain Node, so the Electron shell and
 * the end-to-end bridge build the very same thing.
 */
import { randomBytes } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { acquireDataLock, type DataLock, type LockWaitOptions } from '../base/data-lock'
import { startCliServer, type CliServer } from '../door/cli-server'
import { CLI_ORIGIN } from '@shared/ipc/door-messages'
import { chooseDoorPlace } from '../door/door-path'
import { AccountService, type DemoBackend } from '../accounts/account-service'
import { ProfileStore } from '../accounts/profile-store'
import { KeytarSecretStore, loadKeytar, type SecretStore } from '../accounts/secret-store'
import { sandboxDemo } from '../accounts/demo'
import { createIpcRouter, type IpcRouter } from '../ipc/router'
import { createChannelHandlers } from '../ipc/handlers'
import { createAppHandlers } from '../ipc/app-handlers'
import { TeamSettingsService } from '../team/team-settings-service'
import { TEAM_KEYCHAIN_SERVICE } from '../team/team-settings'
import { RunningCalls } from '../reads/running-calls'
import { JobEvents } from '../ipc/job-events'
import { Journal } from '../jobs/ledger/journal-file'
import { journalTipIn } from '../jobs/ledger/journal-chain'
import { BodyMac } from '../jobs/ledger/body-mac'
import { LocalLedger } from '../jobs/ledger/local-ledger'
import { AutorenewOnValues } from '../reads/learned-autorenew'
import { storedDomainNames } from '../jobs/domain-names'
import { JobRunner } from '../jobs/runner'
import { createAppLog, logDirOf, type AppLog } from '../base/app-log'
import { createAppControl } from '../ipc/app-control'
import { headlessDesktop, type Desktop } from '../base/desktop'
import { AppError } from '../base/app-error'
import { portfolioFileOf } from '../store'
import { openStoreInWorker, type WorkerStore, type WorkerStoreOptions } from '../store/store-worker'
import type { PortfolioStoreAsync } from '../store/store-async'
import { createWriteHistory } from '../jobs/write-history'
import { createHistoryOwed, type HistoryOwed } from '../jobs/history-owed'
import { storedServerIds } from '../jobs/server-ids'
import { createReminders, type Reminders } from '../reminders'
import { openTeamMode, type TeamStatus } from '../team/team-mode'
import { withTeamHistory } from '../team/team-history'
import { createTeamHistoryFeed } from '../team/team-history-feed'
import { TeamError, teamErrorKind } from '../team/team-error'
import { DEMO_ACCOUNT_ID } from '@shared/accounts'
import { isJobRunning, jobCounts, type JobView } from '@shared/jobs'
import type { ErrorData } from '@shared/errors'
import type { ListChange } from '@shared/portfolio'
import type { StoreStatus } from '@shared/portfolio/store-status'

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
  /** The window said how many unsaved edits it holds (closing it then asks first). */
  onUnsavedWork?: (count: number) => void
  /** The User-Agent of every request to the service. */
  userAgent?: string
  /** The app's log; by default `logs/` in the user-data folder. */
  log?: AppLog
  /** Folder, clipboard and versions of the desktop; by default a headless one. */
  desktop?: Desktop
  /** The portfolio store; by default `portfolio.db` in the user-data folder, in a worker thread. */
  store?: PortfolioStoreAsync
  /** The store worker's script (the built app's `store-worker.js`); by default the sources' through tsx. */
  storeWorkerUrl?: URL
  /** The store worker's restarts and heap limits (tests run one out of memory, as a real one may). */
  storeWorker?: Pick<WorkerStoreOptions, 'maxRestarts' | 'resourceLimits'>
  /** The clock of history and expiry reminders (tests fix it); by default the system's. */
  now?: () => Date
  /** Who holds the data folder's lock while these services run (data-lock.ts): the app, or the command line. */
  lockAs?: 'app' | 'cli'
  /** How long to wait for the folder while another command holds it, and who is told (data-lock.ts; by default its own). */
  lockWait?: CliLockWait
  /** The app opens a door for the command line (cli-server.ts); by default whenever it holds the folder as the app. */
  cliDoor?: boolean
}

export type CliLockWait = Pick<LockWaitOptions, 'waitForCliMs' | 'onWait'>
/** Who calls the router (the command line makes its own): the services' one type for it. */
export type { Sender } from '../ipc/channel'

export interface AppServices {
  accounts: AccountService
  router: IpcRouter
  profiles: ProfileStore
  jobs: JobRunner
  log: AppLog
  store: PortfolioStoreAsync
  /** Expiry reminders: every one due (the window is told only the most urgent and how many). */
  reminders: Reminders
  /**
   * Team mode (issue 37): `status()` says whether it is on, connected, and who this workstation is
   * (team-mode.ts TeamStatus); `onStatus` hears each change (the database gone, back). Off when
   * the data folder has no team.json; then the runner's ledger is the local journal.
   */
  team: { status(): TeamStatus; onStatus(listener: (s: TeamStatus) => void): () => void }
  close(): Promise<void>
}

/** Who this workstation's writes are by, in team mode (history says who). */
const writerOf = (s: TeamStatus) => (s.mode === 'team' ? { member: s.member, workstation: s.workstation } : undefined)

/** Whether a team job was made here (the runner has it) or by another member or workstation. */
const isThisWorkstation = (s: TeamStatus, by: { member: string; workstation: string }) =>
  s.mode === 'team' && s.member === by.member && s.workstation === by.workstation

/** A file the app cannot start without, as a code the start-up screen words (with the path and the system's reason). */
function startupProblem(code: 'startup.accountsFile' | 'startup.journalFile', path: string) {
  return (err: unknown): never => {
    const reason =
      typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : 'unknown'
    throw AppError.of('internal', { code, params: { path, reason } })
  }
}

export async function createAppServices(opts: AppServicesOptions): Promise<AppServices> {
  // One process at a time runs the journal and the jobs of a data folder (data-lock.ts).
  await mkdir(opts.userDataDir, { recursive: true }).catch(() => undefined)
  const lockAs = opts.lockAs ?? 'app'
  const door = lockAs === 'app' && opts.cliDoor !== false ? { token: randomBytes(24).toString('hex') } : undefined
  const locked = await acquireDataLock(opts.userDataDir, lockAs, { ...opts.lockWait })
  if (!locked.ok)
    throw AppError.of('internal', {
      code: 'startup.dataInUse',
      params: { path: opts.userDataDir, pid: locked.heldBy.pid, who: locked.heldBy.who },
    })
  const log = opts.log ?? createAppLog({ dir: logDirOf(opts.userDataDir) })
  const desktop = opts.desktop ?? headlessDesktop()
  const profiles = new ProfileStore(join(opts.userDataDir, 'accounts.json'))
  await profiles.load().catch(startupProblem('startup.accountsFile', profiles.file))
  if (profiles.problem) log.warn('accounts.fileMovedAside', { movedTo: profiles.problem.params.movedTo })
  // A store that cannot be opened is kept aside and reported (in the log): the app starts with an empty one.
  // In its own thread: SQLite's work never holds the window's IPC calls (store-worker.ts).
  // A worker that ends on its own is started again (bounded); meanwhile the window says so and
  // zone saves are refused (write-history.ts).
  let workerStore: WorkerStore | undefined
  // Set once the runner has read the journal: a worker back after it ended is offered the history rows it owes.
  let historyOwed: HistoryOwed | undefined = undefined
  const store: PortfolioStoreAsync =
    opts.store ??
    (workerStore = await openStoreInWorker(portfolioFileOf(opts.userDataDir), {
      onProblem: (p) => log.warn(p.code, p.params),
      onStatus: (s) => {
        if (s.state === 'up') {
          log.info('store.up', { restarts: s.restarts })
          void historyOwed?.offer()
        } else log.error(`store.${s.state}`, { restarts: s.restarts, reason: s.reason })
      },
      now: opts.now,
      workerUrl: opts.storeWorkerUrl,
      ...opts.storeWorker,
    }))
  const storeReadFailed = (err: unknown) =>
    log.warn('store.readFailed', {
      error: err instanceof Error ? err.name : 'unknown',
      code: err instanceof AppError ? err.data.code : undefined,
    })
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
  const autorenewOn = new AutorenewOnValues()
  const accounts = new AccountService({
    profiles,
    keychain: opts.keychain ?? defaultKeychain,
    demo: opts.demo ?? sandboxDemo(),
    ...(opts.userAgent ? { userAgent: opts.userAgent } : {}),
    onKey: (key) => log.redactor.add(key),
    demoInUse: () => jobs.running().some((j) => j.accountId === DEMO_ACCOUNT_ID),
    // Team mode: a profile changed here is shared (its level's change a team history entry).
    onUpdated: (id) => {
      const identity = accounts.sharedIdentity(id)
      if (identity)
        void teamLedger?.shareIdentity(id, identity).catch((err: unknown) =>
          log.warn('team.shareFailed', {
            error: err instanceof Error ? err.name : 'unknown',
            code: err instanceof TeamError ? err.code : undefined,
          }),
        )
    },
    onRemoved: (id) => {
      void store
        .removeAccount(id)
        .catch((err: unknown) => log.warn('store.writeFailed', { error: err instanceof Error ? err.name : 'unknown' }))
      autorenewOn.forget(id)
      void jobs
        .forgetAccount(id)
        .catch((err: unknown) => log.error('jobs.forgetFailed', { error: err instanceof Error ? err.name : 'unknown' }))
    },
  })
  const calls = new RunningCalls()
  const jobEvents = new JobEvents()
  const logJob = jobLogger(log)
  const journalFile = join(opts.userDataDir, 'journal.jsonl')
  // Team mode when team.json says so: the team's journal and leases; the database away is said once
  // (in the log, and to whoever listens) each time it goes or comes back, and no write is sent meanwhile.
  const teamListeners = new Set<(s: TeamStatus) => void>()
  // Set once the runner has read the journal: each later return of the database reads the team's
  // jobs again (those it could not give, and colleagues' since), so Writes shows them without a restart.
  let teamBack: (() => void) | undefined
  const teamLedger = await openTeamMode(
    opts.userDataDir,
    {
      accountIds: profiles.current.accounts.map((a) => a.id),
      keyOf: (id) => accounts.keyIfKept(id),
      // Which service account a key reaches is told by its own request log (team/account-identity.ts).
      clientOf: (id) => accounts.client(id),
      passwordOf: (entry) =>
        loadKeytar()
          .then((k) => new KeytarSecretStore(k, TEAM_KEYCHAIN_SERVICE).get(entry))
          // No keychain (cron, systemd): PostgreSQL's own PGPASSWORD / ~/.pgpass, read by pg.
          .catch(() => undefined),
    },
    {
      // Each account's identity shared with the team; another member's change applied here.
      identities: {
        local: (id) => accounts.sharedIdentity(id),
        apply: (id, shared) => accounts.applyShared(id, shared),
      },
      onStatus: (s) => {
        if (s.mode === 'team') {
          if (s.connected) {
            log.info('team.connected', { where: s.where })
            teamBack?.()
          } else log.warn(s.problem.code, { where: s.where, ...s.problem.params })
        }
        for (const l of teamListeners) l(s)
      },
    },
  )
  // Team mode: a change from outside an account's refresh finds is kept for the team too (team_drift_findings).
  if (teamLedger) {
    const shared = teamLedger
    const share = (accountId: string, change: ListChange) => {
      for (const f of change.findings ?? [])
        void shared
          .recordDrift(accountId, f)
          .catch((err: unknown) =>
            log.warn('team.driftNotShared', { error: err instanceof Error ? err.name : 'unknown' }),
          )
      return change
    }
    const keep = store.keepList
    const put = store.putList
    store.keepList = async (...a) => share(a[0], await keep(...a))
    store.putList = async (...a) => share(a[0], await put(...a))
  }
  // Its key in the keychain, beside the API keys; in the data folder where none can be reached (body-mac.ts).
  const bodyMac = new BodyMac({
    keychain: opts.keychain ?? defaultKeychain,
    keyFile: join(opts.userDataDir, 'journal.key'),
  })
  // Every write leaves a history row; a zone is snapshotted before it is saved.
  const writeHistory = createWriteHistory(store, opts.now, teamLedger ? () => writerOf(teamLedger.status) : undefined)
  const jobs: JobRunner = new JobRunner({
    accounts: {
      client: (id) => accounts.client(id),
      nameOf: (id) => accounts.nameOf(id),
      readOnly: (id) => accounts.readOnly(id),
      exists: (id) => accounts.exists(id),
      writeSafety: (id) => accounts.writeSafety(id),
      // What the service lately wrote, else its stored lists; a store that cannot answer leaves
      // "on" as 1, which the service reads as on too.
      autorenewOnValue: async (id) => autorenewOn.get(id) ?? (await store.autorenewOnValue(id).catch(() => undefined)),
    },
    // Written only while this process's services hold the folder (data-lock.ts).
    // Its lines chained under the installation's key, the chain's end kept in the store too (journal-chain.ts).
    ledger:
      teamLedger ??
      new LocalLedger(
        new Journal(journalFile, locked.lock, { keys: () => bodyMac.chainKeys(), tip: journalTipIn(store) }),
      ),
    bodyMac,
    onChange: (job) => {
      logJob(job)
      jobEvents.changed(job)
      // A demo job that ends may let the demo's sandbox stop (another account is chosen).
      if (job.accountId === DEMO_ACCOUNT_ID && !isJobRunning(job)) void accounts.stopDemoIfUnused()
    },
    ...(opts.logCheckDelaysMs ? { logCheckDelaysMs: opts.logCheckDelaysMs } : {}),
    // The app settles the unknown outcomes it finds at start; the command line only its own jobs'.
    settlesOthers: lockAs === 'app',
    onJournalError: (err) =>
      log.error('journal.writeFailed', {
        error: err instanceof Error ? err.name : 'unknown',
        code: typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined,
      }),
    // In team mode, the team's history too: each write with its member; a zone changed by a colleague named.
    observer: teamLedger
      ? withTeamHistory(writeHistory, teamLedger, (err) =>
          log.warn('team.historyFailed', {
            error: err instanceof Error ? err.name : 'unknown',
            code: err instanceof TeamError ? err.code : undefined,
          }),
        )
      : writeHistory,
    domainNamesOf: (accountId) => storedDomainNames(store, accountId, storeReadFailed),
    serverIdsOf: (accountId) => storedServerIds(store, accountId, storeReadFailed),
    onObserverError: (err) =>
      log.warn('history.writeFailed', {
        error: err instanceof Error ? err.name : 'unknown',
        code: err instanceof AppError ? err.data.code : undefined,
      }),
  })
  await jobs.init().catch(startupProblem('startup.journalFile', journalFile))
  // A row the store could not take (its worker down, or ended while writing it) is owed by the
  // journal's item: written now, and each time the worker is back. Only this workstation's jobs
  // and accounts still set up: a colleague's rows come from the team's history.
  historyOwed = createHistoryOwed({
    history: writeHistory,
    jobs: () =>
      jobs
        .list()
        .filter(
          (j) =>
            accounts.exists(j.accountId) &&
            (!j.by || (teamLedger !== undefined && isThisWorkstation(teamLedger.status, j.by))),
        ),
    log,
  })
  void historyOwed.offer()
  if (teamLedger)
    teamBack = () =>
      void jobs.refresh().catch((err: unknown) =>
        log.warn('team.jobsNotRead', {
          error: err instanceof Error ? err.name : 'unknown',
          code: err instanceof TeamError ? err.code : undefined,
        }),
      )
  // The active account's domain list, parsed while the window loads: its first paint from the
  // store then does not wait for 10,000 rows to be read and checked.
  void store
    .warm(accounts.activeId(), 'domains.list', {})
    .catch((err: unknown) => log.warn('store.warmFailed', { error: err instanceof Error ? err.name : 'unknown' }))
  // What this run cannot keep, said once, at start, in the window: a store kept aside or held in
  // memory, a log that cannot be written, a journal that cannot be written (no write is sent).
  const startupWarnings = (): ErrorData[] => {
    const out: ErrorData[] = []
    // Every account vanished: said on whatever screen the app opens on, until the user closes it.
    if (profiles.problem)
      out.push({ kind: 'internal', code: profiles.problem.code, params: { ...profiles.problem.params } })
    const p = store.problem
    if (p && p.code !== 'store.rowSkipped') out.push({ kind: 'internal', code: p.code, params: { ...p.params } })
    if (log.notKept)
      out.push({ kind: 'internal', code: 'startup.logNotKept', params: { path: log.dir, reason: log.notKept.reason } })
    if (jobs.journalDamaged)
      out.push({
        kind: 'internal',
        code: 'startup.journalDamaged',
        params: { path: journalFile, movedTo: jobs.journalDamaged.movedTo, lines: jobs.journalDamaged.lines },
      })
    if (jobs.journalChanged)
      out.push({
        kind: 'internal',
        code: 'startup.journalChanged',
        params: { path: journalFile, movedTo: jobs.journalChanged.movedTo, line: jobs.journalChanged.line },
      })
    const team = teamLedger?.status
    if (team?.mode === 'team' && !team.connected)
      out.push({ kind: teamErrorKind(team.problem.code), code: team.problem.code, params: { ...team.problem.params } })
    if (jobs.journalProblem)
      out.push({
        kind: 'internal',
        code: 'startup.journalNotKept',
        params: { path: journalFile, reason: jobs.journalProblem.reason },
      })
    return out
  }
  const reminders = createReminders({
    store,
    accountIds: () => [DEMO_ACCOUNT_ID, ...profiles.current.accounts.map((a) => a.id)],
    now: opts.now ?? (() => new Date()),
    desktop,
    log,
    // Team mode: handled once for the team (team_reminders), notified by one workstation (team_reminder_notices).
    ...(teamLedger ? { handlings: teamLedger, notices: teamLedger } : {}),
  })
  const app = createAppControl({
    log,
    desktop,
    accountCount: () => profiles.current.accounts.length,
    warnings: startupWarnings,
    onUnsavedWork: opts.onUnsavedWork,
  })
  const router = createIpcRouter({
    handlers: createChannelHandlers({
      accounts,
      calls,
      jobs,
      jobEvents,
      quitConfirmed: () => opts.onQuitConfirmed?.(),
      app,
      store,
      accountNames: () => Object.fromEntries(profiles.current.accounts.map((a) => [a.id, a.name])),
      onStoreError: (err) =>
        log.warn('store.writeFailed', {
          error: err instanceof Error ? err.name : 'unknown',
          code: err instanceof AppError ? err.data.code : undefined,
        }),
      reminders,
      autorenewOn,
      teamJobs: teamLedger
        ? async () =>
            (await teamLedger.load()).filter((j) => j.by !== undefined && !isThisWorkstation(teamLedger.status, j.by))
        : undefined,
      teamHistory: teamLedger
        ? createTeamHistoryFeed({
            source: teamLedger,
            handlings: teamLedger,
            store,
            onError: (err) =>
              log.warn('team.historyFailed', {
                error: err instanceof Error ? err.name : 'unknown',
                code: err instanceof TeamError ? err.code : undefined,
              }),
          })
        : undefined,
      ...(workerStore ? { storeLife: storeLifeOf(workerStore, historyOwed) } : {}),
      // The team database's password is kept beside the API keys, under its own keychain service (the command line reads it there).
      team: new TeamSettingsService(
        opts.userDataDir,
        opts.keychain ?? (async () => new KeytarSecretStore(await loadKeytar(), TEAM_KEYCHAIN_SERVICE)),
      ),
    }),
    calls,
    // The command line's calls come only through the door below, which makes their senders.
    allowedOrigins: door ? [...opts.allowedOrigins, CLI_ORIGIN] : opts.allowedOrigins,
    log,
  })
  // Not when this process held the folder already (its first services have the door) or could not write the lock.
  const cliServer =
    door && !locked.reentered && !locked.unkept
      ? await openDoor(opts.userDataDir, door.token, locked.lock, router, store, log)
      : undefined
  log.info('app.ready', { accounts: profiles.current.accounts.length, jobs: jobs.list().length })
  return {
    accounts,
    router,
    profiles,
    jobs,
    log,
    store,
    reminders,
    team: {
      status: () => teamLedger?.status ?? { mode: 'off' },
      onStatus: (listener) => {
        teamListeners.add(listener)
        return () => teamListeners.delete(listener)
      },
    },
    async close() {
      await cliServer?.close()
      jobEvents.close()
      await jobs.close()
      await accounts.close()
      await historyOwed?.settled()
      await store.close()
      await locked.lock.release()
    },
  }
}

/** The store's status as the window shows it: with history rows it could not write once it was back. */
function storeLifeOf(
  store: WorkerStore,
  owed: HistoryOwed,
): { status(): StoreStatus; restart(): Promise<StoreStatus> } {
  const withOwed = (s: StoreStatus): StoreStatus => {
    const notWritten = s.state === 'up' ? owed.notWritten() : undefined
    return notWritten ? { ...s, historyNotWritten: notWritten.reason } : s
  }
  return { status: () => withOwed(store.status()), restart: async () => withOwed(await store.restart()) }
}

/**
 * The app's door for the command (cli-server.ts), in a directory only the user can enter
 * (door-path.ts), and advertised in the holder file only once it listens: a door that could not
 * be opened there is not advertised, and the log says why (the command then says the app holds
 * the folder and its door cannot be reached).
 */
async function openDoor(
  dataDir: string,
  token: string,
  lock: DataLock,
  router: IpcRouter,
  store: AppServices['store'],
  log: AppLog,
): Promise<CliServer | undefined> {
  const chosen = await chooseDoorPlace(dataDir)
  for (const r of chosen.refused) log.warn('cli.doorDirRefused', { dir: r.dir, reason: r.reason })
  if (!chosen.ok) return undefined
  const server = await startCliServer({ place: chosen.place, token, router, log }).catch((err: unknown) => {
    log.warn('cli.serverFailed', {
      error: err instanceof Error ? err.name : 'unknown',
      code: typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined,
    })
    return undefined
  })
  if (server && !(await lock.advertiseDoor({ socket: chosen.place.socket, token }))) {
    log.warn('cli.doorNotAdvertised', {})
    await server.close()
    return undefined
  }
  return server
}

/**
 * When the app could not start: a router that answers the app's own channels (the start-up
 * screen asks what went wrong, the log folder, diagnostics, quit) and every other channel with
 * the problem itself.
 */
function startupFailureRouter(opts: {
  problem: ErrorData
  log: AppLog
  desktop: Desktop
  allowedOrigins: string[]
  onQuit: () => void
}): IpcRouter {
  const app = createAppControl({ log: opts.log, desktop: opts.desktop, accountCount: () => 0, problem: opts.problem })
  return createIpcRouter({
    handlers: createAppHandlers(app, opts.onQuit),
    calls: new RunningCalls(),
    allowedOrigins: opts.allowedOrigins,
    unavailable: { kind: 'internal', code: 'startup.unavailable' },
    log: opts.log,
  })
}

/**
 * The services, or, when they cannot start, a router that explains why: what the shell and
 * the end-to-end bridge both wire to the window. A known problem (an unreadable accounts file
 * or journal) keeps its code and file; anything else is "could not start" with its error name.
 */
export async function startAppServices(
  opts: AppServicesOptions & { log: AppLog; desktop: Desktop },
): Promise<{ services?: AppServices; router: IpcRouter; problem?: ErrorData }> {
  try {
    const services = await createAppServices(opts)
    return { services, router: services.router }
  } catch (err) {
    const known = err instanceof AppError
    const problem: ErrorData = known
      ? err.toData()
      : { kind: 'internal', code: 'startup.failed', params: { reason: err instanceof Error ? err.name : 'unknown' } }
    opts.log.error('app.startFailed', {
      code: problem.code,
      ...problem.params,
      ...(known ? {} : { message: err instanceof Error ? err.message : String(err) }),
    })
    const router = startupFailureRouter({
      problem,
      log: opts.log,
      desktop: opts.desktop,
      allowedOrigins: opts.allowedOrigins,
      onQuit: () => opts.onQuitConfirmed?.(),
    })
    return { router, problem }
  }
}

/** One line when a job starts and one when it ends: operation, account, counts; never its parameters. */
function jobLogger(log: AppLog): (job: JobView) => void {
  const seen = new Map<string, JobView['status']>()
  return (job) => {
    const before = seen.get(job.id)
    if (before === job.status) return
    seen.set(job.id, job.status)
    if (job.status === 'prepared') return
    const counts = jobCounts(job)
    log.info(isJobRunning(job) ? 'job.status' : 'job.ended', {
      job: job.id,
      operation: job.operation,
      account: job.accountId,
      status: job.status,
      items: job.items.length,
      done: counts.done,
      failed: counts.failed,
      unknown: counts.unknown,
    })
  }
}
