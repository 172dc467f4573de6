/**
 * The guards every session and every page of the app get: no permission, no request that is
 * not the app's own, no navigation away, no webview, no new window (an https link opens in the
 * system browser instead). Plain functions over the few methods they use, so tests call the
 * very handlers Electron would.
 */
import { APP_ORIGIN, isAllowedNavigation, isSafeExternalUrl } from './security'

export interface GuardedSession {
  setPermissionRequestHandler(
    handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void
  setPermissionCheckHandler(handler: () => boolean): void
  webRequest: {
    onBeforeRequest(
      listener: (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void,
    ): void
  }
}

export function guardSession(ses: GuardedSession): void {
  // The app needs no permission at all: camera, notifications, clipboard-read, geolocation... all denied.
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
  ses.setPermissionCheckHandler(() => false)
  // No remote content is ever loaded; refuse any request that is not the app's own.
  ses.webRequest.onBeforeRequest((details, callback) => {
    const ok = details.url.startsWith(`${APP_ORIGIN}/`) || details.url.startsWith('devtools://')
    callback({ cancel: !ok })
  })
}

interface Preventable {
  preventDefault(): void
}

export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: Preventable, url: string) => void): unknown
  on(event: 'will-attach-webview', listener: (event: Preventable) => void): unknown
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void
}

export function guardContents(contents: GuardedContents, openExternal: (url: string) => void): void {
  const stayInApp = (event: Preventable, url: string) => {
    if (!isAllowedNavigation(url)) event.preventDefault()
  }
  contents.on('will-navigate', stayInApp)
  contents.on('will-redirect', stayInApp)
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    // New windows are never created; an https link opens in the system browser.
    if (isSafeExternalUrl(url)) openExternal(url)
    return { action: 'deny' }
  })
}
