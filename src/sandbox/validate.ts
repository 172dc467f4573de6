/**
 * The sandbox's own checks of values inside a request, beyond the kinds of value its request
 * model (operations.ts) checks. Each is written from what the service documents (API-SPEC.md)
 * or, where it documents nothing, from the Internet standard the value must meet to work at all
 * (host names, IP addresses, the DS record's fields); where neither says, the sandbox accepts
 * rather than guess a stricter rule (tests/fixtures/live/README.md lists which is which). Never
 * the app's own validators (src/shared/service/validation): a stand-in that borrowed them could
 * never disagree with the app. The words are the sandbox's own, standing for the service's
 * messages, which the app shows as they come. Records are checked in records.ts.
 */
import { isIPv4 as netIsIPv4, isIPv6 as netIsIPv6 } from 'node:net'
import type { ContactRole } from '@shared/service/spec-words'

/**
 * A host name as DNS carries it (RFC 1123 section 2.1, RFC 1035 section 2.3.4): labels of
 * letters, digits and hyphens, 1 to 63 long, not starting or ending with a hyphen, 253
 * characters at most; a final dot allowed. The service documents none of this for nameservers,
 * domain names or private nameservers; a name outside it cannot be delegated to or looked up.
 */
export function isHostName(name: string): boolean {
  const bare = name.endsWith('.') ? name.slice(0, -1) : name
  if (bare.length < 1 || bare.length > 253) return false
  return bare.split('.').every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(label))
}

/** An address as the Internet writes it (Node's own parser of RFC 791 / RFC 4291 text). */
export const isIPv4Address = (s: string): boolean => netIsIPv4(s)
export const isIPv6Address = (s: string): boolean => netIsIPv6(s)

/**
 * A name to register or check: a host name of at least two labels, split at the first dot
 * into the spec's `sld` and `tld` (POST /domains takes them apart). Which TLDs the service
 * sells is not documented, so any is taken.
 */
export function splitRegistrable(name: string): { sld: string; tld: string } | undefined {
  // A final dot names the same domain (the root's), so it is taken and left out.
  const n = name.trim().toLowerCase().replace(/\.$/, '')
  if (!isHostName(n) || !n.includes('.')) return undefined
  const i = n.indexOf('.')
  return { sld: n.slice(0, i), tld: n.slice(i + 1) }
}

/** A contact as a request carries it: four roles, each of optional text fields. */
export type ContactInput = Readonly<Record<ContactRole, Readonly<Record<string, string | undefined>>>>

/**
 * What the spec documents of contact data (section "Contact"), and only that: "entered in
 * alphabetic characters" (taken as printable ASCII, spaces and punctuation of an address
 * included), and phone and fax "take the form +<country code>.<number>". Which fields are
 * required is "not shown", and so is the form of the country, so the sandbox requires none and
 * takes any country text.
 */
export function checkContact(contact: ContactInput): string | undefined {
  for (const [role, person] of Object.entries(contact)) {
    for (const [field, value] of Object.entries(person)) {
      if (value === undefined || value === '') continue
      if (!/^[\x20-\x7e]*$/.test(value))
        return `Invalid contact ${role}.${field}: contact data is entered in alphabetic characters.`
      if ((field === 'phone' || field === 'fax') && !/^\+\d+\.\d+$/.test(value)) {
        return `Invalid contact ${role}.${field}: the form is +<country code>.<number>.`
      }
    }
  }
  return undefined
}

/**
 * A DS record as the DNS can hold it (RFC 4034 section 5): a 16-bit key tag, an 8-bit
 * algorithm and digest type, the digest in hexadecimal. Which algorithms and digest types the
 * service takes, and whether it checks a digest's length against its type, is not documented,
 * so the sandbox does not.
 */
export function checkDs(r: { keytag: number; alg: number; digesttype: number; digest: string }): string | undefined {
  if (r.keytag > 65535) return 'Invalid DS record: keytag is 0 to 65535.'
  if (r.alg > 255) return 'Invalid DS record: alg is 0 to 255.'
  if (r.digesttype > 255) return 'Invalid DS record: digesttype is 0 to 255.'
  if (!/^([0-9a-f]{2})+$/i.test(r.digest)) return 'Invalid DS record: the digest is hexadecimal.'
  return undefined
}
