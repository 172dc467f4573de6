/**
 * The sandbox's own checks beyond the endpoint table's structural schemas: the
 * things a real service rejects with 400 (malformed records, contacts that are
 * not in alphabetic characters, bad host names and addresses).
 * Each check returns a message for a person, or undefined when the value is fine.
 */
import { HOSTNAME, isIPv4, isIPv6 } from '../shared/validation'

export { HOSTNAME, isIPv4, isIPv6, checkContact, splitDomain } from '../shared/validation'

/** Record types the sandbox accepts, as the service would. */
export const SANDBOX_RECORD_TYPES = ['a', 'aaaa', 'cname', 'mx', 'txt', 'srv', 'ns', 'caa', 'ptr'] as const

const HOST_FIELD = /^(@|\*|(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*)$/i

/** Checks a `records` string line by line; blank lines are allowed. */
export function checkRecords(records: string): string | undefined {
  const lines = records.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim()
    // Blank lines and comments are stored as they are.
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
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

