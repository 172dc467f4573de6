// The Electron shell. Kept thin: everything it wires lives in plain Node modules.
import { app, BrowserWindow } from 'electron'

app.whenReady().then(() => {
  const win = new BrowserWindow({ width: 1280, height: 800, webPreferences: { sandbox: true, contextIsolation: true } })
  void win.loadURL('about:blank')
})
