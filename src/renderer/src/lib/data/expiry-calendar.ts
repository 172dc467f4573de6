/**
 * The expiration dates of the portfolio as calendar events: one all-day event per item on its
 * expiry date, worded in the user's language, with a UID made of the account, the item and the
 * date, so a newer export updates the same events and a renewal makes a new one.
 */
import { icsCalendar, type CalendarEvent } from './ics'
import { calendarSummary, type ReminderWords } from '../text/reminder-text'
import { reminderItemKey, type ExpiringItem } from '@shared/portfolio/reminders'

const CALENDAR_PROD_ID = '-//Hosting Admin//Expiration dates//EN'

/** Stable across exports and machines: the same account, item and date give the same UID. */
export function calendarUid(item: ExpiringItem): string {
  const part = (s: string) => encodeURIComponent(s)
  return `${part(item.accountId)}.${item.kind}.${part(reminderItemKey(item))}.${item.expires}@hosting-admin`
}

function calendarEvents(w: ReminderWords, items: readonly ExpiringItem[]): CalendarEvent[] {
  return [...items]
    .sort((a, b) => a.expires.localeCompare(b.expires) || a.label.localeCompare(b.label))
    .map((item) => ({
      uid: calendarUid(item),
      date: item.expires,
      summary: calendarSummary(w, item),
      description: item.autorenew ? w.t('calendar.autorenewOn') : undefined,
    }))
}

/** The .ics text of these items; `accounts` names which accounts it holds, for the calendar's name. */
export function expiryCalendar(
  w: ReminderWords,
  items: readonly ExpiringItem[],
  accounts: string,
  stamp = new Date(),
): string {
  return icsCalendar(calendarEvents(w, items), {
    prodId: CALENDAR_PROD_ID,
    stamp,
    name: w.t('calendar.name', { accounts }),
  })
}
