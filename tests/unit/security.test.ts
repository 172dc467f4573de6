/**
 * The Electron security checklist (20 items), checked item by item where it is enforced.
 * Items enforced by calls in src/main/index.ts are checked on its source, since the
 * Electron binary cannot run here; tests/e2e/electron-app.spec.ts launches the real app
 * where a binary exists.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  APP_ORIGIN,
  CONTENT_SECURITY_POLICY,
  REQUIRED_FUSES,
  isAllowedNavigation,
  isSafeExternalUrl,
  windowOptions,
} from '../../src/main/security'
import { resolveAppFile } from '../../src/main/app-protocol'

const shellSource = readFileSync(resolve('src/main/index.ts'), 'utf8')
const preloadSource = readFileSync(resolve('src/preload/index.ts'), 'utf8')
const html = readFileSync(resolve('src/renderer/index.html'), 'utf8')
const wp = windowOptions('/x/preload.cjs').webPreferences!
const csp = Object.fromEntries(CONTENT_SECURITY_POLICY.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]))

describe('Electron security checklist', () => {
  it('1. only secure content: the page comes from app://, nothing remote is loaded', () => {
    expect(shellSource).toMatch(/loadURL\(`\$\{APP_ORIGIN\}\/index\.html`\)/)
    expect(shellSource).toMatch(/onBeforeRequest/)
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
    expect(shellSource).toMatch(/app\.enableSandbox\(\)/)
  })
  it('5. permission requests are all denied', () => {
    expect(shellSource).toMatch(/setPermissionRequestHandler\(\(_wc, _permission, callback\) => callback\(false\)\)/)
    expect(shellSource).toMatch(/setPermissionCheckHandler\(\(\) => false\)/)
  })
  it('6. web security stays on', () => expect(wp.webSecurity).toBe(true))
  it('7. a strict Content-Security-Policy, sent as a header and in the page', () => {
    expect(csp['script-src']).toEqual(["'self'"])
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|unsafe-inline|https?:|\*/)
    expect(csp['connect-src']).toEqual(["'none'"])
    expect(csp['object-src']).toEqual(["'none'"])
    expect(csp['frame-ancestors']).toEqual(["'none'"])
    expect(shellSource).toMatch(/'content-security-policy': CONTENT_SECURITY_POLICY/)
    // The meta tag in the page says the same, for the end-to-end harness that serves it without the header.
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1]
    expect(meta?.split(';').map((s) => s.trim())).toEqual(expect.arrayContaining(CONTENT_SECURITY_POLICY.split('; ').filter((d) => !d.startsWith('frame-ancestors'))))
  })
  it('8. no insecure content', () => expect(wp.allowRunningInsecureContent).toBe(false))
  it('9. no experimental features', () => expect(wp.experimentalFeatures).toBe(false))
  it('10. no enableBlinkFeatures', () => {
    expect(wp).not.toHaveProperty('enableBlinkFeatures')
    expect(shellSource).not.toMatch(/enableBlinkFeatures/)
  })
  it('11. no <webview> (so no allowpopups)', () => expect(wp.webviewTag).toBe(false))
  it('12. any webview attachment is refused', () => expect(shellSource).toMatch(/will-attach-webview', \(event\) => event\.preventDefault\(\)/))
  it('13. navigation limited to the app’s own origin', () => {
    expect(shellSource).toMatch(/will-navigate/)
    expect(shellSource).toMatch(/will-redirect/)
    expect(isAllowedNavigation(`${APP_ORIGIN}/index.html#/domains`)).toBe(true)
    for (const u of ['https://example.com', 'file:///etc/passwd', 'app://evil/index.html', 'javascript:alert(1)', 'garbage']) {
      expect(isAllowedNavigation(u), u).toBe(false)
    }
  })
  it('14. no new windows', () => expect(shellSource).toMatch(/setWindowOpenHandler\([\s\S]*?return \{ action: 'deny' \}/))
  it('15. shell.openExternal only for checked https links', () => {
    expect(shellSource).toMatch(/if \(isSafeExternalUrl\(url\)\) void shell\.openExternal\(url\)/)
    expect(isSafeExternalUrl('https://docs.example.com/guide')).toBe(true)
    for (const u of ['http://example.com', 'file:///c:/windows', 'smb://host/share', 'https://user:pw@example.com', 'https://example.com:8443/', 'ms-settings:']) {
      expect(isSafeExternalUrl(u), u).toBe(false)
    }
  })
  it('16. a current Electron', () => {
    const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { devDependencies: Record<string, string> }
    expect(Number(/\d+/.exec(pkg.devDependencies.electron ?? '')?.[0])).toBeGreaterThanOrEqual(38)
  })
  it('17. the sender of every IPC message is checked (tests/integration/ipc.test.ts proves it)', () => {
    expect(shellSource).toMatch(/url: event\.senderFrame\?\.url/)
    expect(shellSource).toMatch(/allowedOrigins: \[APP_ORIGIN\]/)
  })
  it('18. a custom protocol instead of file://, serving only the renderer folder', () => {
    expect(shellSource).toMatch(/protocol\.handle\(APP_SCHEME/)
    expect(shellSource).not.toMatch(/loadFile|file:\/\//)
    expect(resolveAppFile('/app/renderer', 'app://app/')?.path).toBe('/app/renderer/index.html')
    expect(resolveAppFile('/app/renderer', 'app://app/assets/index-1.js')).toMatchObject({ path: '/app/renderer/assets/index-1.js', mime: 'text/javascript; charset=utf-8' })
    for (const u of ['app://app/../../etc/passwd', 'app://other/index.html', 'app://app/secret.key', 'app://app/%E0%A4%A']) {
      expect(resolveAppFile('/app/renderer', u), u).toBeUndefined()
    }
    // Dot segments, encoded or not, never lead out of the renderer folder.
    for (const u of ['app://app/%2e%2e/%2e%2e/etc/passwd.js', 'app://app/assets/..%2f..%2f..%2fetc/x.js', 'app://app/a/%2E%2E/%2E%2E/%2E%2E/b.js']) {
      const file = resolveAppFile('/app/renderer', u)
      if (file) expect(file.path.startsWith('/app/renderer/'), `${u} -> ${file.path}`).toBe(true)
    }
  })
  it('19. fuses: RunAsNode, NODE_OPTIONS and inspect arguments off; only load from asar; asar integrity on', () => {
    const yml = readFileSync(resolve('electron-builder.yml'), 'utf8')
    for (const [fuse, value] of Object.entries(REQUIRED_FUSES)) expect(yml).toMatch(new RegExp(`^\\s+${fuse}: ${value}$`, 'm'))
    expect(REQUIRED_FUSES).toMatchObject({ runAsNode: false, enableNodeOptionsEnvironmentVariable: false, enableNodeCliInspectArguments: false, onlyLoadAppFromAsar: true, enableEmbeddedAsarIntegrityValidation: true })
  })
  it('20. no Electron API is exposed to the page: only window.api, built from the contract', () => {
    expect(preloadSource).toMatch(/contextBridge\.exposeInMainWorld\('api', api\)/)
    expect(preloadSource.match(/exposeInMainWorld/g)).toHaveLength(1)
    expect(preloadSource).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/)
  })
  it('and one instance at a time', () => expect(shellSource).toMatch(/requestSingleInstanceLock\(\)/))
})
