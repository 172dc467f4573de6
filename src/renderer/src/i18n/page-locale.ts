/**
 * The page's language: each language's catalogue is its own chunk, loaded when it is chosen.
 * main.ts loads the saved one alongside its first calls to main and mounts the window only then,
 * so no screen shows in the wrong language, and the window's first script does not carry a
 * catalogue it may not use. The choice is kept in the page's storage.
 */
import { useCatalogue } from './current'
import type { Catalogue, Locale } from '@shared/i18n/catalogue'

const STORAGE_KEY = 'hosting-admin.locale'

const loaders: Record<Locale, () => Promise<Catalogue>> = {
  en: async () => (await import('@shared/i18n/locales/en')).en,
  ja: async () => (await import('@shared/i18n/locales/ja')).ja,
}

function savedLocale(): Locale {
  const saved = localStorage.getItem(STORAGE_KEY)
  if (saved === 'en' || saved === 'ja') return saved
  return navigator.language.toLowerCase().startsWith('ja') ? 'ja' : 'en'
}

/** Switches the language (loading its catalogue first) and remembers the choice. */
export async function setLocale(l: Locale): Promise<void> {
  useCatalogue(l, await loaders[l]())
  localStorage.setItem(STORAGE_KEY, l)
  document.documentElement.lang = l
}

/** The language saved last time (or the system's), loaded before the app mounts. */
export function loadSavedLocale(): Promise<void> {
  return setLocale(savedLocale())
}
