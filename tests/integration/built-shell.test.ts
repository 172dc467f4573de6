/**
 * The BUILT main bundle (out/main/index.js), run in Node against a double of the `electron`
 * module (only what cannot run here is replaced), driven through its lifecycle. What is
 * asserted is what the bundle does: what it registers, what its handlers answer, which window
 * it opens, what it refuses, and what it logs.
 */
import { z } from 'zod'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { assertBuilt, startBuiltShell, type BuiltShell, type ShellState } from '../../support/built-shell'
import { CHANNEL_NAMES, EVENT_CHANNELS, ipcChannel } from '@shared/ipc/channels'
import { CONTENT_SECURITY_POLICY, REQUIRED_FUSES } from '../../src/main/shell/security'
import { WINDOW_JS_FLAGS } from '../../src/main/shell/window-v8'
import { DEFAULT_SERVER_PATHS } from '../../src/sandbox'
import { SERVER_KINDS } from '@shared/service/constants'

const APP = 'app://app/index.html'
let shells: BuiltShell[] = []

async function launch(opts: Parameters<typeof startBuiltShell>[0] = {}): Promise<BuiltShell> {
  const shell = await startBuiltShell(opts)
  shells.push(shell)
  return shell
}

afterEach(async () => {
  await Promise.all(shells.map((s) => s.quit()))
  shells = []
})

beforeAll(() => assertBuilt())

const menuRoles = (menu: ShellState['menu']): string[] =>
  (menu ?? []).flatMap((m) => [m.role ?? '', ...(m.submenu ?? []).map((s) => s.role ?? '')]).filter(Boolean)

const profileFields = (name: string, baseUrl: string) => ({
  name,
  baseUrl,
  serverKinds: Object.fromEntries(SERVER_KINDS.map((k) => [k, { path: DEFAULT_SERVER_PATHS[k], label: k }])),
  nsTypes: { svc1: { word: 'svc1', label: 'svc1' }, svc11: { word: 'svc11', label: 'svc11' } },
  timeoutMs: 5_000,
})

describe('the built main bundle', () => {
  it('opens one hardened window on app://app, with the built preload, a sandbox for every renderer and the privileged app scheme', async () => {
    const shell = await launch()
    expect(await shell.ready()).toBe(true)
    const s = await shell.state()
    expect(s.sandboxEnabled).toBe(true)
    expect(s.privilegedSchemes).toEqual([
      {
        scheme: 'app',
        // codeCache: the window's scripts compiled once, not at every start (Electron caches a custom scheme's only so).
        privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false, codeCache: true },
      },
    ])
    // The window's V8 flags (shell/window-v8.ts) appended before app ready, when the renderers take them.
    expect(s.switches).toEqual({ 'js-flags': WINDOW_JS_FLAGS })
    expect(s.calls.indexOf('app.commandLine.appendSwitch')).toBeLessThan(s.calls.indexOf('app.whenReady'))
    expect(s.windows).toHaveLength(1)
    const [win] = s.windows
    expect(win?.url).toBe(APP)
    expect(win?.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      devTools: true,
    })
    expect(win?.options.webPreferences).not.toHaveProperty('enableBlinkFeatures')
    // The preload the window names is the one the build made.
    const preload = String(win?.options.webPreferences.preload)
    expect(preload).toMatch(/out[\\/]preload[\\/]index\.cjs$/)
    expect(existsSync(preload)).toBe(true)
    expect(s.protocols).toEqual(['app'])
  })

  it('serves the built renderer over app:// with the CSP and nosniff, and nothing outside it', async () => {
    const shell = await launch()
    await shell.ready()
    const page = await shell.protocol(APP)
    expect(page.status).toBe(200)
    expect(page.body).toContain('<div id="app">')
    expect(page.headers?.['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
    expect(page.headers?.['x-content-type-options']).toBe('nosniff')
    const script = /src="\.?\/?(assets\/[^"]+\.js)"/.exec(page.body ?? '')?.[1]
    expect(script).toBeDefined()
    expect((await shell.protocol(`app://app/${script}`)).headers?.['content-type']).toMatch(/javascript/)
    for (const url of [
      'app://app/../main/index.js',
      'app://app/%2e%2e/main/index.js',
      'app://app/..%2f..%2fpackage.json',
      'app://other/index.html',
      'app://app/missing.js',
    ]) {
      expect((await shell.protocol(url)).status, url).toBe(404)
    }
  })

  it('registers exactly the contract channels; a call from the app reaches the services, one from elsewhere is refused', async () => {
    const shell = await launch()
    await shell.ready()
    const s = await shell.state()
    expect([...s.ipcChannels].sort()).toEqual(CHANNEL_NAMES.map(ipcChannel).sort())
    const list = await shell.invoke(ipcChannel('accounts.list'), {})
    expect(list).toMatchObject({ ok: true, value: { activeId: 'demo', accounts: [{ id: 'demo', demo: true }] } })
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://other/index.html', '']) {
      expect(await shell.invoke(ipcChannel('accounts.list'), {}, url), url).toMatchObject({
        ok: false,
        error: { code: 'ipc.foreignSender' },
      })
    }
    expect(await shell.invoke(ipcChannel('accounts.setActive'), { id: '../x' })).toMatchObject({
      ok: false,
      error: { code: 'ipc.invalidPayload' },
    })
  })

  it('page guards: no navigation away, no redirect away, no webview, no new window; https links go to the system browser', async () => {
    const shell = await launch()
    await shell.ready()
    for (const event of ['will-navigate', 'will-redirect'] as const) {
      expect((await shell.guard(event, `${APP}#/domains`)).prevented, event).toBe(false)
      for (const url of [
        'https://example.com/',
        'file:///etc/passwd',
        'app://evil/index.html',
        'javascript:alert(1)',
      ]) {
        expect((await shell.guard(event, url)).prevented, `${event} ${url}`).toBe(true)
      }
    }
    expect((await shell.guard('will-attach-webview')).prevented).toBe(true)
    for (const url of ['https://docs.example.com/guide', 'http://example.com/', 'file:///c:/windows', APP]) {
      expect((await shell.guard('open', url)).answer, url).toEqual({ action: 'deny' })
    }
    expect((await shell.state()).openedExternal).toEqual(['https://docs.example.com/guide'])
    for (const permission of ['media', 'notifications', 'clipboard-read', 'clipboard-sanitized-write', 'geolocation']) {
      expect(await shell.permission(permission), permission).toEqual({ granted: false, check: false })
    }
    expect((await shell.beforeRequest(`${APP}`)).cancel).toBe(false)
    for (const url of ['https://example.com/x.js', 'http://127.0.0.1:8080/', 'file:///etc/passwd', 'ws://evil/']) {
      expect((await shell.beforeRequest(url)).cancel, url).toBe(true)
    }
  })

  it('a window at once: it paints before the services start, and the first call waits for them', async () => {
    const shell = await launch()
    await shell.ready()
    const s = await shell.state()
    const order = s.timeline.map((e) => e.event)
    expect(order.slice(0, 2)).toEqual(['ready', 'ready-to-show'])
    // The window was made and loaded before anything else of the app: the store is opened after.
    expect(s.calls.indexOf('new BrowserWindow')).toBeLessThan(s.calls.indexOf('window.loadURL'))
    expect(await shell.invoke(ipcChannel('accounts.list'), {})).toMatchObject({ ok: true })
    expect(existsSync(join(shell.userDataDir, 'portfolio.db'))).toBe(true)
  })

  it('a window that never paints is shown after a bounded wait, and the services start all the same', async () => {
    const shell = await launch({ paint: 'never' })
    expect(await shell.ready()).toBe(true)
    expect(await shell.invoke(ipcChannel('accounts.list'), {})).toMatchObject({ ok: true })
    const s = await shell.state()
    expect(s.timeline.map((e) => e.event)).not.toContain('ready-to-show')
    expect(s.calls).toContain('window.show')
    expect(readFileSync(join(shell.userDataDir, 'logs', 'main.log'), 'utf8')).toContain('window.paintWaitedOut')
  })

  it('a page that cannot be loaded fails the start: logged, and the app exits instead of lingering without a window', async () => {
    const shell = await launch({ load: 'fail' })
    await expect(shell.ready()).rejects.toThrow(/exited \(1\)/)
    expect(await shell.exited()).toBe(1)
    expect(readFileSync(join(shell.userDataDir, 'logs', 'main.log'), 'utf8')).toContain('main.startFailed')
  })

  it('a copy to the clipboard is told as done only when Electron’s promise resolved; a failed one is an error', async () => {
    const shell = await launch()
    await shell.ready()
    expect(await shell.invoke(ipcChannel('app.copyText'), { text: 'hello' })).toMatchObject({ ok: true })
    expect((await shell.state()).clipboard).toEqual(['hello'])
    const failing = await launch({ clipboard: 'fail' })
    await failing.ready()
    expect(await failing.invoke(ipcChannel('app.copyText'), { text: 'hello' })).toMatchObject({
      ok: false,
      error: { code: 'app.copyFailed' },
    })
    expect((await failing.state()).clipboard).toEqual([])
  })

  it('a read-only data folder: the app starts, keeps the store and the log in memory, says so, and sends no write it cannot record', async () => {
    const shell = await launch({ readOnlyDataFolder: true })
    expect(await shell.ready()).toBe(true)
    const started = await shell.invoke(ipcChannel('app.startup'), {})
    expect(started).toMatchObject({ ok: true })
    const warnings = started?.ok
      ? z
          .object({ warnings: z.array(z.object({ code: z.string() })) })
          .parse(started.value)
          .warnings.map((w) => w.code)
      : []
    expect(warnings).toEqual(['store.unavailable', 'startup.logNotKept', 'startup.journalNotKept'])
    expect(await shell.invoke(ipcChannel('accounts.list'), {})).toMatchObject({ ok: true, value: { activeId: 'demo' } })
    const diagnostics = await shell.invoke(ipcChannel('app.diagnostics'), {})
    expect(JSON.stringify(diagnostics)).toContain('app.start')
    const job = await shell.invoke(ipcChannel('jobs.submit'), {
      accountId: 'demo',
      operation: 'domains.transferlock.set',
      items: [{ params: { domain: 'no-such.example', transfer_lock: 1 } }],
    })
    expect(job).toMatchObject({ ok: false, error: { code: 'job.journalUnwritable' } })
    expect(readdirSync(shell.userDataDir)).toEqual([])
  })

  it('closing the window while it holds unsaved edits asks the window first; once it holds none, the window closes', async () => {
    const shell = await launch()
    expect(await shell.ready()).toBe(true)
    expect(await shell.invoke(ipcChannel('accounts.list'), {})).toMatchObject({ ok: true })
    expect(await shell.invoke(ipcChannel('app.unsavedWork'), { count: 2 })).toMatchObject({ ok: true })
    expect(await shell.closeWindow()).toBe(false)
    expect((await shell.state()).sent.filter((m) => m.channel === EVENT_CHANNELS.quitRequest)).toHaveLength(1)
    expect(await shell.invoke(ipcChannel('app.unsavedWork'), { count: -1 })).toMatchObject({
      ok: false,
      error: { code: 'ipc.invalidPayload' },
    })
    expect(await shell.invoke(ipcChannel('app.unsavedWork'), { count: 0 })).toMatchObject({ ok: true })
    expect(await shell.closeWindow()).toBe(true)
    const s = await shell.state()
    expect(s.sent.filter((m) => m.channel === EVENT_CHANNELS.quitRequest)).toHaveLength(1)
    expect(s.windows).toEqual([])
  })

  it('a reload its unsaved edits hold back asks the window (Electron asks nothing), and does not reload by itself', async () => {
    const shell = await launch()
    expect(await shell.ready()).toBe(true)
    // Nothing held back: the reload happens and nothing is asked.
    expect(await shell.reloadWindow(false)).toBe(true)
    expect((await shell.state()).sent.filter((m) => m.channel === EVENT_CHANNELS.reloadRequest)).toHaveLength(0)
    // The page's beforeunload holds it back: the window is asked once; the reload is its to do.
    expect(await shell.reloadWindow(true)).toBe(false)
    expect((await shell.state()).sent.filter((m) => m.channel === EVENT_CHANNELS.reloadRequest)).toHaveLength(1)
  })

  it('a second instance quits before it starts anything', async () => {
    const shell = await launch({ lock: 'denied' })
    const s = await shell.state()
    expect(s.calls).toEqual(['app.requestSingleInstanceLock', 'app.quit'])
    expect(s).toMatchObject({
      quit: true,
      sandboxEnabled: false,
      protocols: [],
      ipcChannels: [],
      windows: [],
      menu: null,
      privilegedSchemes: [],
    })
    expect(s.listeners).toEqual({ webContentsCreated: 0, secondInstance: 0 })
    expect(existsSync(join(shell.userDataDir, 'logs'))).toBe(false)
  })

  it('a packaged build has no developer tools and no reload in its menu or its window; a development build has them', async () => {
    const packaged = await launch({ packaged: true })
    await packaged.ready()
    const p = await packaged.state()
    expect(menuRoles(p.menu)).toEqual(
      expect.arrayContaining(['fileMenu', 'editMenu', 'viewMenu', 'windowMenu', 'zoomIn', 'resetZoom']),
    )
    for (const role of ['toggleDevTools', 'reload', 'forceReload']) expect(menuRoles(p.menu)).not.toContain(role)
    expect(p.windows[0]?.options.webPreferences.devTools).toBe(false)

    const dev = await launch({ packaged: false })
    await dev.ready()
    expect(menuRoles((await dev.state()).menu)).toEqual(expect.arrayContaining(['toggleDevTools', 'reload']))
  })

  it('when the accounts file cannot be read, the window still opens and says what went wrong and where the file is', async () => {
    const shell = await launch({ packaged: true })
    // A folder where the accounts file should be: the read fails with EISDIR.
    mkdirSync(join(shell.userDataDir, 'accounts.json'))
    await shell.ready()
    const s = await shell.state()
    expect(s.windows[0]?.url).toBe(APP)
    const startup = await shell.invoke(ipcChannel('app.startup'), {})
    expect(startup).toMatchObject({
      ok: true,
      value: {
        problem: {
          code: 'startup.accountsFile',
          params: { path: join(shell.userDataDir, 'accounts.json'), reason: 'EISDIR' },
        },
      },
    })
    // Every other channel answers with the problem instead of hanging or crashing.
    expect(await shell.invoke(ipcChannel('accounts.list'), {})).toMatchObject({
      ok: false,
      error: { code: 'startup.unavailable' },
    })
    expect(await shell.invoke(ipcChannel('app.openLogFolder'), {})).toMatchObject({ ok: true })
    expect((await shell.state()).openedPaths).toEqual([join(shell.userDataDir, 'logs')])
    const log = readFileSync(join(shell.userDataDir, 'logs', 'main.log'), 'utf8')
    expect(log).toMatch(/app\.startFailed code=startup\.accountsFile .*reason=EISDIR/)
  })

  it('a damaged accounts file: the app starts without accounts, keeps the file aside, and the start-up warnings every screen shows say where', async () => {
    const userDataDir = mkdtempSync(join(tmpdir(), 'built-shell-'))
    writeFileSync(join(userDataDir, 'accounts.json'), '{"version": 1, "accounts": [ {"id": "a1", "na')
    const shell = await launch({ userDataDir })
    await shell.ready()
    const startup = await shell.invoke(ipcChannel('app.startup'), {})
    expect(startup).toMatchObject({ ok: true, value: { warnings: [{ code: 'accountsFile.unreadable' }] } })
    const movedTo = z
      .object({ value: z.object({ warnings: z.array(z.object({ params: z.object({ movedTo: z.string() }) })) }) })
      .parse(startup).value.warnings[0]!.params.movedTo
    expect(readFileSync(movedTo, 'utf8')).toContain('"na')
  })

  it('the demo sandbox starts only when the demo account is used, and stops when another account is chosen', async () => {
    const shell = await launch()
    await shell.ready()
    const demoUrl = async () => {
      const r = await shell.invoke(ipcChannel('accounts.list'), {})
      if (!r?.ok) throw new Error(JSON.stringify(r))
      const text = JSON.stringify(r.value)
      return /"id":"demo"[^}]*?"baseUrl":"([^"]*)"/.exec(text)?.[1]
    }
    expect(await demoUrl()).toBe('')
    expect(await shell.invoke(ipcChannel('domains.list'), { accountId: 'demo', limit: 5, page: 1 })).toMatchObject({
      ok: true,
    })
    const url = await demoUrl()
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    const created = await shell.invoke(ipcChannel('accounts.create'), {
      fields: profileFields('Other', 'https://api.example.com/v1'),
      apiKey: 'other-account-key-1234',
      storage: 'session',
    })
    if (!created?.ok) throw new Error(JSON.stringify(created))
    const id = /"id":"([^"]+)"/.exec(JSON.stringify(created.value))?.[1]
    expect(await shell.invoke(ipcChannel('accounts.setActive'), { id })).toMatchObject({ ok: true })
    expect(await demoUrl()).toBe('')
    // The stopped sandbox no longer answers.
    await expect(fetch(`${url}/domains`)).rejects.toThrow()
  })

  it('logs to a file in the data folder, every line redacted: keys, URL credentials; diagnostics carry no key', async () => {
    const shell = await launch()
    await shell.ready()
    const key = 'sk-live-log-check-7f3a9c2e41b8'
    const created = await shell.invoke(ipcChannel('accounts.create'), {
      fields: profileFields('Logged', 'https://api.example.com/v1'),
      apiKey: key,
      storage: 'session',
    })
    expect(created).toMatchObject({ ok: true })
    // A page error that quotes the key and a URL with credentials, as a careless message might.
    expect(
      await shell.invoke(ipcChannel('app.reportError'), {
        source: 'error',
        message: `failed with ${key} at https://admin:hunter2@api.example.com/v1`,
      }),
    ).toMatchObject({ ok: true })
    // A base URL holding the key is refused, and the refusal is logged by code only.
    expect(
      await shell.invoke(ipcChannel('accounts.create'), {
        fields: profileFields('Bad', `https://api.example.com/${key}/v1`),
        apiKey: key,
        storage: 'session',
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'account.keyInBaseUrl' },
    })
    const logDir = join(shell.userDataDir, 'logs')
    expect(readdirSync(logDir)).toEqual(['main.log'])
    const log = readFileSync(join(logDir, 'main.log'), 'utf8')
    expect(log).toContain('renderer.error')
    expect(log).toContain('[redacted]')
    expect(log).toContain('ipc.failed channel=accounts.create kind=validation code=account.keyInBaseUrl')
    expect(log).not.toContain(key)
    expect(log).not.toContain('hunter2')
    const diagnostics = await shell.invoke(ipcChannel('app.diagnostics'), {})
    expect(diagnostics).toMatchObject({ ok: true, value: { accounts: 1, node: process.versions.node } })
    const text = JSON.stringify(diagnostics)
    expect(text).toContain('renderer.error')
    expect(text).not.toContain(key)
    expect(text).not.toContain('hunter2')
    expect(text).not.toContain('api.example.com/v1"')
    // Copy diagnostics goes through the system clipboard of main.
    expect(await shell.invoke(ipcChannel('app.copyText'), { text: 'diagnostics text' })).toMatchObject({ ok: true })
    expect((await shell.state()).clipboard).toEqual(['diagnostics text'])
  })

  it('a reminder is shown as a desktop notification; its click brings the window forward and tells the page which item to open', async () => {
    const shell = await launch()
    await shell.ready()
    const target = { kind: 'domain', accountId: 'demo', id: 'example.com' }
    expect(
      await shell.invoke(ipcChannel('reminders.notify'), {
        title: 'example.com expires in 7 days',
        body: 'Domain of “Demo”',
        target,
      }),
    ).toMatchObject({ ok: true })
    const shown = await shell.state()
    expect(shown.notifications).toEqual([
      { title: 'example.com expires in 7 days', body: 'Domain of “Demo”', shown: true },
    ])
    const focusedBefore = shown.focused
    expect(shown.sent.filter((m) => m.channel === EVENT_CHANNELS.reminderOpen)).toEqual([])
    expect(await shell.clickNotification(0)).toBe(true)
    const clicked = await shell.state()
    expect(clicked.focused).toBe(focusedBefore + 1)
    expect(clicked.sent.filter((m) => m.channel === EVENT_CHANNELS.reminderOpen)).toEqual([
      { channel: EVENT_CHANNELS.reminderOpen, args: [target] },
    ])
    // A target main cannot check is refused before anything is shown.
    expect(
      await shell.invoke(ipcChannel('reminders.notify'), {
        title: 'x',
        body: '',
        target: { kind: 'domain', accountId: '../x', id: 'a' },
      }),
    ).toMatchObject({ ok: false, error: { code: 'ipc.invalidPayload' } })
    expect((await shell.state()).notifications).toHaveLength(1)
  })
})

describe('fuses', () => {
  it('the fuse list the packaging applies is the one the shell documents', () => {
    expect(REQUIRED_FUSES).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    })
  })
})
