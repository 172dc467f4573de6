/**
 * The record of reminders sent: one row per account, item, expiry date and threshold, so each
 * threshold reminds once per expiry date, across restarts, and a renewal (a new date) starts
 * them again. Rows of dates already past can never matter again and are dropped as new ones
 * are written, so the table stays the size of what is about to expire.
 */
import { z } from 'zod'
import type { Connection } from './database'
import { REMINDER_ITEM_KINDS } from '@shared/portfolio/reminders'
import { SentReminder } from './types'

const sentRow = z.object({
  account_id: z.string(),
  item_kind: z.enum(REMINDER_ITEM_KINDS),
  item_key: z.string(),
  expires: z.string(),
  threshold: z.number().int(),
})

export function remindersSent(conn: Connection): SentReminder[] {
  // A row that does not pass is left out: at worst a reminder is shown again.
  return conn
    .all(sentRow, 'SELECT account_id, item_kind, item_key, expires, threshold FROM reminders_sent')
    .map((r) => ({
      accountId: r.account_id,
      itemKind: r.item_kind,
      itemKey: r.item_key,
      expires: r.expires,
      threshold: r.threshold,
    }))
}

export function recordReminders(conn: Connection, sent: readonly SentReminder[], at: string, today: string): void {
  conn.write(() => {
    conn.run('DELETE FROM reminders_sent WHERE expires < ?', [today])
    for (const s of sent) {
      conn.run(
        'INSERT OR IGNORE INTO reminders_sent (account_id, item_kind, item_key, expires, threshold, at) VALUES (?, ?, ?, ?, ?, ?)',
        [s.accountId, s.itemKind, s.itemKey, s.expires, s.threshold, at],
      )
    }
  })
}
