/**
 * Unsaved zone edits, per account and zone, kept while the window is open: an editor left for
 * another screen (to replace a key, to look something up) offers its edit back when it opens
 * again, until it is saved or discarded. In memory only: zone records are the service's data,
 * and an edit is not meant to outlive the window.
 */
import { defineStore } from 'pinia'
import { shallowRef } from 'vue'

export interface ZoneDraft {
  records: string
  ttl: number | undefined
  nsType: string | undefined
  /** When it was last changed (ISO). */
  at: string
}

export const draftKeyOf = (accountId: string, kind: 'dns' | 'freedns', zone: string) => `${accountId}|${kind}|${zone.toLowerCase()}`

export const useDraftsStore = defineStore('drafts', () => {
  const zones = shallowRef<ReadonlyMap<string, ZoneDraft>>(new Map())
  function keep(key: string, draft: ZoneDraft) {
    const next = new Map(zones.value)
    next.set(key, draft)
    zones.value = next
  }
  function drop(key: string) {
    if (!zones.value.has(key)) return
    const next = new Map(zones.value)
    next.delete(key)
    zones.value = next
  }
  const get = (key: string) => zones.value.get(key)
  return { zones, keep, drop, get }
})
