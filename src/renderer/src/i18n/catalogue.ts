/**
 * The catalogue's shape and the checks that keep it whole: the Japanese catalogue has exactly
 * the English keys, and the English one has an entry for every code the other processes and
 * the shared rules can send (errors, field issues, validators, the BIND report).
 */
import type { ErrorCode } from '../../../shared/errors'
import type { FieldCode } from '../../../shared/field-issues'
import type { BaseUrlCode } from '../../../shared/base-url'
import type { ContactCode, DsCode } from '../../../shared/validation'
import type { DnsCode } from '../../../shared/dns/validate'
import type { BindCode } from '../../../shared/dns/bind'
import type { BulkCode } from '../../../shared/dns/bulk-change'
import type { ServiceKeptCode } from '../../../shared/service-kept'
import type { ThresholdsCode } from '../../../shared/reminders'
import type { WriteEndpointName } from '../../../shared/endpoints/names'
import type { HistoryAspect } from '../../../shared/history'
import { en } from './locales/en'

export type MessageKey = keyof typeof en
export type Catalogue = Record<MessageKey, string>

/** The words of every write (its name in a confirmation, a result, history) and of every aspect history names. */
type OperationCode = `operation.${WriteEndpointName}` | `history.aspect.${HistoryAspect}`

/** Every code that can reach the renderer from outside it. */
export type MessageCode = ErrorCode | FieldCode | BaseUrlCode | ContactCode | DsCode | DnsCode | BindCode | ServiceKeptCode | ThresholdsCode | BulkCode | OperationCode

// A code without an English text fails here, at compile time.
const everyCodeHasText: Record<MessageCode, string> = en
void everyCodeHasText

export const LOCALES = ['en', 'ja'] as const
export type Locale = (typeof LOCALES)[number]

export function isMessageKey(key: string, catalogue: Catalogue): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(catalogue, key)
}
