/**
 * Served against saved from the window (main's `dns.served`: each delegated nameserver asked
 * directly): one zone, or every zone of a list a few at a time, with progress and cancel.
 */
import { reactive, ref } from 'vue'
import { cancelCall, invoke, newCallId, type ErrorData } from '../data/bridge'
import type { ServedReport } from '@shared/dns/health/served'

/** A zone's state in a check: not asked, being asked, its report, or why it could not be. */
export type ServedState = { state: 'checking' } | { state: 'done'; report: ServedReport } | { state: 'failed'; error: ErrorData }

/** Zones compared at once: each asks its nameservers in parallel already (as the command line does). */
const ZONES_AT_ONCE = 3

export function useServedCheck(accountId: () => string) {
  const byDomain = reactive(new Map<string, ServedState>())
  const running = ref(false)
  const progress = reactive({ done: 0, total: 0 })
  const inFlight = new Set<string>()
  let stopped = false

  /** Whether the zone was compared (or its comparison failed); false when it was cancelled. */
  async function checkOne(domain: string): Promise<boolean> {
    const callId = newCallId()
    inFlight.add(callId)
    byDomain.set(domain, { state: 'checking' })
    try {
      const r = await invoke('dns.served', { accountId: accountId(), domain, callId })
      if (r.ok) byDomain.set(domain, { state: 'done', report: r.value })
      else if (stopped && r.error.kind === 'cancelled') {
        byDomain.delete(domain)
        return false
      } else byDomain.set(domain, { state: 'failed', error: r.error })
      return true
    } finally {
      inFlight.delete(callId)
    }
  }

  /** Every zone given, a few at a time; Cancel stops the ones asked and starts no more. */
  async function checkAll(domains: readonly string[]): Promise<void> {
    if (running.value) return
    stopped = false
    running.value = true
    progress.done = 0
    progress.total = domains.length
    let next = 0
    const worker = async () => {
      while (!stopped && next < domains.length) {
        const domain = domains[next++]
        if (domain === undefined) continue
        // A zone cancelled on its way is not counted as compared.
        if (await checkOne(domain)) progress.done++
      }
    }
    try {
      await Promise.all(Array.from({ length: Math.min(ZONES_AT_ONCE, domains.length) }, worker))
    } finally {
      running.value = false
    }
  }

  async function cancel(): Promise<void> {
    stopped = true
    await Promise.all([...inFlight].map((id) => cancelCall(id)))
  }

  return { byDomain, running, progress, checkOne, checkAll, cancel }
}
