/**
 * Values the service sends as codes (a domain's status, a transfer's status, the availability
 * code of a domain search), in the user's words. A known value gets its label, with the raw
 * value kept for a tooltip and for exports; a value this version does not know is shown as it
 * came, never guessed at.
 */
import { t } from '../../i18n'
import type { MessageKey } from '@shared/i18n/catalogue'
import { serviceMessageKey } from '@shared/i18n/service-messages'

export interface ServiceValueText {
  /** What the user reads. */
  text: string
  /** The value as the service sent it. */
  raw: string
  known: boolean
}

function lookup(raw: string, labels: Readonly<Record<string, MessageKey>>): ServiceValueText {
  const key = Object.prototype.hasOwnProperty.call(labels, raw) ? labels[raw] : undefined
  if (raw === '') return { text: '—', raw, known: true }
  return key ? { text: t(key), raw, known: true } : { text: raw, raw, known: false }
}

/** The spec shows TRANSFER_LOCK; the whole list is not published. */
const DOMAIN_STATUS: Record<string, MessageKey> = { TRANSFER_LOCK: 'serviceValue.domainStatus.TRANSFER_LOCK' }
export const domainStatusText = (raw: string) => lookup(raw, DOMAIN_STATUS)

/** STAY (in progress) and FAILED (with a failure reason) are the values the spec shows. */
const TRANSFER_STATUS: Record<string, MessageKey> = {
  STAY: 'serviceValue.transferStatus.STAY',
  FAILED: 'serviceValue.transferStatus.FAILED',
}
export const transferStatusText = (raw: string) => lookup(raw, TRANSFER_STATUS)

/** A failed transfer's reason: free text from the service, in the user's words where the app knows the message. */
export function failureReasonText(raw: string): ServiceValueText {
  const key = serviceMessageKey(raw)
  if (raw === '') return { text: '—', raw, known: true }
  return key ? { text: t(key), raw, known: true } : { text: raw, raw, known: false }
}

/**
 * A domain search answer is a code and a message ("210 Domain name available"). 210 and 211 are
 * the known codes; only 210 means the name can be registered.
 */
export type AvailabilityKind = 'available' | 'taken' | 'other'
export function availabilityKind(status: string): AvailabilityKind {
  const code = /^\s*(\d{3})\b/.exec(status)?.[1]
  return code === '210' ? 'available' : code === '211' ? 'taken' : 'other'
}
export function availabilityText(status: string): ServiceValueText {
  const kind = availabilityKind(status)
  if (kind === 'available') return { text: t('serviceValue.availability.210'), raw: status, known: true }
  if (kind === 'taken') return { text: t('serviceValue.availability.211'), raw: status, known: true }
  return { text: status || '—', raw: status, known: false }
}
