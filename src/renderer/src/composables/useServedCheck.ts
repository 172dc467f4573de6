/**
 * Served against saved from the window (main's `dns.served`: each delegated nameserver asked
 * directly): one zone, or every zone of a list a few at a time, with progress and cancel. Each
 * zone's last comparison is kept by main's store and read back here (`store.served`), so the
 * outcome and its time survive a reload; every screen of the window shares what is known.
 */
import { reactive, ref } from 'vue'
import { cancelCall, invoke, newCallId, type ErrorData } from '../data/bridge'
import type { ServedResult } from '@shared/dns/health/served'

/** A zone's state: being asked (with its last comparison, if any), its comparison, or why it could not be asked. */
export type ServedState =
  | { state: 'checking'; last?: ServedResult | undefined }
  | { state: 'done'; result: ServedResult }
  | { state: 'failed'; error: ErrorData }

/** Zones compared at once: each asks its nameservers in parallel already (as the command line does). */
const ZONES_AT_ONCE = 3

/** Every account's zones' states, shared by the screens (keyed by account, then domain). */
const known = reactive(new Map<string, Map<string, ServedState>>())
const loaded = new Set<string>()

/** The last comparison of a state: the one done, or the one before a comparison under way. */
export const lastResult = (s: ServedState | undefined): ServedResult | undefined =>
  s?.state === 'done' ? s.result : s?.state === 'checking' ? s.last : undefined

export function useServedCheck(accountId: () => string) {
  const byDomainOf = (id: string) => {
    let m = known.get(id)
    if (!m) {
      m = new Map()
      known.set(id, m)
      m = known.get(id) ?? m
    }
    return m
  }
  const byDomain = {
    get: (domain: string) => byDomainOf(accountId()).get(domain),
  }
  const running = ref(false)
  const progress = reactive({ done: 0, total: 0 })
  const inFlight = new Set<string>()
  let stopped = false

  /** The comparisons kept in the store, read once per account per window. */
  async function loadKept(): Promise<void> {
    const id = accountId()
    if (loaded.has(id)) return
    loaded.add(id)
    const r = await invoke('store.served', { accountId: id })
    if (!r.ok) return void loaded.delete(id)
    const m = byDomainOf(id)
    for (const result of r.value) if (!m.has(result.domain)) m.set(result.domain, { state: 'done', result })
  }
  void loadKept()

  /** Whether the zone was compared (or its comparison failed); false when it was cancelled. */
  async function checkOne(domain: string): Promise<boolean> {
    const id = accountId()
    const m = byDomainOf(id)
    const callId = newCallId()
    inFlight.add(callId)
    const last = lastResult(m.get(domain))
    m.set(domain, { state: 'checking', last })
    try {
      const r = await invoke('dns.served', { accountId: id, domain, callId })
      if (r.ok) m.set(domain, { state: 'done', result: r.value })
      else if (stopped && r.error.kind === 'cancelled') {
        if (last) m.set(domain, { state: 'done', result: last })
        else m.delete(domain)
        return false
      } else m.set(domain, { state: 'failed', error: r.error })
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
