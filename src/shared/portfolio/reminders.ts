/**
 * Expiry reminders: the items that expire, the settings, and what main hands the renderer to
 * word and show. Plain data and plain code with no library, so the renderer can import it
 * without the schema library (main validates with the schemas of ipc/payloads.ts).
 */
import type { ServerKind } from '../service/constants'

/** What can expire: a domain, a hosting server (of a kind), a service IP. */
export const REMINDER_ITEM_KINDS = ['domain', 'server', 'svcip'] as const
export type ReminderItemKind = (typeof REMINDER_ITEM_KINDS)[number]

/** An item that expires, as the portfolio store last read it. */
export interface ExpiringItem {
  accountId: string
  kind: ReminderItemKind
  /** What identifies it: the domain name, the server's webid, the svcip's vipid (a server's page opens by its name: the renderer's lib/data/reminder-target.ts). */
  id: string
  /** The server kind of a server. */
  serverKind?: ServerKind | undefined
  /** What the user calls it: the domain name, the server's webname, the svcip's vipname. */
  label: string
  /** YYYY-MM-DD, as the service gave it. */
  expires: string
  /** Whether auto-renewal is in force; undefined when nothing stored says (then it counts as off). */
  autorenew: boolean | undefined
}

/** A reminder that is due now: the item, the threshold it reached and how many days are left. */
export interface DueReminder {
  item: ExpiringItem
  /** The smallest threshold (days before expiry) the item has reached. */
  threshold: number
  /** Whole days from today to the expiry date (0: it expires today). */
  daysLeft: number
}

export interface ReminderSettings {
  /** Reminders on or off. */
  enabled: boolean
  /** Days before expiry, largest first, each once. */
  thresholds: number[]
  /** Also remind of items whose auto-renewal is in force. */
  includeAutorenewing: boolean
}

export const MAX_THRESHOLDS = 8
export const MAX_THRESHOLD_DAYS = 365
export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = {
  enabled: true,
  thresholds: [60, 30, 7, 1],
  includeAutorenewing: false,
}

/** Thresholds as they are kept: each once, largest first. */
export const normaliseThresholds = (days: readonly number[]): number[] => [...new Set(days)].sort((a, b) => b - a)

/** What can be wrong with thresholds typed by the user (the renderer words each). */
export type ThresholdsCode =
  | 'reminders.thresholdNotNumber'
  | 'reminders.thresholdRange'
  | 'reminders.thresholdsTooMany'
  | 'reminders.thresholdsNone'

export type ParsedThresholds =
  { ok: true; value: number[] } | { ok: false; code: ThresholdsCode; params?: Record<string, string | number> }

/**
 * Thresholds as the user types them: whole numbers of days separated by commas, spaces or the
 * Japanese comma. Duplicates are dropped before counting, so "30, 30" is one threshold.
 */
export function parseThresholds(text: string): ParsedThresholds {
  const parts = text.split(/[\s,、，]+/).filter((p) => p !== '')
  if (parts.length === 0) return { ok: false, code: 'reminders.thresholdsNone' }
  const days: number[] = []
  for (const part of parts) {
    if (!/^\d+$/.test(part))
      return { ok: false, code: 'reminders.thresholdNotNumber', params: { value: part.slice(0, 20) } }
    const n = Number(part)
    if (n > MAX_THRESHOLD_DAYS)
      return {
        ok: false,
        code: 'reminders.thresholdRange',
        params: { value: part.slice(0, 20), max: MAX_THRESHOLD_DAYS },
      }
    days.push(n)
  }
  const value = normaliseThresholds(days)
  if (value.length > MAX_THRESHOLDS)
    return { ok: false, code: 'reminders.thresholdsTooMany', params: { max: MAX_THRESHOLDS } }
  return { ok: true, value }
}

/**
 * Where a notification's click leads: one item in its account, or, for the summary of many
 * reminders at once, the "Expiring soon" overview.
 */
export type ReminderTarget =
  { kind: ReminderItemKind; accountId: string; id: string; serverKind?: ServerKind | undefined } | { kind: 'overview' }

/** The item's identity in the reminders-sent record: servers of different kinds may share a webid. */
export const reminderItemKey = (item: Pick<ExpiringItem, 'id' | 'serverKind'>): string =>
  item.serverKind ? `${item.serverKind}/${item.id}` : item.id

/** How a reminder (or a change from outside) was handled: once, for everyone who sees it (issue 37 point 7). */
export const REMINDER_HANDLINGS = ['acknowledged', 'snoozed', 'calendar'] as const
export type ReminderHandlingKind = (typeof REMINDER_HANDLINGS)[number]

export interface ReminderHandled {
  how: ReminderHandlingKind
  /** ISO time it was handled. */
  at: string
  /** Team mode: who handled it, on which workstation. */
  member?: string | undefined
  workstation?: string | undefined
  /** A snooze: until when (ISO); after that the reminder is open again. */
  snoozedUntil?: string | undefined
}

/**
 * More reminders due at once than this (a first run on a large portfolio) are not shown one by
 * one: the most urgent are, and the rest summed up in one notification.
 */
export const SEPARATE_REMINDERS = 5

/**
 * What the window is told of the reminders due now: no more of them than it may show one by one,
 * and how many are due in all. Main records every one of them as sent; the window has no use
 * for the others, and a first run on 100,000 domains would carry megabytes in one message.
 */
export interface DueReminders {
  /** The most urgent first, at most SEPARATE_REMINDERS. */
  mostUrgent: DueReminder[]
  /** How many are due in all. */
  count: number
}

/** `due` (most urgent first) as the window is told of it. */
export const dueRemindersOf = (due: readonly DueReminder[]): DueReminders => ({
  mostUrgent: due.slice(0, SEPARATE_REMINDERS),
  count: due.length,
})

/** A reminder whose threshold the item has reached, open or handled: the list every member sees. */
export interface OpenReminder extends DueReminder {
  handled?: ReminderHandled | undefined
}

/** One reminder's identity across workstations: the item, its expiry date and the threshold reached. */
export const reminderKey = (r: Pick<DueReminder, 'item' | 'threshold'>): string =>
  [r.item.kind, reminderItemKey(r.item), r.item.expires, String(r.threshold)].join('/')

/** A snooze still running at `now`, or a handling that is not a snooze: the reminder is not open. */
export const isHandled = (h: ReminderHandled | undefined, now: Date): boolean =>
  h !== undefined &&
  (h.how !== 'snoozed' || (h.snoozedUntil !== undefined && Date.parse(h.snoozedUntil) > now.getTime()))
