/**
 * The search across every account's stored lists (main's portfolio store), for the command
 * palette: only the answer to the latest text counts, an older one arriving late is dropped.
 */
import { ref } from 'vue'
import { invoke } from '../data/bridge'
import type { SearchHit } from '@shared/portfolio'

export function usePortfolioSearch() {
  const hits = ref<SearchHit[]>([])
  let asked = 0
  /** Searches for the text (fewer than 2 characters finds nothing); true when this answer is the latest. */
  async function search(text: string): Promise<boolean> {
    const mine = ++asked
    if (text.length < 2) {
      hits.value = []
      return true
    }
    const r = await invoke('store.search', { query: text })
    if (mine !== asked) return false
    hits.value = r.ok ? r.value : []
    return true
  }
  return { hits, search }
}
