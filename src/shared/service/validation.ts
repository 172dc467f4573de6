/**
 * Validation rules shared by the renderer's forms and the sandbox: host names, IP
 * addresses, WHOIS contacts, DS digests. Each check returns a code (with parameters) that
 * the renderer puts into words a person can act on, or undefined when the value is fine.
 */
import { CONTACT_FIELDS, CONTACT_ROLES } from './constants'
import type { MessageParams } from '../errors'

export const CONTACT_CODES = ['contact.alphabetic', 'contact.required', 'contact.country', 'contact.phone'] as const
export type ContactCode = (typeof CONTACT_CODES)[number]
export const DS_CODES = ['ds.keytag', 'ds.alg', 'ds.digestType', 'ds.digestHex', 'ds.digestLength'] as const
export type DsCode = (typeof DS_CODES)[number]

/** A rule's verdict: what is wrong, as a catalogue code with its parameters. */
export interface Finding<C extends string = string> {
  code: C
  params?: MessageParams | undefined
}

export const HOSTNAME = /^(?=.{1,253}\.?$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?$/i
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

export function isIPv4(s: string): boolean {
  return IPV4.test(s)
}

/** The groups of one side of an IPv6 address's `::` (module-level: no closure made per address checked). */
const ipv6Groups = (p: string) => (p === '' ? [] : p.split(':'))
const IPV6_GROUP = /^[0-9a-f]{1,4}$/i
const isIPv6Group = (g: string) => IPV6_GROUP.test(g)

export function isIPv6(s: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(s) || !s.includes(':')) return false
  const parts = s.split('::')
  if (parts.length > 2) return false
  const head = ipv6Groups(parts[0] ?? '')
  const tail = parts.length === 2 ? ipv6Groups(parts[1] ?? '') : []
  const all = [...head, ...tail]
  const last = all[all.length - 1]
  let count = all.length
  if (last !== undefined && last.includes('.')) {
    if (!isIPv4(last)) return false
    count += 1
    all.pop()
  }
  if (!all.every(isIPv6Group)) return false
  return parts.length === 2 ? count < 8 : count === 8
}

/**
 * Contact data, field by field: alphabetic (ASCII) characters, the required fields, phone
 * and fax as +<country code>.<number>, a two-letter country code. Keys are "role.field".
 */
export function contactFieldIssues(contact: ContactLike): Record<string, ContactCode> {
  const issues: Record<string, ContactCode> = {}
  for (const role of CONTACT_ROLES) {
    const p = contact[role]
    for (const field of CONTACT_FIELDS) {
      const v = p[field]
      if (v && !/^[\x20-\x7e]*$/.test(v)) issues[`${role}.${field}`] = 'contact.alphabetic'
    }
    for (const req of ['firstname', 'lastname', 'country', 'address1', 'phone'] as const) {
      if (!p[req]) issues[`${role}.${req}`] ??= 'contact.required'
    }
    if (p.country && !/^[A-Z]{2}$/.test(p.country)) issues[`${role}.country`] ??= 'contact.country'
    if (p.phone && !/^\+\d{1,3}\.\d{4,14}$/.test(p.phone)) issues[`${role}.phone`] ??= 'contact.phone'
    if (p.fax && !/^\+\d{1,3}\.\d{4,14}$/.test(p.fax)) issues[`${role}.fax`] ??= 'contact.phone'
  }
  return issues
}

/** The first contact problem: which field ("role.field") and what is wrong with it. */
export function firstContactIssue(contact: ContactLike): { path: string; code: ContactCode } | undefined {
  const first = Object.entries(contactFieldIssues(contact))[0]
  return first ? { path: first[0], code: first[1] } : undefined
}

/** A domain name the registry would accept for registration: sld.tld. */
export function splitDomain(name: string): { sld: string; tld: string } | undefined {
  const n = name.trim().toLowerCase()
  if (!HOSTNAME.test(n) || !n.includes('.')) return undefined
  const i = n.indexOf('.')
  return { sld: n.slice(0, i), tld: n.slice(i + 1) }
}

/** A contact as forms and requests hold it: four roles of optional text fields. */
export type ContactLike = Record<
  (typeof CONTACT_ROLES)[number],
  Partial<Record<(typeof CONTACT_FIELDS)[number], string | undefined>>
>

/** Hex digest length for each DS digest type (1 SHA-1, 2 SHA-256, 4 SHA-384). */
const DS_DIGEST_LENGTHS: Record<number, number> = { 1: 40, 2: 64, 4: 96 }

export function checkDsRecord(r: {
  keytag: number
  alg: number
  digesttype: number
  digest: string
}): Finding<DsCode> | undefined {
  if (!Number.isInteger(r.keytag) || r.keytag < 0 || r.keytag > 65535) return { code: 'ds.keytag' }
  if (!Number.isInteger(r.alg) || r.alg < 1 || r.alg > 255) return { code: 'ds.alg' }
  const want = DS_DIGEST_LENGTHS[r.digesttype]
  if (want === undefined) return { code: 'ds.digestType' }
  if (!/^[0-9a-f]*$/i.test(r.digest)) return { code: 'ds.digestHex' }
  if (r.digest.length !== want)
    return { code: 'ds.digestLength', params: { type: r.digesttype, want, have: r.digest.length } }
  return undefined
}

export const DOMAIN_NAME_CODES = [
  'domainName.empty',
  'domainName.ascii',
  'domainName.length',
  'domainName.noTld',
  'domainName.emptyLabel',
  'domainName.labelLength',
  'domainName.characters',
  'domainName.hyphen',
  'domainName.tld',
] as const
export type DomainNameCode = (typeof DOMAIN_NAME_CODES)[number]

/** A name as typed, in the form the rules and the service compare: trimmed, lower case, no final dot. */
export function normalDomainName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '')
}

/** The ASCII (xn--) form of a name written in other scripts, when it has one. */
function asciiForm(name: string): string | undefined {
  try {
    const host = new URL(`http://${name}/`).hostname
    return /^[\x21-\x7e]+$/.test(host) && host !== name ? host : undefined
  } catch {
    return undefined
  }
}

/**
 * A domain name that can be searched for and registered: at least a name and a TLD, labels of
 * 1 to 63 letters, digits and hyphens that neither start nor end with a hyphen, 253 characters
 * at most, a TLD of letters (or an xn-- TLD). The first problem found, as a code with what it
 * is about, or undefined when the name is fine. The name is checked as normalDomainName gives it.
 */
export function checkDomainName(raw: string): Finding<DomainNameCode> | undefined {
  const name = normalDomainName(raw)
  if (!name) return { code: 'domainName.empty' }
  if (!/^[\x20-\x7e]*$/.test(name)) {
    const ascii = asciiForm(name)
    if (ascii && !checkDomainName(ascii)) return { code: 'domainName.ascii', params: { ascii } }
  }
  const bad = [...new Set(name.replace(/[a-z0-9.-]/g, ''))]
  if (bad.length) return { code: 'domainName.characters', params: { chars: bad.join(' ') } }
  if (name.length > 253) return { code: 'domainName.length', params: { length: name.length } }
  const labels = name.split('.')
  if (labels.length < 2) return { code: 'domainName.noTld', params: { name } }
  for (const label of labels) {
    if (label === '') return { code: 'domainName.emptyLabel' }
    if (label.length > 63) return { code: 'domainName.labelLength', params: { label, length: label.length } }
    if (label.startsWith('-') || label.endsWith('-')) return { code: 'domainName.hyphen', params: { label } }
  }
  const tld = labels[labels.length - 1] ?? ''
  if (!/^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return { code: 'domainName.tld', params: { tld } }
  return undefined
}
