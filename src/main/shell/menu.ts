/**
 * The application menu. Roles only: Electron gives each its label and shortcut, so the menu
 * carries no text of ours. A packaged build has no developer tools and no reload (a reload
 * would drop what is on screen); a development build adds them.
 */
import type { MenuItemConstructorOptions } from 'electron'

export function applicationMenu(opts: { packaged: boolean; platform: NodeJS.Platform }): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ]
  if (!opts.packaged)
    view.push({ type: 'separator' }, { role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' })
  return [
    ...(opts.platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu', submenu: view },
    { role: 'windowMenu' },
  ]
}
