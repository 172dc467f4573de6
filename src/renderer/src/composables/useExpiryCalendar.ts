/**
 * The portfolio's expiration dates as an iCalendar file, of one account or of all, for a team
 * calendar: from what the app last read of each account (main's store), worded in the user's
 * language. The reminders due now are in the file: they count as handled (in team mode, for the team).
 */
import { ref } from 'vue'
import { invoke, type ErrorData } from '../data/bridge'
import { t } from '../i18n'
import { useAccountsStore } from '../stores/accounts'
import { accountName } from '../lib/text/account-text'
import { download } from '../lib/data/csv'
import { expiryCalendar } from '../lib/data/expiry-calendar'
import { reminderWords } from '../lib/text/reminder-words'
import { notify } from '../lib/notify'
import { useOpenReminders } from './useOpenReminders'

export function useExpiryCalendar() {
  const accounts = useAccountsStore()
  const error = ref<ErrorData>()
  const reminders = useOpenReminders()

  /** Downloads the file of the account with this id ('' is every account). */
  async function exportCalendar(accountId: string): Promise<void> {
    const chosen = accountId ? accounts.accounts.find((a) => a.id === accountId) : undefined
    const r = await invoke('reminders.expirations', chosen ? { accountId: chosen.id } : {})
    if (!r.ok) return void (error.value = r.error)
    error.value = undefined
    const text = expiryCalendar(
      reminderWords(accounts.accounts),
      r.value,
      chosen ? accountName(chosen) : t('expiring.allAccounts'),
    )
    // As bytes: a byte-order mark (which download() gives text) would come before BEGIN:VCALENDAR.
    download(
      `expiration-dates-${chosen ? chosen.id : 'all'}.ics`,
      new TextEncoder().encode(text),
      'text/calendar;charset=utf-8',
    )
    notify(t('calendar.exported', { count: r.value.length }))
    await reminders.sentToCalendar(chosen?.id)
  }

  /** The export's own failure, and the failure of marking the reminders handled. */
  return { exportCalendar, error, handlingError: reminders.error }
}
