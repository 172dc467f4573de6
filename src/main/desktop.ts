/**
 * What the app asks of the desktop it runs on: open a folder, put text on the clipboard, and
 * say which versions it runs. The Electron shell gives the real one (src/main/index.ts); where
 * there is no desktop shell (tests, `npm run ui`) a headless one keeps copied text in memory
 * and cannot open folders.
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

export interface Desktop {
  openFolder(path: string): Promise<void>
  copyText(text: string): void
  versions(): DesktopVersions
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

export interface HeadlessDesktop extends Desktop {
  /** Everything put on the clipboard, oldest first. */
  readonly copied: readonly string[]
}

export function headlessDesktop(): HeadlessDesktop {
  const copied: string[] = []
  return {
    copied,
    async openFolder() {
      throw AppError.of('internal', { code: 'app.noDesktop' })
    },
    copyText(text) {
      copied.push(text)
    },
    versions: processVersions,
  }
}
