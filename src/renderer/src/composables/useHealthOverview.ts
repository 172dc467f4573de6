/**
 * The zone health dashboard's data: the findings across the given accounts from the records as
 * last read (main's portfolio store), and "read every zone now": each account's lists read again,
 * each under its own key's rate limit (main paces each account's client), the DNS lists among them.
 */
import { computed, ref } from 'vue'
import { cancelCall, invoke, newCallId, type ErrorData } from '../data/bridge'
import type { HealthOverview } from '@shared/portfolio'

type Reading = { accountId: string; callId: string; done: boolean; error?: ErrorData | undefined }

export function useHealthOverview(accountIds: () => string[]) {
  const overview = ref<HealthOverview>()
  const error = ref<ErrorData>()
  async function load() {
    const r = await invoke('store.health', { accountIds: accountIds() })
    if (r.ok) overview.value = r.value
    else error.value = r.error
  }

  const reading = ref<Reading[]>([])
  const readingNow = computed(() => reading.value.some((r) => !r.done))
  const readDone = computed(() => reading.value.filter((r) => r.done).length)
  const readFailures = computed(() => reading.value.filter((r) => r.error))
  async function readEveryZone() {
    if (readingNow.value) return
    reading.value = accountIds().map((accountId) => ({ accountId, callId: newCallId(), done: false }))
    await Promise.all(
      reading.value.map(async (c, i) => {
        const r = await invoke('store.refreshAccount', { accountId: c.accountId, callId: c.callId })
        const failed = r.ok
          ? r.value.failed.find((f) => f.list === 'domains.dns.list' || f.list === 'freedns.list')?.error
          : r.error
        const next = [...reading.value]
        next[i] = { ...c, done: true, error: failed?.kind === 'cancelled' ? undefined : failed }
        reading.value = next
      }),
    )
    await load()
  }
  function cancelReading() {
    for (const c of reading.value) if (!c.done) void cancelCall(c.callId)
  }
  return { overview, error, load, reading, readingNow, readDone, readFailures, readEveryZone, cancelReading }
}
