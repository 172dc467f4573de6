/**
 * The security settings of the Electron shell, as plain data and functions so that
 * tests check them item by item without an Electron binary (tests/unit/security.test.ts).
 */
import type { BrowserWindowConstructorOptions } from 'electron'

/** The app's own origin: the renderer is served from app://app/, never file://. */
export const APP_SCHEME = 'app'
export const APP_ORIGIN = `${APP_SCHEME}://app`

/**
 * Content-Security-Policy of every page: only the app's own scripts and styles; no eval,
 * no inline script, no remote anything. connect-src is 'none' because all API traffic
 * goes through the main process.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "worker-src 'none'",
].join('; ')

export function windowOptions(
  preloadPath: string,
  opts: { devTools: boolean } = { devTools: false },
): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Hosting Admin',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      // Developer tools only in a development build; a packaged app cannot open them at all.
      devTools: opts.devTools,
    },
  }
}

/** In-app navigation stays on the app's own origin; anything else is refused. */
export function isAllowedNavigation(url: string): boolean {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}` === APP_ORIGIN
  } catch {
    return false
  }
}

/**
 * Links that may open in the system browser: https only, no credentials, no odd ports.
 * Everything else (file:, javascript:, custom schemes, http) is dropped.
 */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url)
    return u.protocol === 'https:' && !u.username && !u.password && (u.port === '' || u.port === '443')
  } catch {
    return false
  }
}

/** Fuses flipped in the packaged binary (see electron-builder.yml); tests check the two agree. */
export const REQUIRED_FUSES = {
  runAsNode: false,
  enableCookieEncryption: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  grantFileProtocolExtraPrivileges: false,
} as const
