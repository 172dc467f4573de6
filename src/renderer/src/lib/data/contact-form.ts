import { CONTACT_FIELDS, CONTACT_ROLES, type ContactRole } from '@shared/service/constants'
import { z } from 'zod'
import { contactFieldIssues, type ContactCode } from '@shared/service/validation'

/** One contact of a form: every field as text. */
export type Person = Record<(typeof CONTACT_FIELDS)[number], string>
/** The four WHOIS contacts as the forms edit them. */
export type ContactForm = Record<ContactRole, Person>

/** The roles that can be "same as registrant", and whether each is. */
export const COPY_ROLES = ['admin', 'tech', 'billing'] as const
export type SameAsRegistrant = Record<(typeof COPY_ROLES)[number], boolean>

// The record schemas check that every field and every role is there, which Object.fromEntries
// alone cannot tell the compiler.
const personSchema = z.record(z.enum(CONTACT_FIELDS), z.string())
const contactSchema = z.record(z.enum(CONTACT_ROLES), personSchema)

function emptyPerson(): Person {
  return personSchema.parse(Object.fromEntries(CONTACT_FIELDS.map((f) => [f, ''])))
}
export function emptyContact(): ContactForm {
  return contactSchema.parse(Object.fromEntries(CONTACT_ROLES.map((r) => [r, emptyPerson()])))
}

/** Roles that hold exactly the registrant's data start as "same as registrant". */
export function sameAsRegistrantOf(c: ContactForm): SameAsRegistrant {
  const same = (role: (typeof COPY_ROLES)[number]) =>
    CONTACT_FIELDS.every((f) => (c[role][f] ?? '') === (c.registrant[f] ?? ''))
  return { admin: same('admin'), tech: same('tech'), billing: same('billing') }
}

/**
 * The problems of the fields on screen, keyed "role.field". A role shown as "same as registrant"
 * has no fields of its own on screen (it is a copy of the registrant's), so its copies of the
 * registrant's problems are not counted again.
 */
export function shownContactIssues(c: ContactForm, sameAs?: SameAsRegistrant): Record<string, ContactCode> {
  const all = contactFieldIssues(c)
  if (!sameAs) return all
  return Object.fromEntries(
    Object.entries(all).filter(([path]) => {
      const role = path.slice(0, path.indexOf('.'))
      return !(role === 'admin' || role === 'tech' || role === 'billing') || !sameAs[role]
    }),
  )
}

/** How many fields need attention: those on screen when `sameAs` is given, else every role's. */
export function contactIssueCount(c: ContactForm, sameAs?: SameAsRegistrant): number {
  return Object.keys(shownContactIssues(c, sameAs)).length
}
