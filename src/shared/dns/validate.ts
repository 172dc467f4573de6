/**
 * Checks of DNS rows, per type, with messages a person can act on. Raw rows (lines the
 * model does not understand) are never errors: they are kept exactly as they were.
 */
import { HOSTNAME, isIPv4, isIPv6 } from '../validation'
import type { Row } from './records'

export interface RowIssue {
  /** Index of the row in the list. */
  index: number
  message: string
}

const HOST = /^(@|\*|(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*)$/i
const isHostName = (s: string) => HOSTNAME.test(s) && s.includes('.') && s.length <= 254
const uint = (s: string | undefined, max: number) => s !== undefined && /^\d+$/.test(s) && Number(s) <= max

function checkValue(type: string, host: string, value: string): string | undefined {
  const parts = value.split(/\s+/)
  switch (type) {
    case 'a':
      return isIPv4(value) ? undefined : `An A record needs an IPv4 address such as 192.0.2.10; “${value}” is not one.`
    case 'aaaa':
      return isIPv6(value) ? undefined : `An AAAA record needs an IPv6 address such as 2001:db8::10; “${value}” is not one.`
    case 'cname':
      if (host === '@') return 'A CNAME cannot be at the apex (@): use A/AAAA records there.'
      return isHostName(value) ? undefined : `A CNAME points to a host name such as www.example.com.; “${value}” is not one.`
    case 'ns':
    case 'ptr':
      return isHostName(value) ? undefined : `${type.toUpperCase()} needs a host name; “${value}” is not one.`
    case 'mx': {
      const [target, prio, ...rest] = parts
      if (rest.length || !target || !isHostName(target) || !uint(prio, 65535)) {
        return 'An MX record needs a mail server host name and a priority from 0 to 65535, such as “mail.example.com. 10”.'
      }
      return undefined
    }
    case 'srv': {
      const [prio, weight, port, target, ...rest] = parts
      if (!/^_[a-z0-9-]+\._(tcp|udp|tls)(\.|$)/i.test(host)) return 'An SRV host looks like _service._tcp (or _udp), such as _sip._tcp.'
      if (rest.length || !uint(prio, 65535) || !uint(weight, 65535) || !uint(port, 65535) || !target || !(target === '.' || isHostName(target))) {
        return 'An SRV value is “priority weight port target”, such as “10 5 5060 sip.example.com.”.'
      }
      return undefined
    }
    case 'caa': {
      const [flags, tag, ...v] = parts
      if (!uint(flags, 255) || !tag || !/^(issue|issuewild|iodef)$/i.test(tag) || v.length === 0) {
        return 'A CAA value is “flags tag value”, such as “0 issue "letsencrypt.org"” (tags: issue, issuewild, iodef).'
      }
      return undefined
    }
    case 'txt': {
      if (value.length > 4000) return `A TXT value can hold at most 4000 characters; this one has ${value.length}.`
      const quotes = (value.match(/(?<!\\)"/g) ?? []).length
      if (quotes % 2 === 1) return 'The TXT value has an unmatched quotation mark.'
      return undefined
    }
    default:
      return undefined
  }
}

export function validateRows(rows: Row[]): RowIssue[] {
  const issues: RowIssue[] = []
  const seen = new Map<string, number>()
  const typesAtHost = new Map<string, Set<string>>()
  rows.forEach((r, index) => {
    if (r.kind !== 'record') return
    if (!HOST.test(r.host) || r.host.length > 253) {
      issues.push({ index, message: `“${r.host}” is not a valid host: use @ for the domain itself, * for a wildcard, or a name such as www.` })
      return
    }
    const problem = checkValue(r.type, r.host, r.value)
    if (problem) issues.push({ index, message: problem })
    const key = `${r.type}\u0000${r.host.toLowerCase()}\u0000${r.value}`
    const first = seen.get(key)
    if (first !== undefined) issues.push({ index, message: `This is the same record as row ${first + 1}.` })
    else seen.set(key, index)
    const host = r.host.toLowerCase()
    typesAtHost.set(host, (typesAtHost.get(host) ?? new Set()).add(r.type))
  })
  // A CNAME must be the only record at its host.
  rows.forEach((r, index) => {
    if (r.kind !== 'record' || r.type !== 'cname') return
    const types = typesAtHost.get(r.host.toLowerCase())
    if (types && types.size > 1) issues.push({ index, message: `“${r.host}” has a CNAME and other records; a CNAME must be the only record at its host.` })
  })
  return issues
}
