/**
 * Unsaved edits, per account and target, kept while the window is open: a zone editor or a
 * form (nameservers, WHOIS) left for another screen (to replace a key, to look something up)
 * offers its edit back when it opens again, until it is saved or discarded. In memory only:
 * records and contacts are the service's data, and an edit is not meant to outlive the window.
 */
import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import type { ContactForm } from '../lib/contact-form'
import type { DsInput } from '../lib/ds-record'

export interface ZoneDraft {
  records: string
  ttl: number | undefined
  nsType: string | undefined
  /** When it was last changed (ISO). */
  at: string
}

export const draftKeyOf = (accountId: string, kind: 'dns' | 'freedns', zone: string) => `${accountId}|${kind}|${zone.toLowerCase()}`

/** An unsaved form, by the form it belongs to. */
export type FormDraftValue = { form: 'nameservers'; text: string } | { form: 'whois'; proxy: boolean; contact: ContactForm } | { form: 'dnssec'; records: DsInput[] }
export interface FormDraft {
  value: FormDraftValue
  /** When it was last changed (ISO). */
  at: string
}
export const formDraftKeyOf = (accountId: string, form: FormDraftValue['form'], target: string) => `${accountId}|${form}|${target.toLowerCase()}`

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

  const forms = shallowRef<ReadonlyMap<string, FormDraft>>(new Map())
  function keepForm(key: string, value: FormDraftValue) {
    const next = new Map(forms.value)
    next.set(key, { value, at: new Date().toISOString() })
    forms.value = next
  }
  function dropForm(key: string) {
    if (!forms.value.has(key)) return
    const next = new Map(forms.value)
    next.delete(key)
    forms.value = next
  }
  const getForm = (key: string) => forms.value.get(key)
  return { zones, keep, drop, get, forms, keepForm, dropForm, getForm }
})
