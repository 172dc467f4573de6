/**
 * The Electron shell: app lifecycle, one hardened window, the app:// protocol, the
 * CSP, navigation / new-window / permission guards, and the IPC wiring. Everything it
 * wires is plain Node (see app-services.ts, security.ts, app-protocol.ts), tested
 * without Electron.
 */
import { join } from 'node:path'
import { app, BrowserWindow, ipcMain, protocol, session, shell } from 'electron'
import { createAppServices, type AppServices } from './app-services'
import { createAppProtocolHandler } from './shell/app-protocol'
import { guardContents, guardSession } from './shell/guards'
import { APP_ORIGIN, APP_SCHEME, CONTENT_SECURITY_POLICY, windowOptions } from './shell/security'
import { CHANNEL_NAMES, JOB_CHANNEL, PROGRESS_CHANNEL, QUIT_CHANNEL, ipcChannel } from '../shared/ipc/channels'

// Every renderer is sandboxed, whatever a window's options say.
app.enableSandbox()

// One instance: a second launch focuses the first window instead of racing on the accounts file.
if (!app.requestSingleInstanceLock()) {
  app.quit()
}

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false } },
])

let mainWindow: BrowserWindow | undefined
let services: AppServices | undefined
/** The user said to quit although writes were running; closing goes ahead. */
let quitConfirmed = false

function registerAppProtocol(): void {
  protocol.handle(APP_SCHEME, createAppProtocolHandler(join(__dirname, '../renderer'), CONTENT_SECURITY_POLICY))
}

app.on('web-contents-created', (_event, contents) => {
  guardContents(contents, (url) => void shell.openExternal(url))
})

function wireIpc(s: AppServices): void {
  for (const name of CHANNEL_NAMES) {
    ipcMain.handle(ipcChannel(name), (event, payload: unknown) =>
      s.router.dispatch(name, payload, {
        url: event.senderFrame?.url ?? '',
        key: String(event.sender.id),
        sendProgress: (p) => {
          if (!event.sender.isDestroyed()) event.sender.send(PROGRESS_CHANNEL, p)
        },
        sendJob: (job) => {
          if (event.sender.isDestroyed()) return false
          event.sender.send(JOB_CHANNEL, job)
          return true
        },
      }),
    )
  }
}

async function createWindow(): Promise<void> {
  mainWindow = new BrowserWindow(windowOptions(join(__dirname, '../preload/index.cjs')))
  mainWindow.once('ready-to-show', () => mainWindow?.show())
  // Closing while writes run asks first; the window asks, in the user's language, and answers
  // through app.quit. Whatever is cut off is journaled and checked at the next start.
  mainWindow.on('close', (event) => {
    if (quitConfirmed || !services || services.jobs.running().length === 0) return
    event.preventDefault()
    mainWindow?.webContents.send(QUIT_CHANNEL)
  })
  mainWindow.on('closed', () => {
    mainWindow = undefined
  })
  await mainWindow.loadURL(`${APP_ORIGIN}/index.html`)
}

app.on('second-instance', () => {
  if (mainWindow) {
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  }
})

app.whenReady().then(async () => {
  registerAppProtocol()
  guardSession(session.defaultSession)
  services = await createAppServices({
    userDataDir: app.getPath('userData'),
    allowedOrigins: [APP_ORIGIN],
    userAgent: `HostingAdmin/${app.getVersion()} (+electron; ${process.platform})`,
    onQuitConfirmed: () => {
      quitConfirmed = true
      app.quit()
    },
  })
  wireIpc(services)
  await createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void createWindow()
  })
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('will-quit', () => {
  void services?.close()
})
