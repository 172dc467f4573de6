/**
 * The whole portfolio as files, from what the app last read of every account (main's store):
 * the domains as CSV, every zone as BIND text. A failure is kept in the error (a screen may pass
 * its own, for one banner); a success leaves it as it was.
 */
import { ref, type Ref } from 'vue'
import { invoke, type ErrorData } from '../data/bridge'
import type { ZoneFile } from '@shared/portfolio'

export function usePortfolioExports(error: Ref<ErrorData | undefined> = ref()) {
  async function domainsCsv(): Promise<string | undefined> {
    const r = await invoke('store.exportCsv', {})
    if (!r.ok) return void (error.value = r.error)
    return r.value
  }

  async function zoneFiles(): Promise<ZoneFile[] | undefined> {
    const r = await invoke('store.exportZones', {})
    if (!r.ok) return void (error.value = r.error)
    return r.value
  }

  return { domainsCsv, zoneFiles, error }
}
