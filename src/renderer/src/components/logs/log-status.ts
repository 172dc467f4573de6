/**
 * A logged request's HTTP status in words: its code and name ("404 Not Found"), and where it was
 * read (the error the service logged, the results it answered, or neither).
 */
import { t } from '../../i18n'
import type { MessageKey } from '@shared/i18n/catalogue'
import type { LogStatus } from '../../lib/data/log-entry'

const STATUS_NAMES: Record<number, MessageKey> = {
  200: 'logs.http.200',
  400: 'logs.http.400',
  401: 'logs.http.401',
  403: 'logs.http.403',
  404: 'logs.http.404',
  413: 'logs.http.413',
  429: 'logs.http.429',
  500: 'logs.http.500',
  503: 'logs.http.503',
  504: 'logs.http.504',
}
export function statusText(s: LogStatus): string {
  if (s.code === undefined) return s.outcome === 'error' ? t('logs.statusErrorUnknown') : t('logs.statusUnknown')
  const name = STATUS_NAMES[s.code]
  return name ? `${s.code} ${t(name)}` : String(s.code)
}
export function statusTitle(s: LogStatus): string {
  return s.outcome === 'error'
    ? t('logs.statusFromError')
    : s.outcome === 'success'
      ? t('logs.statusFromResults')
      : t('logs.statusNotShown')
}

/** In the list, the status is its code (the name is in the tooltip, with where it was read). */
export const statusCode = (s: LogStatus) =>
  s.code !== undefined ? String(s.code) : s.outcome === 'error' ? t('logs.statusErrorUnknown') : t('logs.statusUnknown')
