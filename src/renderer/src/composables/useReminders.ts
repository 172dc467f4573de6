/**
 * Expiry reminders on the window's side: asks main which are due (at start, then every hour,
 * and after the settings change), words each one in the user's language and asks main to show
 * it; a click on one switches to its account and opens its item.
 */
import { onUnmounted, watch } from 'vue'
import { useRouter, type Router } from 'vue-router'
import { invoke, onReminderOpen } from '../data/bridge'
import { t } from '../i18n/index'
import { useAccountsStore } from '../stores/accounts'
import { accountName } from '../lib/text/account-text'
import { moreRemindersText, reminderText } from '../lib/text/reminder-text'
import { reminderWords } from '../lib/text/reminder-words'
import { reminderTarget, targetRoute } from '../lib/data/reminder-target'
import { notify } from '../lib/notify'
import { SEPARATE_REMINDERS, type DueReminders, type ReminderTarget } from '@shared/portfolio/reminders'

const HOUR_MS = 3_600_000

let checking: Promise<void> | undefined

/** Asks main for the reminders due now and shows them; one check at a time. */
export function checkReminders(): Promise<void> {
  checking ??= showDue().finally(() => (checking = undefined))
  return checking
}

async function showDue(): Promise<void> {
  const r = await invoke('reminders.due', {})
  // Nothing to say on a failure: the next check asks again, and main's log has it.
  if (!r.ok) return
  await show(r.value)
}

async function show({ mostUrgent, count }: DueReminders): Promise<void> {
  const words = reminderWords(useAccountsStore().accounts)
  // More than can be shown one by one: the last place goes to the sum of the rest.
  const separate = count > SEPARATE_REMINDERS ? mostUrgent.slice(0, SEPARATE_REMINDERS - 1) : mostUrgent
  for (const d of separate) {
    const text = reminderText(words, d)
    await invoke('reminders.notify', { ...text, target: reminderTarget(d.item) })
  }
  const rest = count - separate.length
  if (rest > 0) await invoke('reminders.notify', { ...moreRemindersText(words, rest), target: { kind: 'overview' } })
}

/** Opens what a clicked notification is about, in its own account. */
async function open(router: Router, target: ReminderTarget): Promise<void> {
  const accounts = useAccountsStore()
  if (target.kind !== 'overview' && target.accountId !== accounts.activeId) {
    const account = accounts.accounts.find((a) => a.id === target.accountId)
    // An account removed since the reminder was shown: there is nothing to open.
    if (!account) return
    const switched = await accounts.setActive(target.accountId)
    if (!switched.ok) return
    notify(t('expiring.switched', { account: accountName(account) }))
  }
  await router.push(targetRoute(target))
}

/** After start, before the first check: the first screen has painted by then. */
const FIRST_CHECK_DELAY_MS = 2000

/** For the app's root component: checks once the accounts are known, then hourly; opens clicked reminders. */
export function useReminders(): void {
  const accounts = useAccountsStore()
  // The app's router, from the root component: importing it would make a cycle through every
  // screen (the reminder settings on Accounts check reminders too).
  const router = useRouter()
  let timer: ReturnType<typeof setInterval> | undefined
  let first: ReturnType<typeof setTimeout> | undefined
  // The wording needs the accounts' names: the first check waits for the list, and then a
  // moment more: main reads every account's stored lists for it, which would hold up the first
  // screen's paint from the store.
  const stopWaiting = watch(
    () => accounts.accounts.length > 0,
    (known) => {
      if (!known || timer) return
      first = setTimeout(() => void checkReminders(), FIRST_CHECK_DELAY_MS)
      timer = setInterval(() => void checkReminders(), HOUR_MS)
    },
    { immediate: true },
  )
  const stopListening = onReminderOpen((target) => void open(router, target))
  onUnmounted(() => {
    stopWaiting()
    stopListening()
    if (timer) clearInterval(timer)
    if (first) clearTimeout(first)
  })
}
