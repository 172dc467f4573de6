/**
 * The Electron shell: app lifecycle, one hardened window, the app:// protocol, the
 * CSP, navigation / new-window / permission guards, and the IPC wiring. Everything it
 * wires is plain Node (see app-services.ts, security.ts, app-protocol.ts), tested
 * without Electron.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { app, BrowserWindow, ipcMain, protocol, session, shell } from 'electron'
import { createAppServices, type AppServices } from './app-services'
import { resolveAppFile } from './app-protocol'
import { APP_ORIGIN, APP_SCHEME, CONTENT_SECURITY_POLICY, isAllowedNavigation, isSafeExternalUrl, windowOptions } from './security'
import { CHANNEL_NAMES, PROGRESS_CHANNEL, ipcChannel } from '../shared/ipc/channels'

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

function registerAppProtocol(): void {
  const rendererDir = join(__dirname, '../renderer')
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(rendererDir, request.url)
    if (!file) return new Response('Not found', { status: 404 })
    try {
      const body = await readFile(file.path)
      return new Response(body, {
        headers: {
          'content-type': file.mime,
          'content-security-policy': CONTENT_SECURITY_POLICY,
          'x-content-type-options': 'nosniff',
        },
      })
    } catch {
      return new Response('Not found', { status: 404 })
    }
  })
}

function guardSessions(): void {
  const ses = session.defaultSession
  // The app needs no permission at all: camera, notifications, clipboard-read, geolocation... all denied.
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
  ses.setPermissionCheckHandler(() => false)
  // No remote content is ever loaded; refuse any request that is not the app's own.
  ses.webRequest.onBeforeRequest((details, callback) => {
    const ok = details.url.startsWith(`${APP_ORIGIN}/`) || details.url.startsWith('devtools://')
    callback({ cancel: !ok })
  })
}

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    // New windows are never created; an https link opens in the system browser.
    if (isSafeExternalUrl(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
})

function wireIpc(s: AppServices): void {
  for (const name of CHANNEL_NAMES) {
    ipcMain.handle(ipcChannel(name), (event, payload: unknown) =>
      s.router.dispatch(name, payload, {
        url: event.senderFrame?.url ?? '',
        sendProgress: (p) => {
          if (!event.sender.isDestroyed()) event.sender.send(PROGRESS_CHANNEL, p)
        },
      }),
    )
  }
}

async function createWindow(): Promise<void> {
  mainWindow = new BrowserWindow(windowOptions(join(__dirname, '../preload/index.cjs')))
  mainWindow.once('ready-to-show', () => mainWindow?.show())
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
  guardSessions()
  services = await createAppServices({ userDataDir: app.getPath('userData'), allowedOrigins: [APP_ORIGIN] })
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
