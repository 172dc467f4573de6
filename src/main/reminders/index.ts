/**
 * Expiry reminders in main: the settings (kept in the store, so they hold without a window),
 * which reminders are due for every account's stored items, and showing one on the desktop.
 * Main hands out reminders as data; the renderer words them in the user's language and asks
 * for each to be shown.
 *
 * A reminder is recorded as sent when it is handed out, in one transaction with the check:
 * a reminder lost with a window closed at that moment is better than the same one twice.
 */
import { todayIso } from '@shared/formats/dates'
import { parseWith } from '@shared/errors/field-issues'
import {
  DEFAULT_REMINDER_SETTINGS,
  isHandled,
  reminderItemKey,
  reminderKey,
  type DueReminder,
  type ExpiringItem,
  type OpenReminder,
  type ReminderHandled,
  type ReminderHandlingKind,
  type ReminderSettings,
} from '@shared/portfolio/reminders'
import { reminderSettingsSchema } from '@shared/portfolio/reminder-schemas'
import type { SentReminder } from '../store/types'
import type { PortfolioStoreAsync } from '../store/store-async'
import type { Desktop, DesktopNotification } from '../base/desktop'
import type { AppLog } from '../base/app-log'
import { dueReminders } from './due'
import { expiringItems } from './expiring-items'
import { localHandlings, type ReminderHandlings } from './handled'
import type { ReminderNotices } from './notices'

/** The key of the settings in the store's settings table. */
const REMINDER_SETTINGS_KEY = 'reminders'

export interface RemindersOptions {
  store: PortfolioStoreAsync
  /** Every account's id, the demo's included. */
  accountIds: () => string[]
  now: () => Date
  desktop: Pick<Desktop, 'notify'>
  log?: Pick<AppLog, 'info' | 'warn'>
  /** Where handlings are kept: this workstation's store by default; the team's database in team mode. */
  handlings?: ReminderHandlings
  /** Team mode: who of the team's workstations notifies each reminder (the first to find it due). */
  notices?: ReminderNotices
}

export interface Reminders {
  settings(): Promise<ReminderSettings>
  /** Saves settings already checked (reminderSettingsSchema); answers them as kept. */
  saveSettings(settings: ReminderSettings): Promise<ReminderSettings>
  /** The reminders due now, most urgent first, recorded as sent; in team mode those this workstation notifies (claimed first). */
  due(): Promise<DueReminder[]>
  /** Every reminder whose threshold is reached (the most urgent one per item), each with its handling. */
  open(): Promise<OpenReminder[]>
  /** Handles one reminder once, for everyone who sees it (`key`: reminderKey). */
  handle(
    accountId: string,
    key: string,
    how: ReminderHandlingKind,
    snoozeDays?: number,
  ): Promise<{ mine: boolean; handled: ReminderHandled }>
  /** Every stored item with an expiry date, of one account or of all. */
  expirations(accountId?: string): Promise<ExpiringItem[]>
  /** Shows a notification; `onClick` runs when the user clicks it. */
  show(notification: DesktopNotification, onClick: () => void): void
}

/** One item's expiry date, as the sent record keys it. */
const dateKey = (s: Omit<SentReminder, 'threshold'>) => [s.accountId, s.itemKind, s.itemKey, s.expires].join('\u0000')
const itemDateKey = (item: ExpiringItem) =>
  dateKey({ accountId: item.accountId, itemKind: item.kind, itemKey: reminderItemKey(item), expires: item.expires })
const markOf = (item: ExpiringItem, threshold: number): SentReminder => ({
  accountId: item.accountId,
  itemKind: item.kind,
  itemKey: reminderItemKey(item),
  expires: item.expires,
  threshold,
})

const DAY_MS = 86_400_000

/** An item's identity in one account, whatever its expiry date. */
const itemIdentity = (item: ExpiringItem) => [item.accountId, item.kind, reminderItemKey(item)].join('\u0000')
const codeOf = (err: unknown) =>
  typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined

export function createReminders(opts: RemindersOptions): Reminders {
  const { store } = opts
  const handlings = opts.handlings ?? localHandlings(store, opts.now)
  /** Each reminder's handling, per account; an account whose handlings cannot be read has none (shown, never hidden). */
  const withHandling = async (due: DueReminder[]): Promise<OpenReminder[]> => {
    const byAccount = new Map<string, DueReminder[]>()
    for (const d of due) byAccount.set(d.item.accountId, [...(byAccount.get(d.item.accountId) ?? []), d])
    const handled = new Map<DueReminder, ReminderHandled>()
    for (const [accountId, list] of byAccount) {
      try {
        const found = await handlings.handledOf(accountId, list.map(reminderKey))
        for (const d of list) {
          const h = found.get(reminderKey(d))
          if (h) handled.set(d, h)
        }
      } catch (err) {
        opts.log?.warn('reminders.handledUnreadable', { code: codeOf(err) })
      }
    }
    return due.map((d) => ({ ...d, ...(handled.has(d) ? { handled: handled.get(d) } : {}) }))
  }
  /**
   * Those of `open` this workstation notifies: alone, all; in team mode, those whose notice it
   * claimed first. The team unreachable: all of them, as alone (a reminder twice rather than none).
   */
  const notifiedHere = async (open: DueReminder[]): Promise<DueReminder[]> => {
    if (!opts.notices || open.length === 0) return open
    try {
      return await opts.notices.claimNotices(open)
    } catch (err) {
      opts.log?.warn('reminders.noticesUnclaimed', { code: codeOf(err) })
      return open
    }
  }
  /**
   * Every account's items, as the store last read them; in team mode, an account of which the store
   * has read nothing yet (a workstation started later) has the items whose reminders the team was
   * notified of, so that what is due is listed before the first read.
   */
  const itemsToList = async (today: string): Promise<ExpiringItem[]> => {
    const ids = opts.accountIds()
    const stored = (await Promise.all(ids.map((id) => expiringItems(store, id)))).flat()
    const unread = ids.filter((id) => !stored.some((i) => i.accountId === id))
    if (!opts.notices || unread.length === 0) return stored
    try {
      const known = new Set(stored.map(itemIdentity))
      return [...stored, ...(await opts.notices.noticedItems(unread, today)).filter((i) => !known.has(itemIdentity(i)))]
    } catch (err) {
      opts.log?.warn('reminders.noticesUnreadable', { code: codeOf(err) })
      return stored
    }
  }
  const settings = async (): Promise<ReminderSettings> => {
    const text = await store.getSetting(REMINDER_SETTINGS_KEY)
    if (text === undefined) return DEFAULT_REMINDER_SETTINGS
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      value = undefined
    }
    const parsed = parseWith(reminderSettingsSchema, value)
    if (parsed.ok) return parsed.value
    // Damaged in the file: the defaults hold until the user saves again.
    opts.log?.warn('reminders.settingsUnreadable', {})
    return DEFAULT_REMINDER_SETTINGS
  }
  return {
    settings,
    async saveSettings(s) {
      await store.putSetting(REMINDER_SETTINGS_KEY, JSON.stringify(s))
      return settings()
    },
    async due() {
      const now = opts.now()
      const today = todayIso(now)
      const sent = new Map<string, number[]>()
      for (const s of await store.remindersSent()) {
        const key = dateKey(s)
        const list = sent.get(key)
        if (list) list.push(s.threshold)
        else sent.set(key, [s.threshold])
      }
      const items = (await Promise.all(opts.accountIds().map((id) => expiringItems(store, id)))).flat()
      const { due, marks } = dueReminders(items, await settings(), today, (item) => sent.get(itemDateKey(item)) ?? [])
      await store.recordReminders(
        marks.map((m) => markOf(m.item, m.threshold)),
        now.toISOString(),
        today,
      )
      // One a colleague (or this workstation) already handled is not shown again.
      const open = (await withHandling(due))
        .filter((d) => !isHandled(d.handled, now))
        .map(({ handled: _handled, ...d }) => d)
      // Another workstation of the team found one first and notified it: listed here, not notified twice.
      const mine = await notifiedHere(open)
      if (open.length)
        opts.log?.info('reminders.due', {
          count: mine.length,
          claimedElsewhere: open.length - mine.length,
          marked: marks.length,
        })
      return mine
    },
    async open() {
      const now = opts.now()
      const today = todayIso(now)
      // Every threshold reached, as if none had been shown yet: the list, not the notifications.
      const { due } = dueReminders(await itemsToList(today), await settings(), today, () => [])
      return withHandling(due)
    },
    handle(accountId, key, how, snoozeDays) {
      const snoozedUntil = how === 'snoozed' ? new Date(opts.now().getTime() + (snoozeDays ?? 1) * DAY_MS) : undefined
      return handlings.handleOnce(accountId, key, how, snoozedUntil)
    },
    async expirations(accountId) {
      const ids = accountId === undefined ? opts.accountIds() : [accountId]
      return (await Promise.all(ids.map((id) => expiringItems(store, id)))).flat()
    },
    show(notification, onClick) {
      opts.desktop.notify(notification, onClick)
    },
  }
}
