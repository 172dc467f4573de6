/** Counting the contact fields to fix: the fields on screen, not the hidden "same as registrant" copies. */
import { describe, expect, it } from 'vitest'
import {
  contactIssueCount,
  emptyContact,
  sameAsRegistrantOf,
  shownContactIssues,
} from '../../src/renderer/src/lib/data/contact-form'

const person = {
  firstname: 'Yuki',
  lastname: 'Sato',
  organization: '',
  country: 'JP',
  postalcode: '',
  state: '',
  city: 'Chiyoda',
  address1: '1-1',
  address2: '',
  phone: '+81.312345678',
  fax: '',
}

describe('contact issues', () => {
  it('a registrant problem copied to three hidden roles counts once', () => {
    const c = {
      registrant: { ...person, phone: '03-1234' },
      admin: { ...person, phone: '03-1234' },
      tech: { ...person, phone: '03-1234' },
      billing: { ...person, phone: '03-1234' },
    }
    const same = sameAsRegistrantOf(c)
    expect(same).toEqual({ admin: true, tech: true, billing: true })
    expect(contactIssueCount(c)).toBe(4)
    expect(contactIssueCount(c, same)).toBe(1)
    expect(Object.keys(shownContactIssues(c, same))).toEqual(['registrant.phone'])
    // Admin shown on its own: its copy is on screen, and counted.
    expect(contactIssueCount(c, { ...same, admin: false })).toBe(2)
  })

  it('roles that differ from the registrant are not "same as registrant"', () => {
    const c = { registrant: person, admin: { ...person, lastname: 'Ito' }, tech: person, billing: person }
    expect(sameAsRegistrantOf(c)).toEqual({ admin: false, tech: true, billing: true })
  })

  it('an empty contact: the registrant’s required fields, once', () => {
    const c = emptyContact()
    expect(contactIssueCount(c, sameAsRegistrantOf(c))).toBe(5)
  })
})
