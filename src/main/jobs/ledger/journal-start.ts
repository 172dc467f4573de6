/**
 * What a start makes of the journal once its jobs are read: lines that could not be read (a torn
 * write, a damaged disk), or a journal changed outside the app, would be lost to the rewrite that
 * keeps it short, so the file as read is kept aside first and the window says where, once; then it
 * is rewritten with the jobs kept. A journal that can be read but not written (a read-only data
 * folder, a full disk) says why: no write is sent that run, since nothing may be sent that was not
 * journaled first.
 */
import type { JobView } from '@shared/jobs'
import type { WriteLedger } from './write-ledger'

export interface JournalAtStart {
  /** Why the journal cannot be written this run, when it cannot: no job starts. */
  problem?: { reason: string } | undefined
  /** Lines of the journal that could not be read, and where the file as read was kept. */
  damaged?: { movedTo: string; lines: number } | undefined
  /** The journal was changed outside the app (its chain broken at `line`), and where the file as read was kept. */
  changed?: { movedTo: string; line: number } | undefined
}

export async function keepJournalAtStart(ledger: WriteLedger, jobs: JobView[], now: Date): Promise<JournalAtStart> {
  const out: JournalAtStart = {}
  const unreadable = ledger.unreadableLines
  const changed = ledger.changedOutside
  if (unreadable > 0 || changed) {
    try {
      const movedTo = await ledger.keepAside(now)
      if (unreadable > 0) out.damaged = { movedTo, lines: unreadable }
      if (changed) out.changed = { movedTo, line: changed.line }
    } catch (err) {
      // Not kept aside: the rewrite would lose the lines for good, so the file stays as it is.
      return { problem: { reason: systemReason(err) } }
    }
  }
  try {
    await ledger.compact(jobs)
  } catch (err) {
    out.problem = { reason: systemReason(err) }
  }
  return out
}

/** The system's code for a file operation that failed (EACCES, EROFS, ENOSPC...). */
export function systemReason(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : 'unknown'
}
