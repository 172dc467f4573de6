/**
 * The app's own channels: whether it started, its diagnostics, its log folder, the clipboard,
 * and errors of the page written to the log.
 */
import { AppError } from '../base/app-error'
import type { Diagnostics, StartupState } from '@shared/ipc/contract'
import type { ErrorData } from '@shared/errors'
import type { AppLog } from '../base/app-log'
import type { Desktop } from '../base/desktop'

/** How many of the log's last lines go into the diagnostics. */
const DIAGNOSTICS_LOG_LINES = 200

export interface AppControl {
  startup(): StartupState
  diagnostics(): Promise<Diagnostics>
  openLogFolder(): Promise<void>
  copyText(text: string): Promise<void>
  reportError(report: { source: string; message: string; stack?: string | undefined }): void
  /** The window's count of unsaved edits, as it last said. */
  setUnsavedWork(count: number): void
}

export function createAppControl(opts: {
  log: AppLog
  desktop: Desktop
  accountCount: () => number
  problem?: ErrorData
  warnings?: () => ErrorData[]
  onUnsavedWork?: ((count: number) => void) | undefined
}): AppControl {
  const { log, desktop } = opts
  return {
    setUnsavedWork: (count) => opts.onUnsavedWork?.(count),
    startup: () => (opts.problem ? { problem: opts.problem } : { warnings: opts.warnings?.() ?? [] }),
    async diagnostics() {
      const v = desktop.versions()
      return { ...v, accounts: opts.accountCount(), logFile: log.file, log: await log.tail(DIAGNOSTICS_LOG_LINES) }
    },
    openLogFolder: () => desktop.openFolder(log.dir),
    async copyText(text) {
      try {
        await desktop.copyText(text)
      } catch (err) {
        log.warn('desktop.copyFailed', { error: err instanceof Error ? err.name : 'unknown' })
        throw AppError.of('internal', { code: 'app.copyFailed' })
      }
    },
    reportError(report) {
      // The page's own words about its failure: capped, one line, redacted like every line.
      log.error('renderer.error', {
        source: report.source,
        message: report.message.slice(0, 500),
        stack: report.stack?.slice(0, 2000),
      })
    },
  }
}
