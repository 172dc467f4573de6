import { CONTACT_FIELDS, CONTACT_ROLES } from '../../../shared/constants'
import { contactFieldIssues, type ContactLike } from '../../../shared/validation'
import type { ContactForm, Person } from '../components/ContactEditor.vue'

export function emptyPerson(): Person {
  return Object.fromEntries(CONTACT_FIELDS.map((f) => [f, ''])) as Person
}
export function emptyContact(): ContactForm {
  return Object.fromEntries(CONTACT_ROLES.map((r) => [r, emptyPerson()])) as ContactForm
}
export function contactIssueCount(c: ContactForm): number {
  return Object.keys(contactFieldIssues(c as ContactLike)).length
}
