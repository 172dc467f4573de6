/**
 * The history rows the store owes the journal's writes (write-history.ts writeOwed): offered at
 * the app's start and each time the store's worker is back after it ended, one offer at a time.
 * Rows that cannot be written are said once (a log line, and `notWritten` for the window) until an
 * offer writes them; an offer that writes rows says how many.
 */
import type { JobView } from '@shared/jobs'
import type { AppLog } from '../base/app-log'
import { AppError } from '../base/app-error'
import type { WriteHistory } from './write-history'

export interface HistoryOwed {
  /** Writes what is owed now; asked while an offer runs, one more runs after it. */
  offer(): Promise<void>
  /** Why the last offer could not write what is owed (a store error's code), until one does. */
  notWritten(): { reason: string } | undefined
  /** The offers asked so far have ended (before the store is closed). */
  settled(): Promise<void>
}

export function createHistoryOwed(o: {
  history: Pick<WriteHistory, 'writeOwed'>
  /** The jobs whose rows this workstation writes (a colleague's come from the team's history). */
  jobs: () => readonly JobView[]
  log: Pick<AppLog, 'info' | 'warn'>
}): HistoryOwed {
  let running: Promise<void> | undefined
  let again = false
  let failed: { reason: string } | undefined

  async function once(): Promise<void> {
    try {
      const { written, settled } = await o.history.writeOwed(o.jobs())
      if (written + settled > 0) o.log.info('history.owedWritten', { written, settled })
      failed = undefined
    } catch (err) {
      const reason = err instanceof AppError ? err.data.code : err instanceof Error ? err.name : 'unknown'
      if (!failed) o.log.warn('history.owedNotWritten', { reason })
      failed = { reason }
    }
  }

  const offer = (): Promise<void> => {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      do {
        again = false
        await once()
      } while (again)
    })().finally(() => {
      running = undefined
    })
    return running
  }

  return {
    offer,
    notWritten: () => failed,
    settled: async () => {
      await running
    },
  }
}
