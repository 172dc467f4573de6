/**
 * What the bulk DNS screen asks of main: the zones the portfolio store holds (loaded when the
 * screen opens), the chosen accounts' DNS and free DNS lists read again, the zones whose records
 * hold a value, one zone read afresh for its plan, and one account's jobs prepared.
 */
import { onMounted, ref, shallowRef, type Ref } from 'vue'
import type { ZoneSummary } from '@shared/portfolio'
import { invoke, type ErrorData } from '../data/bridge'
import { accountApi } from '../data/account-api'
import { zoneKey, type AccountJobs, type ReadZone } from '../lib/data/bulk-dns'

export function useBulkDns(chosenAccounts: Ref<readonly string[]>) {
  const zones = shallowRef<ZoneSummary[]>([])
  const zonesError = ref<ErrorData>()
  const readingLists = ref(false)

  async function loadZones() {
    const r = await invoke('store.zones', {})
    if (!r.ok) return void (zonesError.value = r.error)
    zonesError.value = undefined
    zones.value = r.value
  }
  onMounted(loadZones)

  /** Reads the DNS and free DNS lists of the chosen accounts: the store keeps every zone they hold. */
  async function readLists() {
    readingLists.value = true
    zonesError.value = undefined
    try {
      const results = await Promise.all(
        chosenAccounts.value.flatMap((id) => {
          const api = accountApi(id)
          return [api.listAll('domains.dns.list', {}), api.listAll('freedns.list', {})]
        }),
      )
      const failed = results.find((r) => !r.ok)
      if (failed && !failed.ok) zonesError.value = failed.error
      await loadZones()
    } finally {
      readingLists.value = false
    }
  }

  /** The keys of the chosen accounts' zones whose records hold the value (from the store); undefined when it could not say. */
  async function zonesContaining(value: string): Promise<string[] | undefined> {
    const r = await invoke('store.zones', { containing: value })
    if (!r.ok) return void (zonesError.value = r.error)
    zonesError.value = undefined
    const chosen = new Set(chosenAccounts.value)
    return r.value.filter((z) => chosen.has(z.accountId)).map(zoneKey)
  }

  const readZone: ReadZone = async (zone, signal) => {
    const api = accountApi(zone.accountId)
    if (zone.kind === 'dns') {
      const r = await api.call('domains.dns.get', { domain: zone.domain }, { signal })
      return r.ok
        ? { ok: true, value: { kind: 'dns', records: r.value.records, ttl: r.value.ttl, ns_type: r.value.ns_type } }
        : r
    }
    const r = await api.call('freedns.get', { domain: zone.domain }, { signal })
    return r.ok ? { ok: true, value: { kind: 'freedns', records: r.value.records, ttl: r.value.ttl } } : r
  }

  /** One account's jobs as main prepares them: its DNS zones in one, its free DNS zones in another (none for no zones). */
  function prepareSteps(a: AccountJobs) {
    const api = accountApi(a.accountId)
    return [
      a.dns.length ? () => api.prepare('domains.dns.set', a.dns, { purpose: 'bulk-dns' }) : undefined,
      a.freedns.length ? () => api.prepare('freedns.set', a.freedns, { purpose: 'bulk-dns' }) : undefined,
    ]
  }

  return { zones, zonesError, readingLists, loadZones, readLists, zonesContaining, readZone, prepareSteps }
}
