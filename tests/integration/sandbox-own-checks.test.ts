/**
 * The sandbox checks the values inside a request with its own rules, written from what the
 * service documents (API-SPEC.md, "Contact") and the standards, never with the app's own
 * validators (src/shared/service/validation). Where the two differ the sandbox answers as the
 * documentation says: a contact in the documented form, with fields the spec does not require
 * left out, is taken although the app's own check refuses it; what the documentation rules out
 * is still refused with 400. Real HTTP over loopback to the sandbox.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { checkDsRecord, firstContactIssue } from '@shared/service/validation'
import { startSandbox, type Sandbox } from '../../src/sandbox'

let sb: Sandbox
beforeEach(async () => {
  sb = await startSandbox({ domains: 1 })
})
afterEach(() => sb.close())

async function put(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${sb.url}${path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${sb.keys.full}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: await res.json() }
}
const errorMessage = (body: unknown): string =>
  z.object({ errors: z.object({ message: z.string() }) }).parse(body).errors.message

/** A person in the spec's documented form: ASCII text, phone as +<country code>.<number>. */
const person = {
  firstname: 'Hanako',
  lastname: 'Yamada',
  country: 'JP',
  address1: '1-2-3 Chiyoda',
  phone: '+81.312345678',
}

describe('contacts as the spec documents them', () => {
  it('accepts a phone in the documented form +<country code>.<number> and a role without the fields the spec does not require, which the app’s own check refuses', async () => {
    const domain = sb.state.domains[0]!.domainname
    // "+1.555" has the documented form; the spec gives no length, the app wants 4 to 14 digits.
    // The billing role names only a first name: "which member fields are required: not shown".
    const contact = {
      registrant: { ...person, phone: '+1.555' },
      admin: person,
      tech: person,
      billing: { firstname: 'Hanako' },
    }
    expect(firstContactIssue(contact)).toBeDefined()
    const got = await put('/domains/whois', { domain, contact })
    expect(got.status).toBe(200)
    expect(sb.state.domains[0]!.contact.registrant.phone).toBe('+1.555')
    expect(sb.state.domains[0]!.contact.billing).toMatchObject({ firstname: 'Hanako', lastname: '', address1: '' })
  })

  it('still refuses what the spec rules out: a phone in another form, text that is not alphabetic', async () => {
    const domain = sb.state.domains[0]!.domainname
    const before = structuredClone(sb.state.domains[0]!.contact)
    const badPhone = await put('/domains/whois', {
      domain,
      contact: { registrant: { ...person, phone: '03-1234-5678' }, admin: person, tech: person, billing: person },
    })
    expect(badPhone.status).toBe(400)
    expect(errorMessage(badPhone.body)).toContain('registrant.phone')
    const kana = await put('/domains/whois', {
      domain,
      contact: { registrant: person, admin: person, tech: { ...person, city: '千代田区' }, billing: person },
    })
    expect(kana.status).toBe(400)
    expect(errorMessage(kana.body)).toContain('tech.city')
    expect(sb.state.domains[0]!.contact).toEqual(before)
  })
})

describe('DS records as the DNS holds them', () => {
  it('takes a digest whose length the app ties to its type (not documented by the service), and refuses one that is not hexadecimal', async () => {
    const domain = sb.state.domains[0]!.domainname
    const short = { keytag: 2371, alg: 13, digesttype: 2, digest: 'ABCDEF0123' }
    expect(checkDsRecord(short)).toBeDefined()
    expect((await put(`/domains/${domain}/dnssec`, { ds_records: [short] })).status).toBe(200)
    expect(sb.state.domains[0]!.ds).toEqual([short])
    const notHex = await put(`/domains/${domain}/dnssec`, { ds_records: [{ ...short, digest: 'XYZ0' }] })
    expect(notHex.status).toBe(400)
    expect(sb.state.domains[0]!.ds).toEqual([short])
  })
})
