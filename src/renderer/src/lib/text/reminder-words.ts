/** The words of reminders and calendar events in the app: its reactive catalogue and the accounts' own names. */
import { formatDate, t } from '../../i18n'
import { accountName, kindLabel } from './account-text'
import type { ReminderWords } from './reminder-text'
import type { AccountView } from '@shared/accounts'

export function reminderWords(accounts: readonly AccountView[]): ReminderWords {
  const byId = new Map(accounts.map((a) => [a.id, a]))
  return {
    t,
    formatDate,
    accountName: (id) => accountName(byId.get(id)) || id,
    kindLabel: (id, kind) => kindLabel(byId.get(id), kind),
  }
}
