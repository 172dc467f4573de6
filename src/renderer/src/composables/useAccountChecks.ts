/**
 * Every account-wide list read again now (store.refreshAccount), rather than as each screen is
 * opened, so what changed outside this app shows at once: of the current account, or of every
 * account at once (each is read under its own key's rate limit, main pacing each account's client
 * on its own, so ten accounts take about as long as one). Each read can be stopped while it runs.
 */
import { computed, ref, type Ref } from 'vue'
import { cancelCall, invoke, newCallId, type ErrorData } from '../data/bridge'
import { useAccountsStore } from '../stores/accounts'
import { accountName } from '../lib/text/account-text'

type Checked = { read: number; drift: number; failed: { list: string; error: ErrorData }[] }
type AccountCheck = { accountId: string; name: string; callId: string; result?: Checked; error?: ErrorData }

/** The current account's failure goes to the screen's error; `afterwards` runs once a check has ended. */
export function useAccountChecks(
  accountId: string,
  error: Ref<ErrorData | undefined>,
  afterwards: () => Promise<void>,
) {
  const accounts = useAccountsStore()
  /** The call id of the current account's check under way. */
  const checking = ref<string>()
  const checked = ref<Checked>()

  async function checkNow() {
    if (checking.value) return
    const callId = newCallId()
    checking.value = callId
    checked.value = undefined
    error.value = undefined
    const r = await invoke('store.refreshAccount', { accountId, callId })
    checking.value = undefined
    if (!r.ok) return void (error.value = r.error)
    checked.value = r.value
    await afterwards()
  }
  function stopChecking() {
    if (checking.value) void cancelCall(checking.value)
  }

  const checkingAll = ref(false)
  const allChecks = ref<AccountCheck[]>([])
  const allDone = computed(() => allChecks.value.filter((c) => c.result || c.error).length)
  async function checkEveryAccount() {
    if (checkingAll.value || checking.value) return
    checkingAll.value = true
    allChecks.value = accounts.accounts.map((a) => ({ accountId: a.id, name: accountName(a), callId: newCallId() }))
    await Promise.all(
      allChecks.value.map(async (c, i) => {
        const r = await invoke('store.refreshAccount', { accountId: c.accountId, callId: c.callId })
        const next = [...allChecks.value]
        next[i] = r.ok ? { ...c, result: r.value } : { ...c, error: r.error }
        allChecks.value = next
      }),
    )
    checkingAll.value = false
    await afterwards()
  }
  function stopCheckingAll() {
    for (const c of allChecks.value) if (!c.result && !c.error) void cancelCall(c.callId)
  }

  return {
    checking,
    checked,
    checkNow,
    stopChecking,
    checkingAll,
    allChecks,
    allDone,
    checkEveryAccount,
    stopCheckingAll,
  }
}
