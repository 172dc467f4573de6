/**
 * Runs the BUILT main bundle (out/main/index.js) in this Node process against the electron
 * double, and answers a test's commands over the fork IPC channel:
 *   { id, cmd: 'ready' }                    fire app ready; answer once the window painted (or the app quit)
 *   { id, cmd: 'state' }                    what the bundle did with Electron so far
 *   { id, cmd: 'protocol', url }            the app:// handler's answer for a URL
 *   { id, cmd: 'invoke', channel, payload, senderUrl }   a call through the registered ipcMain handler
 *   { id, cmd: 'guard', event, url }        a page event through the guards the bundle installed
 *   { id, cmd: 'permission', permission }   a permission request through the session's handler
 *   { id, cmd: 'beforeRequest', url }       a request through the session's request filter
 *   { id, cmd: 'clickNotification', index } the user clicks a notification the bundle showed
 *   { id, cmd: 'reloadWindow', beforeUnloadCancels }  a reload, the page's beforeunload cancelling it or not
 *   { id, cmd: 'memory' }                   main's memory after a full garbage collection (the bench)
 *   { id, cmd: 'quit' }                     will-quit, then exit
 */
import { register, createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'

register('./hooks.mjs', import.meta.url)
const require = createRequire(import.meta.url)
const { __double: double, app } = require('./electron.cjs')

const bundle = resolve(process.argv[2] ?? 'out/main/index.js')
await import(pathToFileURL(bundle).href)

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function waitFor(test, ms = 10_000) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (test()) return true
    await sleep(10)
  }
  return false
}

function plainMenu(items = []) {
  return items.map((i) => ({ role: i.role, type: i.type, ...(i.submenu ? { submenu: plainMenu(i.submenu) } : {}) }))
}

const commands = {
  async memory() {
    // Collected first, when the host runs with --expose-gc: what stays is what main holds.
    globalThis.gc?.()
    const m = process.memoryUsage()
    return { rss: m.rss, heapUsed: m.heapUsed, collected: typeof globalThis.gc === 'function' }
  },
  async ready() {
    double.fireReady()
    // Loaded: a window painted its page (ready-to-show) or was shown without it, or the app quit.
    const loaded = await waitFor(
      () =>
        double.timeline.some((e) => e.event === 'ready-to-show') || double.calls.includes('window.show') || double.quit,
    )
    return { loaded }
  },
  async state() {
    return {
      calls: double.calls,
      quit: double.quit,
      sandboxEnabled: double.sandboxEnabled,
      switches: double.switches,
      privilegedSchemes: double.privilegedSchemes,
      protocols: [...double.protocolHandlers.keys()],
      ipcChannels: [...double.ipcHandlers.keys()],
      windows: double.windows.map((w) => ({ options: w.options, url: w.url })),
      menu: double.menu ? plainMenu(double.menu.template) : null,
      openedExternal: double.openedExternal,
      openedPaths: double.openedPaths,
      clipboard: double.clipboard,
      listeners: {
        webContentsCreated: app.listenerCount('web-contents-created'),
        secondInstance: app.listenerCount('second-instance'),
      },
      notifications: double.notifications.map((n) => ({ ...n.options, shown: n.shown })),
      focused: double.focused,
      sent: (double.webContents[0]?.sent ?? []).map((m) => ({ channel: m.channel, args: m.args })),
      timeline: double.timeline,
    }
  },
  async closeWindow() {
    const window = double.windows[0]
    if (!window) return { closed: false, open: 0 }
    window.close()
    return { closed: window.isDestroyed(), open: double.windows.length }
  },
  /** A reload of the window (as View › Reload), its page's beforeunload cancelling it or not. */
  async reloadWindow({ beforeUnloadCancels }) {
    const contents = double.windows[0]?.webContents
    if (!contents) return { reloaded: false }
    const before = contents.reloads
    contents.beforeUnloadCancels = beforeUnloadCancels === true
    contents.reload()
    return { reloaded: contents.reloads > before }
  },
  async clickNotification({ index }) {
    const n = double.notifications[index]
    if (!n) return { clicked: false }
    n.emit('click', {})
    return { clicked: true }
  },
  async protocol({ url }) {
    const handler = double.protocolHandlers.get('app')
    if (!handler) return { registered: false }
    const res = await handler({ url })
    const body = Buffer.from(await res.arrayBuffer()).toString('utf8')
    return {
      registered: true,
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: body.slice(0, 2000),
      length: body.length,
    }
  },
  async invoke({ channel, payload, senderUrl }) {
    const handler = double.ipcHandlers.get(channel)
    if (!handler) return { registered: false }
    const sender = double.webContents[0] ?? { id: 0, isDestroyed: () => false, send() {} }
    const result = await handler({ senderFrame: { url: senderUrl }, sender }, payload)
    return { registered: true, result }
  },
  async guard({ event, url }) {
    const contents = double.webContents[0]
    if (!contents) return { contents: false }
    if (event === 'open') {
      const answer = contents.windowOpenHandler?.({ url })
      return { contents: true, answer }
    }
    let prevented = false
    contents.emit(event, { preventDefault: () => (prevented = true) }, url)
    return { contents: true, prevented }
  },
  async permission({ permission }) {
    let granted
    double.session.permissionRequest?.({}, permission, (g) => (granted = g))
    return { granted, check: double.session.permissionCheck?.() }
  },
  async beforeRequest({ url }) {
    let cancel
    double.session.beforeRequest?.({ url }, (r) => (cancel = r.cancel))
    return { cancel }
  },
  async quit() {
    app.emit('will-quit')
    await sleep(200)
    setTimeout(() => process.exit(0), 50)
    return { quitting: true }
  },
}

process.on('message', async (msg) => {
  const run = commands[msg.cmd]
  try {
    const value = run ? await run(msg) : { unknownCommand: msg.cmd }
    process.send({ id: msg.id, ok: true, value })
  } catch (err) {
    process.send({ id: msg.id, ok: false, error: String(err?.stack ?? err) })
  }
})
process.send({ id: 0, ok: true, value: 'loaded' })
// The test or bench that started this host ended without quitting it (killed, or a pipe closed
// on it): the app quits as on Quit, never left running beside the next runs.
process.on('disconnect', () => void commands.quit())
