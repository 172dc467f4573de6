/**
 * The reminders whose threshold is reached, each with how it was handled (issue 37 point 7):
 * acknowledged, snoozed or sent to the calendar, once for everyone who sees it (in team mode,
 * for the team: a colleague's handling shows with their name). Main keeps the handlings; this
 * reads them and asks for one.
 */
import { shallowRef } from 'vue'
import { invoke, type ErrorData } from '../data/bridge'
import { latestAnswer } from '../lib/latest-answer'
import {
  reminderKey,
  type OpenReminder,
  type ReminderHandlingKind,
  type ReminderItemKind,
} from '@shared/portfolio/reminders'

/** An item as a screen row knows it: its account, its kind, its id (a server's webid with its kind). */
export interface ReminderItemRef {
  accountId: string
  kind: ReminderItemKind
  id: string
  serverKind?: string | undefined
}

const itemRefKey = (r: ReminderItemRef) => [r.accountId, r.kind, r.serverKind ?? '', r.id].join('/')

export function useOpenReminders() {
  const byItem = shallowRef(new Map<string, OpenReminder>())
  const error = shallowRef<ErrorData>()

  // The Expiring screen asks on opening and again once every part is read, and main may answer the first last (in team
  // mode, with nothing stored yet, it also asks what colleagues noticed): its older answer is not taken.
  const latest = latestAnswer()

  async function load(): Promise<void> {
    const r = await latest(invoke('reminders.open', {}))
    if (r === undefined) return
    if (!r.ok) return void (error.value = r.error)
    error.value = undefined
    byItem.value = new Map(
      r.value.map((o) => [
        itemRefKey({ accountId: o.item.accountId, kind: o.item.kind, id: o.item.id, serverKind: o.item.serverKind }),
        o,
      ]),
    )
  }

  const of = (item: ReminderItemRef): OpenReminder | undefined => byItem.value.get(itemRefKey(item))

  /** Handles one; `mine: false` means someone else had handled it first (the list then shows theirs). */
  async function handle(
    o: OpenReminder,
    how: ReminderHandlingKind,
    snoozeDays?: number,
  ): Promise<{ mine: boolean } | undefined> {
    const r = await invoke('reminders.handle', {
      accountId: o.item.accountId,
      key: reminderKey(o),
      how,
      ...(snoozeDays ? { snoozeDays } : {}),
    })
    if (!r.ok) return void (error.value = r.error)
    error.value = undefined
    await load()
    return { mine: r.value.mine }
  }

  /** Every open reminder (of one account, or of all) sent to the calendar: handled, for the team too. */
  async function sentToCalendar(accountId?: string): Promise<void> {
    await load()
    for (const o of byItem.value.values()) {
      if (o.handled || (accountId !== undefined && o.item.accountId !== accountId)) continue
      const r = await invoke('reminders.handle', { accountId: o.item.accountId, key: reminderKey(o), how: 'calendar' })
      if (!r.ok) return void (error.value = r.error)
    }
  }

  return { load, of, handle, sentToCalendar, error }
}
