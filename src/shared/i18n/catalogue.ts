/**
 * The catalogue's shape and the checks that keep it whole: the Japanese catalogue has exactly
 * the English keys, and the English one has an entry for every code the other processes and
 * the shared rules can send (errors, field issues, validators, the BIND report).
 */
import type { ErrorCode } from '../errors'
import type { FieldCode } from '../errors/field-issues'
import type { BaseUrlCode } from '../accounts/base-url'
import type { ContactCode, DsCode } from '../service/validation'
import type { DnsCode } from '../dns/validate'
import type { BindCode } from '../dns/bind'
import type { BulkCode } from '../dns/bulk-change'
import type { ServiceKeptCode } from '../service/service-kept'
import type { ThresholdsCode } from '../portfolio/reminders'
import type { WriteEndpointName } from '../endpoints/names'
import type { HistoryAspect } from '../portfolio/history'
import { en } from './locales/en'

export type MessageKey = keyof typeof en
export type Catalogue = Record<MessageKey, string>

/** The words of every write (its name in a confirmation, a result, history) and of every aspect history names. */
type OperationCode = `operation.${WriteEndpointName}` | `history.aspect.${HistoryAspect}`

/** Every code that can reach the renderer from outside it. */
export type MessageCode =
  | ErrorCode
  | FieldCode
  | BaseUrlCode
  | ContactCode
  | DsCode
  | DnsCode
  | BindCode
  | ServiceKeptCode
  | ThresholdsCode
  | BulkCode
  | OperationCode

// A code without an English text fails here, at compile time.
const everyCodeHasText: Record<MessageCode, string> = en
void everyCodeHasText

export const LOCALES = ['en', 'ja'] as const
export type Locale = (typeof LOCALES)[number]

export function isMessageKey(key: string, catalogue: Catalogue): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(catalogue, key)
}
