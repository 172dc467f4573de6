/**
 * The smaller forms' unsaved edits (a server's resource, a service IP's settings, a private
 * nameserver, an owner change, dynamic DNS, the register and transfer-in wizards, a new account):
 * the named fields of a reactive form kept and offered back through useFormDraft. Only the
 * fields named are kept, so a secret (an API key, a transfer code, a password) is never one of
 * them.
 */
import { toRaw, type Ref } from 'vue'
import { useFormDraft } from './useFormDraft'
import type { ContactForm } from '../lib/data/contact-form'
import type { FieldValues, FieldsForm, FormDraftValue } from '../stores/drafts'

type Field = string | number | boolean

export interface FieldsDraftOptions<K extends string> {
  /** The fields kept: never a secret. */
  fields: readonly K[]
  /** The form as it starts (what was read, or the empty form); undefined until it is known. */
  loaded: () => Readonly<Record<K, Field>> | undefined
  /** A wizard's contacts, kept with its fields (in memory only, as the WHOIS form's are). */
  contact?: { current: Ref<ContactForm>; loaded: () => ContactForm }
  /** After a kept edit is put back: for what follows from the fields (a choice the user made). */
  applied?: () => void
}

const pick = <K extends string>(from: Readonly<Record<K, Field>>, fields: readonly K[]): FieldValues =>
  Object.fromEntries(fields.map((k) => [k, from[k]]))
const norm = (v: Field | undefined) => (typeof v === 'string' ? v.trim() : v)

export function useFieldsDraft<K extends string>(
  key: string,
  form: FieldsForm,
  target: Record<K, Field>,
  opts: FieldsDraftOptions<K>,
) {
  type V = { form: FieldsForm; fields: FieldValues; contact?: ContactForm }
  const contact = opts.contact
  // A plain copy: the kept value must not follow the form's later edits.
  const withContact = (fields: FieldValues, c: ContactForm | undefined): V =>
    contact && c ? { form, fields, contact: structuredClone(c) } : { form, fields }
  return useFormDraft<V>(key, {
    narrow: (v: FormDraftValue) => (v.form === form && 'fields' in v ? v : undefined),
    loaded: () => {
      const start = opts.loaded()
      return start ? withContact(pick(start, opts.fields), contact?.loaded()) : undefined
    },
    current: () =>
      opts.loaded()
        ? withContact(pick(target, opts.fields), contact ? toRaw(contact.current.value) : undefined)
        : undefined,
    track: () => [opts.fields.map((k) => target[k]), contact?.current.value],
    same: (a, b) =>
      opts.fields.every((k) => norm(a.fields[k]) === norm(b.fields[k])) &&
      JSON.stringify(a.contact) === JSON.stringify(b.contact),
    apply: (v) => {
      // A kept value of another type than the field's (a form changed since) is left out.
      for (const k of opts.fields) {
        const kept = v.fields[k]
        if (kept !== undefined && typeof kept === typeof target[k]) target[k] = kept
      }
      if (contact && v.contact) contact.current.value = structuredClone(v.contact)
      opts.applied?.()
    },
  })
}
