/**
 * Reminders and calendar events in the user's language: main hands out items with codes and
 * numbers, and these words are made here, from the catalogue. The words come in as a parameter
 * (the app passes reminderWords(), built on its reactive `t`), so a test reads exactly what a
 * user reads without a browser.
 */
import type { MessageKey } from '@shared/i18n/catalogue'
import type { Params } from '@shared/i18n/format'
import type { ServerKind } from '@shared/service/constants'
import type { DueReminder, ExpiringItem } from '@shared/portfolio/reminders'

export interface ReminderWords {
  t(key: MessageKey, params?: Params): string
  /** YYYY-MM-DD as the user reads a date. */
  formatDate(date: string): string
  /** The account's name as shown (its id when it is gone). */
  accountName(accountId: string): string
  /** The account's name for a server kind. */
  kindLabel(accountId: string, kind: ServerKind): string
}

export interface NotificationText {
  title: string
  body: string
}

/** What the item is: "Domain", "Server (Web servers)", "Service IP". */
function itemKindText(w: ReminderWords, item: ExpiringItem): string {
  if (item.kind === 'domain') return w.t('reminders.what.domain')
  if (item.kind === 'svcip') return w.t('reminders.what.svcip')
  return w.t('reminders.what.server', { kind: item.serverKind ? w.kindLabel(item.accountId, item.serverKind) : '' })
}

export function reminderText(w: ReminderWords, r: DueReminder): NotificationText {
  const { item } = r
  return {
    title:
      r.daysLeft === 0
        ? w.t('reminders.expiresToday', { item: item.label })
        : w.t('reminders.expiresIn', { item: item.label, days: r.daysLeft }),
    body: w.t(item.autorenew ? 'reminders.bodyAutorenew' : 'reminders.body', {
      what: itemKindText(w, item),
      account: w.accountName(item.accountId),
      date: w.formatDate(item.expires),
    }),
  }
}

/** The one notification that stands for the reminders not shown one by one. */
export function moreRemindersText(w: ReminderWords, count: number): NotificationText {
  return { title: w.t('reminders.moreTitle', { count }), body: w.t('reminders.moreBody') }
}

/** A calendar event's title: the item, what it is and whose. */
export function calendarSummary(w: ReminderWords, item: ExpiringItem): string {
  return w.t('calendar.summary', {
    item: item.label,
    what: itemKindText(w, item),
    account: w.accountName(item.accountId),
  })
}
