/**
 * Unsaved edits, per account and target, kept while the window is open: a zone editor or a
 * form (nameservers, WHOIS, DNSSEC, and the smaller forms of plain fields) left for another screen (to replace a key, to look something up)
 * offers its edit back when it opens again, until it is saved or discarded. In memory only:
 * records and contacts are the service's data, and an edit is not meant to outlive the window.
 * A secret (an API key, a transfer code, a dynamic DNS password) is never kept, even here.
 */
import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import type { ContactForm } from '../lib/data/contact-form'
import type { DsInput } from '../lib/data/ds-record'
import type { ChangeDraft } from '../lib/data/bulk-dns'

export interface ZoneDraft {
  records: string
  ttl: number | undefined
  nsType: string | undefined
  /** When it was last changed (ISO). */
  at: string
}

export const draftKeyOf = (accountId: string, kind: 'dns' | 'freedns', zone: string) =>
  `${accountId}|${kind}|${zone.toLowerCase()}`

/** The forms of plain fields (text, numbers, flags) kept by composables/useFieldsDraft.ts. */
export type FieldsForm =
  | 'serverResource'
  | 'serverCreate'
  | 'svcipSettings'
  | 'privateNameserver'
  | 'ownerChange'
  | 'dynamicDns'
  | 'register'
  | 'transferIn'
  | 'freeDnsRegister'
  | 'addAccount'
export type FieldValues = Readonly<Record<string, string | number | boolean>>

/** An unsaved form, by the form it belongs to. */
export type FormDraftValue =
  | { form: 'nameservers'; text: string }
  | { form: 'whois'; proxy: boolean; contact: ContactForm }
  | { form: 'dnssec'; records: DsInput[] }
  | { form: FieldsForm; fields: FieldValues; contact?: ContactForm }
  /** The bulk DNS change being prepared: its accounts, its zones (their keys) and the change; plans are built again. */
  | { form: 'bulkDns'; accounts: string[]; zones: string[]; change: ChangeDraft }
export interface FormDraft {
  value: FormDraftValue
  /** When it was last changed (ISO). */
  at: string
}
export const formDraftKeyOf = (accountId: string, form: FormDraftValue['form'], target: string) =>
  `${accountId}|${form}|${target.toLowerCase()}`

/** Drafts by key, replaced as a whole map on each change (a shallow ref: screens react to keep and drop). */
function draftMap<T>() {
  const map = shallowRef<ReadonlyMap<string, T>>(new Map())
  return {
    map,
    keep(key: string, draft: T) {
      map.value = new Map(map.value).set(key, draft)
    },
    drop(key: string) {
      if (!map.value.has(key)) return
      const next = new Map(map.value)
      next.delete(key)
      map.value = next
    },
    get: (key: string) => map.value.get(key),
  }
}

export const useDraftsStore = defineStore('drafts', () => {
  const zones = draftMap<ZoneDraft>()
  const forms = draftMap<FormDraft>()
  return {
    zones: zones.map,
    keep: zones.keep,
    drop: zones.drop,
    get: zones.get,
    forms: forms.map,
    keepForm: (key: string, value: FormDraftValue) => forms.keep(key, { value, at: new Date().toISOString() }),
    dropForm: forms.drop,
    getForm: forms.get,
  }
})
