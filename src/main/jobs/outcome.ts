/**
 * Whether a failed write may still have been done. A time-out, a gateway time-out or a
 * connection that broke after the request went out leave the outcome unknown: the service may
 * have acted. Only errors that happen before anything is sent (no connection at all, a refused
 * certificate) or an answer from the service itself are plain failures.
 */
import type { ErrorData } from '@shared/errors'

/** Network errors raised before the request could leave this machine. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

export function isOutcomeUnknown(e: ErrorData): boolean {
  switch (e.kind) {
    case 'timeout':
    case 'gateway-timeout':
    case 'cancelled':
      return true
    case 'network':
      return !NOT_SENT.has(String(e.params?.errno ?? ''))
    case 'malformed-response':
      // The service answered 2xx, so it acted, but what it kept cannot be read.
      return e.status !== undefined && e.status >= 200 && e.status < 300
    default:
      return false
  }
}
