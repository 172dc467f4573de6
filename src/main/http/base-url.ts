import { validateBaseUrl } from '../../shared/base-url'
import { ApiError } from './errors'

/** The normalised base URL (no trailing slash), or a validation error. */
export function checkBaseUrl(raw: string): string {
  const check = validateBaseUrl(raw)
  if (!check.ok) throw new ApiError('validation', `The base URL ${check.reason}.`, { issues: [{ path: 'baseUrl', message: check.reason }] })
  return check.url
}
