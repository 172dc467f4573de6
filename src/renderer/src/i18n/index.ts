/**
 * Translation and locale-aware formatting for the renderer. Choosing and loading a language,
 * which needs the page (its storage and document), is in page-locale.ts: the words and formats
 * here need no page, so text modules that use them can be tested without one.
 */
import { current, locale } from './current'
import type { ErrorData } from '@shared/errors'
import type { MessageKey } from '@shared/i18n/catalogue'
import type { Params } from '@shared/i18n/format'
import { describeError, errorLine, translate, translateCode, type ErrorText } from '@shared/i18n/translate'

export type { Locale, MessageKey } from '@shared/i18n/catalogue'
export { LOCALES } from '@shared/i18n/catalogue'

export { locale }

export function t(key: MessageKey, params?: Params): string {
  return translate(current(), locale.value, key, params)
}

/** A code from outside the renderer (an error, a validator, the BIND report). */
export function tCode(code: string, params?: Params): string {
  return translateCode(current(), locale.value, code, params)
}

export function errorText(error: ErrorData): ErrorText {
  return describeError(current(), locale.value, error)
}

/** An error in one line, in the user's language, with the service's own words where it gave some. */
export function errorLineOf(error: ErrorData): string {
  return errorLine(errorText(error), t('error.serviceSaid'))
}

const intlLocale = () => (locale.value === 'ja' ? 'ja-JP' : 'en')

/** One formatter per language and style: making one per cell cost frames on a fast scroll of 10,000 rows. */
const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(style: 'date' | 'dateTime'): Intl.DateTimeFormat {
  const key = `${intlLocale()}:${style}`
  let f = formatters.get(key)
  if (!f) {
    f = new Intl.DateTimeFormat(
      intlLocale(),
      style === 'date' ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' },
    )
    formatters.set(key, f)
  }
  return f
}

/** YYYY-MM-DD from the service, shown in the user's locale; other text is shown as it is. */
export function formatDate(value: string | undefined): string {
  if (!value) return '—'
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return value
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  return formatter('date').format(d)
}

/** An ISO time (such as when a list was read), in the user's locale and time zone. */
export function formatDateTime(value: string): string {
  const d = new Date(value)
  return Number.isNaN(d.getTime()) ? value : formatter('dateTime').format(d)
}

/**
 * A time as the service writes it ("2026-11-20 10:11:00", its own clock, no zone): the date in
 * the user's locale and the hour and minute as they came, never moved to another zone.
 */
export function formatServiceTime(value: string | undefined): string {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})/.exec(value ?? '')
  return m ? `${formatDate(m[1])} ${m[2] ?? ''}` : formatDate(value)
}

/** Adds months to a YYYY-MM-DD date (for "about" previews in confirmations). */
export function addMonthsIso(value: string, months: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return value
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1 + months, Number(m[3])))
  return d.toISOString().slice(0, 10)
}

/** How long ago an ISO time was, in words ("3 days ago", "3 日前"), at the largest whole unit. */
export function formatAgo(value: string, now: number = Date.now()): string {
  const then = new Date(value).getTime()
  if (Number.isNaN(then)) return value
  const seconds = Math.round((then - now) / 1000)
  const f = new Intl.RelativeTimeFormat(intlLocale(), { numeric: 'auto' })
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ]
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return f.format(Math.round(seconds / size), unit)
  return f.format(seconds, 'second')
}

/** A time of today as its hour and minute ("07:05"), of another day with its date. */
export function formatWhen(value: string, now: Date = new Date()): string {
  const d = new Date(value)
  if (Number.isNaN(d.getTime())) return value
  if (d.toDateString() !== now.toDateString()) return formatDateTime(value)
  return new Intl.DateTimeFormat(intlLocale(), { hour: '2-digit', minute: '2-digit' }).format(d)
}
