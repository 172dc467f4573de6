/**
 * Checks of DNS rows, per type. Each problem is a code with parameters, which the renderer
 * words in the user's language and the sandbox in the service's. Raw rows (lines the model
 * does not understand) are never errors: they are kept exactly as they were.
 */
import { HOSTNAME, isIPv4, isIPv6, type Finding } from '../validation'
import type { Row } from './records'

export const DNS_CODES = [
  'dns.host.invalid',
  'dns.a.value',
  'dns.aaaa.value',
  'dns.cname.apex',
  'dns.cname.value',
  'dns.cname.exclusive',
  'dns.hostValue',
  'dns.mx.value',
  'dns.srv.host',
  'dns.srv.value',
  'dns.caa.value',
  'dns.txt.tooLong',
  'dns.txt.quote',
  'dns.duplicate',
] as const
export type DnsCode = (typeof DNS_CODES)[number]

export interface RowIssue extends Finding<DnsCode> {
  /** Index of the row in the list. */
  index: number
}

export const HOST_FIELD = /^(@|\*|(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*)$/i
const isHostName = (s: string) => HOSTNAME.test(s) && s.includes('.') && s.length <= 254
const uint = (s: string | undefined, max: number) => s !== undefined && /^\d+$/.test(s) && Number(s) <= max

/** What is wrong with one record's value for its type and host, if anything. */
export function checkValue(type: string, host: string, value: string): Finding<DnsCode> | undefined {
  const parts = value.split(/\s+/)
  switch (type) {
    case 'a':
      return isIPv4(value) ? undefined : { code: 'dns.a.value', params: { value } }
    case 'aaaa':
      return isIPv6(value) ? undefined : { code: 'dns.aaaa.value', params: { value } }
    case 'cname':
      if (host === '@') return { code: 'dns.cname.apex' }
      return isHostName(value) ? undefined : { code: 'dns.cname.value', params: { value } }
    case 'ns':
    case 'ptr':
      return isHostName(value) ? undefined : { code: 'dns.hostValue', params: { type: type.toUpperCase(), value } }
    case 'mx': {
      const [target, prio, ...rest] = parts
      if (rest.length || !target || !isHostName(target) || !uint(prio, 65535)) return { code: 'dns.mx.value' }
      return undefined
    }
    case 'srv': {
      const [prio, weight, port, target, ...rest] = parts
      if (!/^_[a-z0-9-]+\._(tcp|udp|tls)(\.|$)/i.test(host)) return { code: 'dns.srv.host' }
      if (rest.length || !uint(prio, 65535) || !uint(weight, 65535) || !uint(port, 65535) || !target || !(target === '.' || isHostName(target))) {
        return { code: 'dns.srv.value' }
      }
      return undefined
    }
    case 'caa': {
      const [flags, tag, ...v] = parts
      if (!uint(flags, 255) || !tag || !/^(issue|issuewild|iodef)$/i.test(tag) || v.length === 0) return { code: 'dns.caa.value' }
      return undefined
    }
    case 'txt': {
      if (value.length > 4000) return { code: 'dns.txt.tooLong', params: { length: value.length } }
      const quotes = (value.match(/(?<!\\)"/g) ?? []).length
      if (quotes % 2 === 1) return { code: 'dns.txt.quote' }
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
    if (!HOST_FIELD.test(r.host) || r.host.length > 253) {
      issues.push({ index, code: 'dns.host.invalid', params: { host: r.host } })
      return
    }
    const problem = checkValue(r.type, r.host, r.value)
    if (problem) issues.push({ index, ...problem })
    const key = `${r.type}\u0000${r.host.toLowerCase()}\u0000${r.value}`
    const first = seen.get(key)
    if (first !== undefined) issues.push({ index, code: 'dns.duplicate', params: { row: first + 1 } })
    else seen.set(key, index)
    const host = r.host.toLowerCase()
    typesAtHost.set(host, (typesAtHost.get(host) ?? new Set()).add(r.type))
  })
  // A CNAME must be the only record at its host.
  rows.forEach((r, index) => {
    if (r.kind !== 'record' || r.type !== 'cname') return
    const types = typesAtHost.get(r.host.toLowerCase())
    if (types && types.size > 1) issues.push({ index, code: 'dns.cname.exclusive', params: { host: r.host } })
  })
  return issues
}
