/**
 * The Electron security checklist, checked item by item where it is enforced: by calling the
 * handlers the shell installs (src/main/shell) with the arguments Electron would pass. That the
 * built shell really installs them (sandbox for every renderer, the app:// handler, the sender
 * check, one instance, the preload's single `api`) is asserted on the built bundles in
 * tests/integration/built-shell.test.ts and built-preload.test.ts; the fuses in
 * tests/unit/packaging.test.ts.
 */
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import {
  APP_ORIGIN,
  CONTENT_SECURITY_POLICY,
  isAllowedNavigation,
  isSafeExternalUrl,
  windowOptions,
} from '../../src/main/shell/security'
import { createAppProtocolHandler, resolveAppFile } from '../../src/main/shell/app-protocol'
import { guardContents, guardSession, type GuardedContents, type GuardedSession } from '../../src/main/shell/guards'

const html = readFileSync(resolve('src/renderer/index.html'), 'utf8')
const wp = windowOptions('/x/preload.cjs').webPreferences!

/** The handlers guardSession installs, captured as Electron would hold them. */
function guardedSession() {
  const h: {
    request?: Parameters<GuardedSession['setPermissionRequestHandler']>[0]
    check?: Parameters<GuardedSession['setPermissionCheckHandler']>[0]
    beforeRequest?: Parameters<GuardedSession['webRequest']['onBeforeRequest']>[0]
  } = {}
  guardSession({
    setPermissionRequestHandler: (f) => (h.request = f),
    setPermissionCheckHandler: (f) => (h.check = f),
    webRequest: { onBeforeRequest: (f) => (h.beforeRequest = f) },
  })
  return h
}

/** The listeners guardContents installs on a page, and the links it opened outside. */
function guardedContents() {
  const listeners = new Map<string, (event: { preventDefault(): void }, url: string) => void>()
  let openHandler: ((d: { url: string }) => { action: 'deny' }) | undefined
  const opened: string[] = []
  const contents: GuardedContents = {
    on: (event: string, listener: (event: { preventDefault(): void }, url: string) => void) =>
      listeners.set(event, listener),
    setWindowOpenHandler: (f) => (openHandler = f),
  }
  guardContents(contents, (url) => opened.push(url))
  /** Fires an event and tells whether the handler prevented it. */
  const fire = (event: string, url = '') => {
    let prevented = false
    listeners.get(event)?.({ preventDefault: () => (prevented = true) }, url)
    return prevented
  }
  return { fire, open: (url: string) => openHandler?.({ url }), opened }
}

const csp = Object.fromEntries(
  CONTENT_SECURITY_POLICY.split(';')
    .map((d) => d.trim().split(/\s+/))
    .map(([k = '', ...v]): [string, string[]] => [k, v]),
)

describe('Electron security checklist', () => {
  it('1. only secure content: the page comes from app://, nothing remote is loaded', () => {
    const { beforeRequest } = guardedSession()
    const cancelled = (url: string) => {
      let cancel: boolean | undefined
      beforeRequest!({ url }, (r) => (cancel = r.cancel))
      return cancel
    }
    expect(cancelled(`${APP_ORIGIN}/assets/index.js`)).toBe(false)
    for (const url of [
      'https://example.com/x.js',
      'http://127.0.0.1:8080/',
      'file:///etc/passwd',
      'app://other/index.html',
      'ws://evil/',
    ]) {
      expect(cancelled(url), url).toBe(true)
    }
    expect(csp['default-src']).toEqual(["'none'"])
  })
  it('2. no Node.js integration for any content', () => {
    expect(wp.nodeIntegration).toBe(false)
    expect(wp.nodeIntegrationInWorker).toBe(false)
    expect(wp.nodeIntegrationInSubFrames).toBe(false)
  })
  it('3. context isolation', () => expect(wp.contextIsolation).toBe(true))
  it('4. process sandboxing, for every renderer', () => {
    expect(wp.sandbox).toBe(true)
  })
  it('5. permission requests are all denied', () => {
    const { request, check } = guardedSession()
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation', 'openExternal']) {
      let granted: boolean | undefined
      request!({}, permission, (g) => (granted = g))
      expect(granted, permission).toBe(false)
    }
    expect(check!()).toBe(false)
  })
  it('6. web security stays on', () => expect(wp.webSecurity).toBe(true))
  it('7. a strict Content-Security-Policy, sent as a header and in the page', () => {
    expect(csp['script-src']).toEqual(["'self'"])
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|unsafe-inline|https?:|\*/)
    expect(csp['connect-src']).toEqual(["'none'"])
    expect(csp['object-src']).toEqual(["'none'"])
    expect(csp['frame-ancestors']).toEqual(["'none'"])
    // The meta tag in the page says the same, for the end-to-end harness that serves it without the header.
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1]
    expect(meta?.split(';').map((s) => s.trim())).toEqual(
      expect.arrayContaining(CONTENT_SECURITY_POLICY.split('; ').filter((d) => !d.startsWith('frame-ancestors'))),
    )
  })
  it('8. no insecure content', () => expect(wp.allowRunningInsecureContent).toBe(false))
  it('9. no experimental features', () => expect(wp.experimentalFeatures).toBe(false))
  it('10. no enableBlinkFeatures', () => {
    expect(wp).not.toHaveProperty('enableBlinkFeatures')
  })
  it('11. no <webview> (so no allowpopups)', () => expect(wp.webviewTag).toBe(false))
  it('12. any webview attachment is refused', () => expect(guardedContents().fire('will-attach-webview')).toBe(true))
  it('13. navigation limited to the app’s own origin', () => {
    const page = guardedContents()
    for (const event of ['will-navigate', 'will-redirect']) {
      expect(page.fire(event, `${APP_ORIGIN}/index.html#/domains`), event).toBe(false)
      for (const u of [
        'https://example.com',
        'file:///etc/passwd',
        'app://evil/index.html',
        'javascript:alert(1)',
        'garbage',
      ]) {
        expect(page.fire(event, u), `${event} ${u}`).toBe(true)
      }
    }
    expect(isAllowedNavigation(`${APP_ORIGIN}/index.html#/domains`)).toBe(true)
  })
  it('14. no new windows', () => {
    const page = guardedContents()
    for (const u of ['https://docs.example.com/guide', `${APP_ORIGIN}/index.html`, 'file:///etc/passwd'])
      expect(page.open(u)).toEqual({ action: 'deny' })
  })
  it('15. shell.openExternal only for checked https links', () => {
    const page = guardedContents()
    for (const u of [
      'https://docs.example.com/guide',
      'http://example.com',
      'file:///c:/windows',
      'https://user:pw@example.com',
      'ms-settings:',
    ])
      page.open(u)
    expect(page.opened).toEqual(['https://docs.example.com/guide'])
    expect(isSafeExternalUrl('https://docs.example.com/guide')).toBe(true)
    for (const u of [
      'http://example.com',
      'file:///c:/windows',
      'smb://host/share',
      'https://user:pw@example.com',
      'https://example.com:8443/',
      'ms-settings:',
    ]) {
      expect(isSafeExternalUrl(u), u).toBe(false)
    }
  })
  it('16. a current Electron', () => {
    const pkg = z
      .object({ devDependencies: z.record(z.string(), z.string()) })
      .parse(JSON.parse(readFileSync(resolve('package.json'), 'utf8')))
    expect(Number(/\d+/.exec(pkg.devDependencies.electron ?? '')?.[0])).toBeGreaterThanOrEqual(38)
  })
  it('18. a custom protocol instead of file://, serving only the renderer folder, with the CSP and nosniff', async () => {
    // The file outside in a folder of this run's own: one name in the shared temporary folder was every run's at once.
    const outside = mkdtempSync(join(tmpdir(), 'renderer-parent-'))
    const dir = join(outside, 'renderer')
    mkdirSync(join(dir, 'assets'), { recursive: true })
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>')
    writeFileSync(join(dir, 'assets', 'index-1.js'), 'console.log(1)')
    writeFileSync(join(outside, 'outside.js'), 'secret')
    const serve = createAppProtocolHandler(dir, CONTENT_SECURITY_POLICY)
    const page = await serve({ url: `${APP_ORIGIN}/` })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<title>app</title>')
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect((await serve({ url: `${APP_ORIGIN}/assets/index-1.js` })).headers.get('content-type')).toMatch(/javascript/)
    for (const url of [
      `${APP_ORIGIN}/../outside.js`,
      `${APP_ORIGIN}/%2e%2e/outside.js`,
      `${APP_ORIGIN}/missing.js`,
      'app://other/index.html',
    ]) {
      expect((await serve({ url })).status, url).toBe(404)
    }
    expect(resolveAppFile('/app/renderer', 'app://app/')?.path).toBe('/app/renderer/index.html')
    expect(resolveAppFile('/app/renderer', 'app://app/assets/index-1.js')).toMatchObject({
      path: '/app/renderer/assets/index-1.js',
      mime: 'text/javascript; charset=utf-8',
    })
    for (const u of [
      'app://app/../../etc/passwd',
      'app://other/index.html',
      'app://app/secret.key',
      'app://app/%E0%A4%A',
    ]) {
      expect(resolveAppFile('/app/renderer', u), u).toBeUndefined()
    }
    // Dot segments, encoded or not, never lead out of the renderer folder.
    for (const u of [
      'app://app/%2e%2e/%2e%2e/etc/passwd.js',
      'app://app/assets/..%2f..%2f..%2fetc/x.js',
      'app://app/a/%2E%2E/%2E%2E/%2E%2E/b.js',
    ]) {
      const file = resolveAppFile('/app/renderer', u)
      if (file) expect(file.path.startsWith('/app/renderer/'), `${u} -> ${file.path}`).toBe(true)
    }
  })
})
