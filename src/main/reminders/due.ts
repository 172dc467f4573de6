/**
 * Which reminders are due: pure, given the items, the settings, today's date and what was sent
 * before, so it is tested with a fixed day and nothing else.
 *
 * Each threshold reminds once per item and expiry date. An item that has reached several
 * thresholds since it was last looked at (the first run, or the app closed for weeks) reminds
 * once, for the smallest of them (the most urgent words), and the larger ones count as sent too:
 * they would only say less, later. For the same reason nothing reminds less urgently than a
 * reminder already sent for that date (thresholds changed in between). Expired items do not remind: a reminder is about the time
 * left before expiry, and a portfolio that holds long-expired items would otherwise open with a
 * flood of them ("Expiring soon" lists those).
 */
import type { DueReminder, ExpiringItem, ReminderSettings } from '@shared/portfolio/reminders'

/** A reminder to record as sent: the item, its expiry date and one threshold. */
export interface ReminderMark {
  item: ExpiringItem
  threshold: number
}

export interface DueResult {
  /** What to show, most urgent first. */
  due: DueReminder[]
  /** What to record as sent: every threshold reached and not sent yet, due or not (see above). */
  marks: ReminderMark[]
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** Whole days from one YYYY-MM-DD date to another, in UTC so that no time zone moves a day. */
export function daysBetween(from: string, to: string): number | undefined {
  const a = ISO_DATE.exec(from)
  const b = ISO_DATE.exec(to)
  if (!a || !b) return undefined
  const utc = (m: RegExpExecArray) => Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  return Math.round((utc(b) - utc(a)) / 86_400_000)
}

export function dueReminders(
  items: readonly ExpiringItem[],
  settings: ReminderSettings,
  today: string,
  /** The thresholds already sent for this item and its expiry date. */
  sentFor: (item: ExpiringItem) => readonly number[],
): DueResult {
  const due: DueReminder[] = []
  const marks: ReminderMark[] = []
  if (!settings.enabled) return { due, marks }
  for (const item of items) {
    // Auto-renewal in force renews it without the user; unknown counts as off, to be safe.
    if (item.autorenew === true && !settings.includeAutorenewing) continue
    const daysLeft = daysBetween(today, item.expires)
    if (daysLeft === undefined || daysLeft < 0) continue
    const reached = settings.thresholds.filter((t) => daysLeft <= t)
    if (reached.length === 0) continue
    const sent = sentFor(item)
    const unsent = reached.filter((t) => !sent.includes(t))
    for (const t of unsent) marks.push({ item, threshold: t })
    const threshold = Math.min(...reached)
    if (sent.some((t) => t <= threshold)) continue
    due.push({ item, threshold, daysLeft })
  }
  due.sort(
    (x, y) =>
      x.daysLeft - y.daysLeft ||
      x.item.label.localeCompare(y.item.label) ||
      x.item.accountId.localeCompare(y.item.accountId),
  )
  return { due, marks }
}
