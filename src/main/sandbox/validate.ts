/**
 * The sandbox's own checks beyond the endpoint table's structural schemas: the
 * things a real service rejects with 400 (malformed records, contacts that are
 * not in alphabetic characters, bad host names and addresses).
 * Each check returns a message for a person, or undefined when the value is fine.
 */
import { CONTACT_FIELDS, CONTACT_ROLES } from '../../shared/api/schemas'
import type { ContactInput } from '../../shared/api/endpoints'

export const HOSTNAME = /^(?=.{1,253}\.?$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?$/i
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

export function isIPv4(s: string): boolean {
  return IPV4.test(s)
}

export function isIPv6(s: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(s) || !s.includes(':')) return false
  const parts = s.split('::')
  if (parts.length > 2) return false
  const groups = (p: string) => (p === '' ? [] : p.split(':'))
  const head = groups(parts[0] ?? '')
  const tail = parts.length === 2 ? groups(parts[1] ?? '') : []
  const all = [...head, ...tail]
  const last = all[all.length - 1]
  let count = all.length
  if (last !== undefined && last.includes('.')) {
    if (!isIPv4(last)) return false
    count += 1
    all.pop()
  }
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return false
  return parts.length === 2 ? count < 8 : count === 8
}

/** Record types the sandbox accepts, as the service would. */
export const SANDBOX_RECORD_TYPES = ['a', 'aaaa', 'cname', 'mx', 'txt', 'srv', 'ns', 'caa', 'ptr'] as const

const HOST_FIELD = /^(@|\*|(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*)$/i

/** Checks a `records` string line by line; blank lines are allowed. */
export function checkRecords(records: string): string | undefined {
  const lines = records.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim()
    if (line === '') continue
    const m = /^(\S+)\s+(\S+)\s+(.+)$/.exec(line)
    if (!m) return `Malformed record on line ${i + 1}: expected "type host value".`
    const type = (m[1] ?? '').toLowerCase()
    let host = m[2] ?? ''
    let value = (m[3] ?? '').trim()
    // MX lines come as "mx <mail server> <priority>" (the apex) or "mx <host> <mail server> <priority>".
    if (type === 'mx' && value.split(/\s+/).length === 1) {
      value = `${host} ${value}`
      host = '@'
    }
    if (!(SANDBOX_RECORD_TYPES as readonly string[]).includes(type)) return `Unknown record type "${m[1]}" on line ${i + 1}.`
    if (!HOST_FIELD.test(host)) return `Invalid host "${host}" on line ${i + 1}.`
    if (type === 'a' && !isIPv4(value)) return `Line ${i + 1}: an A record needs an IPv4 address.`
    if (type === 'aaaa' && !isIPv6(value)) return `Line ${i + 1}: an AAAA record needs an IPv6 address.`
    if ((type === 'cname' || type === 'ns' || type === 'ptr') && !HOSTNAME.test(value)) return `Line ${i + 1}: "${value}" is not a host name.`
    if (type === 'mx') {
      const [target, prio, ...rest] = value.split(/\s+/)
      if (!target || !HOSTNAME.test(target) || rest.length > 0 || (prio !== undefined && !/^\d{1,5}$/.test(prio))) {
        return `Line ${i + 1}: an MX record needs a host name and a priority.`
      }
    }
    if (type === 'txt' && value.length > 4000) return `Line ${i + 1}: the TXT value is too long.`
  }
  return undefined
}

/** Contact data: alphabetic (ASCII) characters, phone and fax as +<country code>.<number>, two-letter country. */
export function checkContact(contact: ContactInput): string | undefined {
  for (const role of CONTACT_ROLES) {
    const p = contact[role]
    for (const field of CONTACT_FIELDS) {
      const v = p[field]
      if (v === undefined || v === '') continue
      if (!/^[\x20-\x7e]*$/.test(v)) return `${role}.${field} must be entered in alphabetic characters.`
    }
    for (const req of ['firstname', 'lastname', 'country', 'address1', 'phone'] as const) {
      if (!p[req]) return `${role}.${req} is required.`
    }
    if (!/^[A-Z]{2}$/.test(p.country ?? '')) return `${role}.country must be a two-letter country code such as JP.`
    if (!/^\+\d{1,3}\.\d{4,14}$/.test(p.phone ?? '')) return `${role}.phone must look like +81.312345678.`
    if (p.fax && !/^\+\d{1,3}\.\d{4,14}$/.test(p.fax)) return `${role}.fax must look like +81.312345678.`
  }
  return undefined
}

/** A domain name the registry would accept for registration: sld.tld. */
export function splitDomain(name: string): { sld: string; tld: string } | undefined {
  const n = name.trim().toLowerCase()
  if (!HOSTNAME.test(n) || !n.includes('.')) return undefined
  const i = n.indexOf('.')
  return { sld: n.slice(0, i), tld: n.slice(i + 1) }
}
