/**
 * Translation and locale-aware formatting for the renderer. All text comes from the
 * one catalogue in src/shared/messages.ts.
 */
import { ref } from 'vue'
import { LOCALES, format, type Locale, type MessageKey } from '../../shared/messages'

const STORAGE_KEY = 'hosting-admin.locale'

function initialLocale(): Locale {
  const saved = localStorage.getItem(STORAGE_KEY)
  if (saved === 'en' || saved === 'ja') return saved
  return navigator.language.toLowerCase().startsWith('ja') ? 'ja' : 'en'
}

export const locale = ref<Locale>(initialLocale())

export function setLocale(l: Locale): void {
  locale.value = l
  localStorage.setItem(STORAGE_KEY, l)
  document.documentElement.lang = l
}
document.documentElement.lang = locale.value

export function t(key: MessageKey, params?: Record<string, string | number>): string {
  return format(LOCALES[locale.value][key], params)
}

/** A key built at run time (error kinds, resource names); falls back to the raw text. */
export function tDynamic(key: string, fallback: string): string {
  const catalogue = LOCALES[locale.value] as Record<string, string>
  return catalogue[key] ?? fallback
}

/** YYYY-MM-DD from the service, shown in the user's locale; other text is shown as it is. */
export function formatDate(value: string | undefined): string {
  if (!value) return '—'
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return value
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  return new Intl.DateTimeFormat(locale.value === 'ja' ? 'ja-JP' : undefined, { dateStyle: 'medium' }).format(d)
}

/** Adds months to a YYYY-MM-DD date (for "about" previews in confirmations). */
export function addMonthsIso(value: string, months: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return value
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1 + months, Number(m[3])))
  return d.toISOString().slice(0, 10)
}
