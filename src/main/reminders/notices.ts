/**
 * Who shows a reminder on the desktop (issue 50 point 3). Alone, this workstation shows every
 * reminder it finds due. In team mode every running workstation finds the same reminders due, and
 * each would show them: the first to find one claims its notice in the team's database
 * (team-notices.ts, through the team ledger) and alone shows it; the others list it on "Expiring
 * soon" with its handling. The team's notices also list, on a workstation whose store has not read
 * an account yet (one started later), what the team was notified of.
 */
import type { DueReminder, ExpiringItem } from '@shared/portfolio/reminders'

export interface ReminderNotices {
  /** Claims these reminders' notices for this workstation; answers those it won, in order (the others were claimed elsewhere). */
  claimNotices(due: readonly DueReminder[]): Promise<DueReminder[]>
  /** The items of these accounts whose reminders the team was notified of, expiring on `from` (YYYY-MM-DD) or later. */
  noticedItems(accountIds: readonly string[], from: string): Promise<ExpiringItem[]>
}
