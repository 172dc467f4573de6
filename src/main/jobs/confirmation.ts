/**
 * Whether a prepared job may start: what `start` checks of its confirmation, in one place. The
 * account's level is read as it is now (it may have been raised while the confirmation was open),
 * the one-time token compared in constant time, the account's name checked where it must be
 * typed, so no screen (and no caller of IPC) skips any of them. Throws the refusal.
 */
import { timingSafeEqual } from 'node:crypto'
import type { WriteSafety } from '@shared/accounts/write-safety'
import type { JobView } from '@shared/jobs'
import { AppError } from '../base/app-error'

export interface ConfirmationCheck {
  job: Pick<JobView, 'confirmByName'>
  /** The token the job was prepared with (undefined: it needs none). */
  wanted: string | undefined
  given: string | undefined
  accountName: string | undefined
  safety: WriteSafety
  /** The account's name as the user gave it. */
  nameOf(): string
  /** How long ago the job was prepared, and how long a prepared job waits. */
  ageMs: number
  preparedForMs: number
}

/** 'expired': the job waited too long (the caller discards it); otherwise it may start. */
export function checkConfirmation(c: ConfirmationCheck): 'ok' | 'expired' {
  if (c.safety !== 'none' && c.wanted === undefined)
    throw AppError.of('validation', { code: 'job.confirmationRequired' })
  if (c.wanted !== undefined) {
    const given = Buffer.from(c.given ?? '')
    const wanted = Buffer.from(c.wanted)
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted))
      throw AppError.of('validation', { code: 'job.confirmationRequired' })
  }
  if (c.job.confirmByName || c.safety === 'name') {
    const name = c.nameOf()
    if (c.accountName?.trim() !== name.trim())
      throw AppError.of('validation', { code: 'job.accountNameRequired', params: { name } })
  }
  return c.ageMs > c.preparedForMs ? 'expired' : 'ok'
}
