'use strict'
/**
 * A double of the `electron` module, for running the BUILT main bundle and preload in Node
 * (no Electron binary can be downloaded on these machines). Only what cannot run here is
 * replaced: the app lifecycle, windows, protocol, session, IPC, shell, clipboard, menu,
 * dialogs and notifications. Each records what the code under test did with it, in order, in `__double`.
 *
 * Configured by the environment of the process that loads it:
 *   ELECTRON_DOUBLE_USER_DATA  the userData folder
 *   ELECTRON_DOUBLE_LOCK       'denied' when another instance holds the single-instance lock
 *   ELECTRON_DOUBLE_PACKAGED   '1' for a packaged build
 *   ELECTRON_DOUBLE_LOAD       'fail' when a window's page cannot be loaded
 *   ELECTRON_DOUBLE_PAINT      'never' when a window never emits ready-to-show (Electron does not
 *                              promise it: a renderer that never paints, a hidden window's throttling)
 */
const { EventEmitter } = require('node:events')

function createElectronDouble(env) {
  const calls = []
  const note = (name) => calls.push(name)
  let resolveReady
  const ready = new Promise((r) => (resolveReady = r))

  const state = {
    calls,
    quit: false,
    sandboxEnabled: false,
    /** Command-line switches appended (app.commandLine.appendSwitch), by name: what the renderers start with. */
    switches: {},
    privilegedSchemes: [],
    protocolHandlers: new Map(),
    ipcHandlers: new Map(),
    windows: [],
    webContents: [],
    menu: undefined,
    openedExternal: [],
    openedPaths: [],
    clipboard: [],
    errorBoxes: [],
    session: { permissionRequest: undefined, permissionCheck: undefined, beforeRequest: undefined },
    exposed: [],
    invoked: [],
    notifications: [],
    focused: 0,
    rendererListeners: new Map(),
    /** When each lifecycle event happened (performance.now()): app ready, a window's events. */
    timeline: [],
    fireReady() {
      state.timeline.push({ event: 'ready', at: performance.now() })
      resolveReady()
    },
  }
  const mark = (event) => state.timeline.push({ event, at: performance.now() })

  class App extends EventEmitter {
    get isPackaged() {
      return env.ELECTRON_DOUBLE_PACKAGED === '1'
    }
    requestSingleInstanceLock() {
      note('app.requestSingleInstanceLock')
      return env.ELECTRON_DOUBLE_LOCK !== 'denied'
    }
    quit() {
      note('app.quit')
      state.quit = true
    }
    /** As Electron's: the process ends at once, with the code, without quit events. */
    exit(code = 0) {
      note('app.exit')
      state.quit = true
      process.exit(code)
    }
    enableSandbox() {
      note('app.enableSandbox')
      state.sandboxEnabled = true
    }
    whenReady() {
      note('app.whenReady')
      return ready
    }
    getPath(name) {
      if (name === 'userData' && env.ELECTRON_DOUBLE_USER_DATA) return env.ELECTRON_DOUBLE_USER_DATA
      throw new Error(`The double has no path "${name}"`)
    }
    getVersion() {
      return '0.0.0-double'
    }
  }
  const app = new App()
  /** As Electron's: a switch's value is a string, '' when none is given. */
  app.commandLine = {
    appendSwitch(name, value) {
      note('app.commandLine.appendSwitch')
      state.switches[name] = value === undefined ? '' : String(value)
    },
    hasSwitch(name) {
      return Object.hasOwn(state.switches, name)
    },
    getSwitchValue(name) {
      return state.switches[name] ?? ''
    },
  }

  let nextId = 1
  function makeWebContents() {
    const contents = new EventEmitter()
    contents.id = nextId++
    contents.sent = []
    contents.windowOpenHandler = undefined
    contents.send = (channel, ...args) => contents.sent.push({ channel, args })
    contents.isDestroyed = () => false
    /** The double's stand-in for the page's beforeunload: whether it cancels an unload (unsaved edits). */
    contents.beforeUnloadCancels = false
    contents.reloads = 0
    /**
     * As Electron's: a reload runs the page's beforeunload first; one that cancels it stops the
     * reload and emits 'will-prevent-unload', whose preventDefault() lets the page unload anyway.
     * Electron itself shows nothing.
     */
    contents.reload = () => {
      note('webContents.reload')
      if (contents.beforeUnloadCancels) {
        let allowed = false
        contents.emit('will-prevent-unload', { preventDefault: () => (allowed = true) })
        if (!allowed) return
      }
      contents.reloads++
      contents.emit('did-start-loading')
    }
    contents.setWindowOpenHandler = (handler) => {
      contents.windowOpenHandler = handler
    }
    state.webContents.push(contents)
    return contents
  }

  class BrowserWindow extends EventEmitter {
    constructor(options) {
      super()
      note('new BrowserWindow')
      this.options = options
      this.url = undefined
      this.webContents = makeWebContents()
      state.windows.push(this)
      app.emit('web-contents-created', {}, this.webContents)
    }
    /**
     * As Electron does it: the page is fetched through the scheme's registered handler; a page
     * that cannot be loaded emits did-fail-load and rejects; one that loads emits did-start-loading,
     * dom-ready and did-finish-load on its webContents, and ready-to-show on the window once the
     * page has painted, before the promise resolves.
     */
    async loadURL(url) {
      note('window.loadURL')
      this.url = url
      const contents = this.webContents
      contents.emit('did-start-loading')
      const handler = state.protocolHandlers.get(String(url).split(':')[0])
      let loaded = false
      try {
        const res = handler && env.ELECTRON_DOUBLE_LOAD !== 'fail' ? await handler({ url }) : undefined
        loaded = Boolean(res && res.ok)
      } catch {
        loaded = false
      }
      if (!loaded) {
        mark('did-fail-load')
        contents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', url, true)
        throw new Error(`ERR_FILE_NOT_FOUND (-6) loading '${url}'`)
      }
      contents.emit('dom-ready')
      contents.emit('did-finish-load')
      if (env.ELECTRON_DOUBLE_PAINT === 'never') return
      mark('ready-to-show')
      this.emit('ready-to-show')
    }
    show() {
      note('window.show')
    }
    /**
     * As Electron's: the same as the user's click on the window's close button. 'close' comes
     * first, with an event whose preventDefault() keeps the window open; otherwise the window
     * is destroyed and 'closed' follows (and, with no window left, 'window-all-closed').
     */
    close() {
      note('window.close')
      if (this.destroyed) return
      let prevented = false
      this.emit('close', { preventDefault: () => (prevented = true) })
      if (prevented) return
      this.destroyed = true
      this.webContents.isDestroyed = () => true
      state.windows.splice(state.windows.indexOf(this), 1)
      this.emit('closed')
      if (state.windows.length === 0) app.emit('window-all-closed')
    }
    isDestroyed() {
      return this.destroyed === true
    }
    focus() {
      state.focused++
    }
    restore() {}
    isMinimized() {
      return false
    }
    static getAllWindows() {
      return state.windows
    }
  }

  const protocol = {
    registerSchemesAsPrivileged(schemes) {
      note('protocol.registerSchemesAsPrivileged')
      state.privilegedSchemes.push(...schemes)
    },
    handle(scheme, handler) {
      note('protocol.handle')
      state.protocolHandlers.set(scheme, handler)
    },
  }

  const session = {
    defaultSession: {
      setPermissionRequestHandler(h) {
        note('session.setPermissionRequestHandler')
        state.session.permissionRequest = h
      },
      setPermissionCheckHandler(h) {
        state.session.permissionCheck = h
      },
      webRequest: {
        onBeforeRequest(listener) {
          state.session.beforeRequest = listener
        },
      },
    },
  }

  const ipcMain = {
    handle(channel, handler) {
      if (state.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
      state.ipcHandlers.set(channel, handler)
    },
    removeHandler(channel) {
      state.ipcHandlers.delete(channel)
    },
    on() {
      throw new Error('The app registers no ipcMain.on listener; the double refuses one so a new one is noticed.')
    },
  }

  const shell = {
    async openExternal(url) {
      state.openedExternal.push(url)
    },
    async openPath(path) {
      state.openedPaths.push(path)
      return ''
    },
  }

  // As Electron 45 declares it: a promise, which rejects when the clipboard cannot be written
  // (the double fails when told to, through ELECTRON_DOUBLE_CLIPBOARD=fail).
  const clipboard = {
    writeText(text) {
      if (process.env.ELECTRON_DOUBLE_CLIPBOARD === 'fail') return Promise.reject(new Error('clipboard unavailable'))
      state.clipboard.push(text)
      return Promise.resolve()
    },
  }

  const Menu = {
    buildFromTemplate(template) {
      return { template }
    },
    setApplicationMenu(menu) {
      note('Menu.setApplicationMenu')
      state.menu = menu
    },
  }

  const dialog = {
    showErrorBox(title, content) {
      state.errorBoxes.push({ title, content })
    },
  }

  class Notification extends EventEmitter {
    static isSupported() {
      return true
    }
    constructor(options) {
      super()
      this.options = options
      this.shown = false
      state.notifications.push(this)
    }
    show() {
      this.shown = true
    }
  }

  const contextBridge = {
    exposeInMainWorld(key, api) {
      state.exposed.push({ key, api })
    },
  }

  const ipcRenderer = {
    invoke(channel, payload) {
      state.invoked.push({ channel, payload })
      return Promise.resolve({ ok: true, value: null })
    },
    on(channel, listener) {
      const list = state.rendererListeners.get(channel) ?? []
      list.push(listener)
      state.rendererListeners.set(channel, list)
    },
    removeListener(channel, listener) {
      const list = state.rendererListeners.get(channel) ?? []
      state.rendererListeners.set(
        channel,
        list.filter((l) => l !== listener),
      )
    },
  }

  return {
    app,
    BrowserWindow,
    protocol,
    session,
    ipcMain,
    shell,
    clipboard,
    Menu,
    dialog,
    Notification,
    contextBridge,
    ipcRenderer,
    __double: state,
  }
}

const electron = createElectronDouble(process.env)
exports.app = electron.app
exports.BrowserWindow = electron.BrowserWindow
exports.protocol = electron.protocol
exports.session = electron.session
exports.ipcMain = electron.ipcMain
exports.shell = electron.shell
exports.clipboard = electron.clipboard
exports.Menu = electron.Menu
exports.dialog = electron.dialog
exports.Notification = electron.Notification
exports.contextBridge = electron.contextBridge
exports.ipcRenderer = electron.ipcRenderer
exports.__double = electron.__double
exports.createElectronDouble = createElectronDouble
