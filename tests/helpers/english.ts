/**
 * What an English-speaking user reads for an error or a finding: the renderer's own
 * catalogue and formatter, in the order the error banner shows them (our text, the fields
 * concerned, then the service's own words).
 */
import type { ErrorData } from '@shared/errors'
import { AppError } from '../../src/main/base/app-error'
import { en } from '@shared/i18n/locales/en'
import { describeError, translateCode } from '@shared/i18n/translate'

export function english(error: ErrorData | AppError): string {
  const e = describeError(en, 'en', error instanceof AppError ? error.toData() : error)
  return [e.text, ...e.issues, e.serviceMessage].filter(Boolean).join(' ')
}

export function englishCode(code: string, params?: Record<string, string | number>): string {
  return translateCode(en, 'en', code, params)
}

/** What a call threw, as the AppError it must be: anything else fails the test here, saying what it was. */
export function appErrorOf(thrown: unknown): AppError {
  if (thrown instanceof AppError) return thrown
  throw new Error(`expected an AppError, got ${String(thrown)}`)
}
