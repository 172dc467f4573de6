/**
 * What the app asks of the desktop it runs on: open a folder, put text on the clipboard, show
 * a notification, and say which versions it runs. The Electron shell gives the real one
 * (src/main/index.ts); where there is no desktop shell (tests, `npm run ui`) a headless one
 * keeps copied text and notifications in memory (a test can click one) and cannot open folders.
 */
import { release, type } from 'node:os'
import { APP_VERSION } from './app-version'
import { AppError } from './app-error'

export interface DesktopVersions {
  app: string
  electron: string | null
  chrome: string | null
  node: string
  os: string
}

/** A desktop notification, worded in the user's language by the renderer. */
export interface DesktopNotification {
  title: string
  body: string
}

export interface Desktop {
  openFolder(path: string): Promise<void>
  /** Puts text on the clipboard; rejects when it could not (Electron's clipboard.writeText is a promise). */
  copyText(text: string): Promise<void>
  versions(): DesktopVersions
  /** Shows a notification; `onClick` runs when the user clicks it (after the window is brought forward). */
  notify(n: DesktopNotification, onClick: () => void): void
}

/** The versions of this process, as Node (and Electron, when it is Electron) reports them. */
export function processVersions(): DesktopVersions {
  const v = process.versions
  return {
    app: APP_VERSION,
    electron: v.electron ?? null,
    chrome: v.chrome ?? null,
    node: v.node,
    os: `${type()} ${release()} (${process.platform} ${process.arch})`,
  }
}

/** A notification the headless desktop was asked to show, which a test can click. */
export interface RecordedNotification extends DesktopNotification {
  click(): void
}

export interface HeadlessDesktop extends Desktop {
  /** Everything put on the clipboard, oldest first. */
  readonly copied: readonly string[]
  /** Every notification shown, oldest first. */
  readonly notifications: readonly RecordedNotification[]
}

export function headlessDesktop(): HeadlessDesktop {
  const copied: string[] = []
  const notifications: RecordedNotification[] = []
  return {
    copied,
    notifications,
    notify(n, onClick) {
      notifications.push({ title: n.title, body: n.body, click: onClick })
    },
    async openFolder() {
      throw AppError.of('internal', { code: 'app.noDesktop' })
    },
    async copyText(text) {
      copied.push(text)
    },
    versions: processVersions,
  }
}
