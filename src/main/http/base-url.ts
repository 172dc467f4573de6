import { validateBaseUrl } from '@shared/accounts/base-url'
import { AppError } from '../base/app-error'

/** The normalised base URL (no trailing slash), or a validation error. */
export function checkBaseUrl(raw: string): string {
  const check = validateBaseUrl(raw)
  if (!check.ok) throw AppError.invalid('account.invalidBaseUrl', [{ path: 'baseUrl', code: check.code }])
  return check.url
}
