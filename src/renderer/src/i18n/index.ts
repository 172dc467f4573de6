/**
 * Translation and locale-aware formatting for the renderer. Choosing and loading a language,
 * which needs the page (its storage and document), is in page-locale.ts: the words and formats
 * here need no page, so text modules that use them can be tested without one.
 */
import { current, locale } from './current'
import type { ErrorData } from '@shared/errors'
import type { MessageKey } from '@shared/i18n/catalogue'
import { prepareMessageFormats, type Params } from '@shared/i18n/format'
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
  return describeError(current(), locale.value, { ...error, params: localTimes(error.params) })
}

/**
 * A refusal's times in the window's one format, local (issue 53): main gives each as words the
 * command line shows (`since`, "2026-11-29 07:05 UTC") and as an ISO time beside it (`sinceIso`).
 */
function localTimes(params: ErrorData['params']): ErrorData['params'] {
  if (!params) return params
  const out = { ...params }
  for (const [k, v] of Object.entries(params))
    if (k.endsWith('Iso') && typeof v === 'string' && k.slice(0, -3) in params) out[k.slice(0, -3)] = formatDateTime(v)
  return out
}

/** An error in one line, in the user's language, with the service's own words where it gave some. */
export function errorLineOf(error: ErrorData): string {
  return errorLine(errorText(error), t('error.serviceSaid'))
}

const intlLocale = () => (locale.value === 'ja' ? 'ja-JP' : 'en')

type Style = 'date' | 'minute' | 'second'
/** One formatter per language, style and zone: making one per cell cost frames on a fast scroll of 10,000 rows. */
const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(style: Style, timeZone?: 'UTC'): Intl.DateTimeFormat {
  const key = `${intlLocale()}:${style}:${timeZone ?? ''}`
  let f = formatters.get(key)
  if (!f) {
    const time: Intl.DateTimeFormatOptions =
      style === 'date' ? {} : { timeStyle: style === 'second' ? 'medium' : 'short' }
    f = new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', ...time, ...(timeZone ? { timeZone } : {}) })
    formatters.set(key, f)
  }
  return f
}

/**
 * Makes the formatters a long list's first frame uses, in the language in use, and formats once
 * with each, while the list is read: the date of every row, the time the stored list was read
 * ("as of"), and the plural rules and number format of its messages ("Expires in 3 days"). The
 * first of each costs milliseconds, which fell between the list's arrival and its first paint
 * (issue 54).
 */
export function prepareListFormats(): void {
  formatter('date').format(0)
  formatter('minute').format(0)
  prepareMessageFormats(locale.value)
}

/** YYYY-MM-DD from the service, shown in the user's locale; other text is shown as it is. */
export function formatDate(value: string | undefined): string {
  if (!value) return '—'
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return value
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  return formatter('date').format(d)
}

/** A time with no zone, as the service writes it ("2026-11-20 10:11:00", its own clock). */
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/

/** How finely a time is shown: to the minute, unless two times of a list would then read the same. */
export type TimePrecision = 'minute' | 'second' | 'millisecond'

/**
 * The window's one format of a time (issue 53): the date in the user's locale, the hour and
 * minute (the second, and its thousandths, where asked: where two times would otherwise read the
 * same). An ISO time with its zone (when a list was read, a snapshot, a hold) is shown in the
 * user's time zone; a time the service wrote with no zone is shown as it came, never moved.
 */
export function formatDateTime(value: string | undefined, precision: TimePrecision = 'minute'): string {
  if (!value) return '—'
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDate(value)
  const wall = WALL_CLOCK.exec(value)
  const [y, mo, d, h, mi, sec] = (wall?.slice(1) ?? []).map(Number)
  const at = wall ? Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, sec || 0) : new Date(value).getTime()
  if (Number.isNaN(at)) return value
  const f = formatter(precision === 'minute' ? 'minute' : 'second', wall ? 'UTC' : undefined)
  if (precision !== 'millisecond') return f.format(at)
  // The thousandths after the seconds, in the locale's own order of the rest ("10:10:05.123 AM").
  const ms = `.${String(new Date(at).getUTCMilliseconds()).padStart(3, '0')}`
  return f
    .formatToParts(at)
    .map((p) => (p.type === 'second' ? `${p.value}${ms}` : p.value))
    .join('')
}

/**
 * Times of a list (history entries, snapshots) in the one format: to the minute, with seconds
 * where two would otherwise read the same (and thousandths where even those are the same), so
 * that two snapshots a minute apart can be told apart. Equal times read the same.
 */
export function distinctTimes(values: readonly string[]): string[] {
  const shown = values.map((v) => formatDateTime(v))
  for (const precision of ['second', 'millisecond'] as const) {
    const times = new Map<string, Set<string>>()
    values.forEach((v, i) => times.set(shown[i] ?? '', (times.get(shown[i] ?? '') ?? new Set()).add(v)))
    values.forEach((v, i) => {
      if ((times.get(shown[i] ?? '')?.size ?? 0) > 1) shown[i] = formatDateTime(v, precision)
    })
  }
  return shown
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
