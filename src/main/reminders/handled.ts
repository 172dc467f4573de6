/**
 * Where a reminder's (or a change from outside's) handling is kept: acknowledged, snoozed or sent
 * to the calendar, once for everyone who sees it (issue 37 point 7). Alone, in this
 * workstation's store; in team mode, in the team's database (team_reminders), so that handling
 * it on one workstation handles it on every other (team-ledger.ts implements the same interface).
 *
 * Keys are per account (the account's local id); each place makes them its own (the team's
 * account fingerprint).
 */
import { z } from 'zod'
import { isHandled, type ReminderHandled, type ReminderHandlingKind } from '@shared/portfolio/reminders'
import { reminderHandledSchema } from '@shared/portfolio/reminder-schemas'
import type { PortfolioStoreAsync } from '../store/store-async'

export interface ReminderHandlings {
  /** How those of `keys` that were handled were handled. */
  handledOf(accountId: string, keys: readonly string[]): Promise<Map<string, ReminderHandled>>
  /**
   * Handles one: the first handling wins (`mine: false` answers the one kept); a snooze that has
   * run out may be handled again.
   */
  handleOnce(
    accountId: string,
    key: string,
    how: ReminderHandlingKind,
    snoozedUntil?: Date,
  ): Promise<{ mine: boolean; handled: ReminderHandled }>
}

/** The setting that keeps this workstation's handlings (single-workstation mode). */
const HANDLED_SETTING = 'reminders.handled'
const keptSchema = z.record(z.string(), reminderHandledSchema)
/** Kept at most: the oldest handlings go first (a reminder of an expiry long past never matters again). */
const MAX_KEPT = 5000

const storedKey = (accountId: string, key: string) => `${accountId}\u0000${key}`

/** Handlings kept in this workstation's store. */
export function localHandlings(store: PortfolioStoreAsync, now: () => Date): ReminderHandlings {
  async function read(): Promise<Record<string, ReminderHandled>> {
    const text = await store.getSetting(HANDLED_SETTING)
    if (text === undefined) return {}
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return {}
    }
    const parsed = keptSchema.safeParse(value)
    // Damaged: the reminders are open again, which says more, never less.
    return parsed.success ? parsed.data : {}
  }
  /** One handling at a time: two clicks at once must not lose one. */
  let queue: Promise<unknown> = Promise.resolve()
  return {
    async handledOf(accountId, keys) {
      const kept = await read()
      const out = new Map<string, ReminderHandled>()
      for (const k of keys) {
        const h = kept[storedKey(accountId, k)]
        if (h) out.set(k, h)
      }
      return out
    },
    handleOnce(accountId, key, how, snoozedUntil) {
      const run = async () => {
        const kept = await read()
        const id = storedKey(accountId, key)
        const before = kept[id]
        const at = now()
        if (isHandled(before, at) && before) return { mine: false, handled: before }
        const handled: ReminderHandled = {
          how,
          at: at.toISOString(),
          ...(how === 'snoozed' && snoozedUntil ? { snoozedUntil: snoozedUntil.toISOString() } : {}),
        }
        kept[id] = handled
        const entries = Object.entries(kept).sort((a, b) => a[1].at.localeCompare(b[1].at))
        await store.putSetting(HANDLED_SETTING, JSON.stringify(Object.fromEntries(entries.slice(-MAX_KEPT))))
        return { mine: true, handled }
      }
      const next = queue.then(run, run)
      queue = next.catch(() => undefined)
      return next
    },
  }
}
