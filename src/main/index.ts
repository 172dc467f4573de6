/**
 * The Electron shell: app lifecycle, one hardened window, the app:// protocol, the CSP,
 * navigation / new-window / permission guards, the menu, the log, and the IPC wiring.
 * Everything it wires is plain Node (app-services.ts, shell/), and the built bundle of this
 * file runs in tests/integration/built-shell.test.ts against a double of the `electron` module.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow, clipboard, ipcMain, Menu, Notification, protocol, session, shell } from 'electron'
import type { AppServices } from './app/app-services'
import { createAppProtocolHandler } from './shell/app-protocol'
import { guardContents, guardSession } from './shell/guards'
import { applicationMenu } from './shell/menu'
import { APP_ORIGIN, APP_SCHEME, CONTENT_SECURITY_POLICY, windowOptions } from './shell/security'
import { WINDOW_JS_FLAGS } from './shell/window-v8'
import { createAppLog, logDirOf, type AppLog } from './base/app-log'
import { processVersions, type Desktop } from './base/desktop'
import { APP_USER_MODEL_ID } from './base/app-version'
import { AppError } from './base/app-error'
import type { IpcRouter } from './ipc/router'
import { CHANNEL_NAMES, EVENT_CHANNELS, ipcChannel } from '@shared/ipc/channels'

/** How long the window may take to paint before it is shown and the services start anyway. */
const READY_TO_SHOW_WAIT_MS = 3000

// One instance: a second launch focuses the first window instead of racing on the accounts
// file. Checked before anything else starts; a second instance does nothing but quit.
if (app.requestSingleInstanceLock()) startShell()
else app.quit()

function startShell(): void {
  // Every renderer is sandboxed, whatever a window's options say.
  app.enableSandbox()
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID)
  // Before the app is ready, as Electron's command-line switches must be: every renderer starts with them.
  app.commandLine.appendSwitch('js-flags', WINDOW_JS_FLAGS)
  // codeCache: V8 keeps the window's compiled scripts between starts, as it does for http(s) pages, and not for a
  // custom scheme unless told (Electron's CustomScheme). Compiling them was a third to a half of the window's
  // longest tasks at its start (40-76 ms of V8.CompileCode in the 100,000-domain bench's traces, issue 54).
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false, codeCache: true },
    },
  ])

  const log = createAppLog({ dir: logDirOf(app.getPath('userData')), console: !app.isPackaged })
  log.info('app.start', { ...processVersions(), packaged: app.isPackaged })
  process.on('uncaughtException', (err) =>
    log.error('main.uncaught', { error: err.name, message: err.message, stack: err.stack }),
  )
  process.on('unhandledRejection', (reason) =>
    log.error('main.unhandledRejection', { message: reason instanceof Error ? reason.message : String(reason) }),
  )

  const desktop: Desktop = {
    async openFolder(path) {
      // openPath answers with an error text, or '' when the folder opened.
      const failure = await shell.openPath(path)
      if (failure) {
        log.warn('desktop.openFolderFailed', { path })
        throw AppError.of('internal', { code: 'app.noDesktop' })
      }
    },
    copyText: (text) => clipboard.writeText(text),
    versions: processVersions,
    notify(n, onClick) {
      // A desktop without a notification service (some Linux sessions) shows nothing.
      if (!Notification.isSupported()) return void log.warn('desktop.notificationsUnsupported', {})
      const notification = new Notification({ title: n.title, body: n.body })
      // Held until clicked or closed: one that is garbage-collected no longer reports its click.
      shownNotifications.add(notification)
      notification.on('click', () => {
        shownNotifications.delete(notification)
        bringWindowForward()
        onClick()
      })
      notification.on('close', () => shownNotifications.delete(notification))
      notification.show()
    },
  }
  const shownNotifications = new Set<Notification>()

  let mainWindow: BrowserWindow | undefined
  function bringWindowForward(): void {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.show()
    mainWindow.focus()
  }
  let services: AppServices | undefined
  /** The user said to quit although writes were running or edits unsaved; closing goes ahead. */
  let quitConfirmed = false
  /** How many unsaved edits the window holds, as it last said. */
  let unsavedWork = 0
  const quitNow = () => {
    quitConfirmed = true
    app.quit()
  }

  app.on('web-contents-created', (_event, contents) => {
    guardContents(contents, (url) => void shell.openExternal(url))
  })

  app.on('second-instance', bringWindowForward)

  /** Every channel, answered by the router once the services have started (calls made before wait for it). */
  function wireIpc(routerReady: Promise<IpcRouter>): void {
    for (const name of CHANNEL_NAMES) {
      ipcMain.handle(ipcChannel(name), async (event, payload: unknown) =>
        (await routerReady).dispatch(name, payload, {
          url: event.senderFrame?.url ?? '',
          key: String(event.sender.id),
          sendProgress: (p) => {
            if (!event.sender.isDestroyed()) event.sender.send(EVENT_CHANNELS.progress, p)
          },
          sendJob: (job) => {
            if (event.sender.isDestroyed()) return false
            event.sender.send(EVENT_CHANNELS.job, job)
            return true
          },
          sendReminderOpen: (target) => {
            if (event.sender.isDestroyed()) return false
            event.sender.send(EVENT_CHANNELS.reminderOpen, target)
            return true
          },
        }),
      )
    }
  }

  /** The window, loading; resolves once it has painted its first frame (ready-to-show). */
  function createWindow(): Promise<void> {
    const window = new BrowserWindow(
      windowOptions(join(__dirname, '../preload/index.cjs'), { devTools: !app.isPackaged }),
    )
    mainWindow = window
    // Shown at its first paint, or after a bounded wait: Electron does not promise ready-to-show
    // (a renderer that never paints), and without a shown window nothing else would start.
    const painted = new Promise<void>((resolve) => {
      const showNow = (waitedOut: boolean) => {
        clearTimeout(timer)
        window.removeListener('ready-to-show', onPainted)
        if (waitedOut) log.warn('window.paintWaitedOut', { ms: READY_TO_SHOW_WAIT_MS })
        if (!window.isDestroyed()) window.show()
        resolve()
      }
      const onPainted = () => showNow(false)
      const timer = setTimeout(() => showNow(true), READY_TO_SHOW_WAIT_MS)
      window.once('ready-to-show', onPainted)
    })
    // Closing while writes run or edits are unsaved asks first; the window asks, in the user's
    // language, and answers through app.quit. Whatever is cut off is journaled and checked at the next start.
    window.on('close', (event) => {
      if (quitConfirmed || !services || (services.jobs.running().length === 0 && unsavedWork === 0)) return
      event.preventDefault()
      window.webContents.send(EVENT_CHANNELS.quitRequest)
    })
    // A reload (View › Reload in a development build) that the page's unsaved edits hold back
    // through beforeunload: Electron cancels it and asks nothing, so the window is asked, as for
    // a close, and reloads itself once the user says so. (A close is asked above, before any
    // beforeunload.)
    window.webContents.on('will-prevent-unload', () => window.webContents.send(EVENT_CHANNELS.reloadRequest))
    window.on('closed', () => {
      if (mainWindow === window) mainWindow = undefined
    })
    // A page that cannot load rejects (Electron's loadURL does): the start fails, and says so in the log.
    return Promise.all([painted, window.loadURL(`${APP_ORIGIN}/index.html`)]).then(() => undefined)
  }

  /** The services, or, when they cannot start, the router that tells the start-up screen why. */
  async function startServices(log: AppLog): Promise<IpcRouter> {
    // Loaded here, after the first paint, not with this file: evaluating the services' modules
    // (the store, the journal, the team's database client, every handler and schema) left a
    // major garbage collection due at app ready, which then ran between ready and the window's
    // page being served.
    const { startAppServices } = await import('./app/app-services')
    const started = await startAppServices({
      userDataDir: app.getPath('userData'),
      allowedOrigins: [APP_ORIGIN],
      userAgent: `HostingAdmin/${app.getVersion()} (+electron; ${process.platform})`,
      onQuitConfirmed: quitNow,
      onUnsavedWork: (count) => (unsavedWork = count),
      log,
      desktop,
      // Built beside this file by electron-vite (electron.vite.config.ts).
      storeWorkerUrl: pathToFileURL(join(__dirname, 'store-worker.js')),
    })
    services = started.services
    return started.router
  }

  app
    .whenReady()
    .then(async () => {
      Menu.setApplicationMenu(
        Menu.buildFromTemplate(applicationMenu({ packaged: app.isPackaged, platform: process.platform })),
      )
      protocol.handle(APP_SCHEME, createAppProtocolHandler(join(__dirname, '../renderer'), CONTENT_SECURITY_POLICY))
      guardSession(session.defaultSession)
      // The window first: it paints the app's frame at once, and the services (the accounts, the
      // portfolio store and its integrity check) start after that first paint. The window's
      // first calls wait for them.
      let routerStarted: (router: IpcRouter) => void = () => undefined
      wireIpc(new Promise<IpcRouter>((resolve) => (routerStarted = resolve)))
      await createWindow()
      routerStarted(await startServices(log))
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) void createWindow()
      })
    })
    .catch((err: unknown) => {
      // Nothing started that a user could use: say why in the log, and do not linger without a window.
      log.error('main.startFailed', {
        error: err instanceof Error ? err.name : 'unknown',
        message: err instanceof Error ? err.message : String(err),
      })
      app.exit(1)
    })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  app.on('will-quit', () => {
    log.info('app.quit')
    void services?.close()
  })
}
