/** The command's words in the user's language, loading that language's catalogue only (text-core.ts). */
import type { Locale } from '@shared/i18n/catalogue'
import { en } from '@shared/i18n/locales/en'
import { textsWith, type Texts } from './text-core'

export async function loadTexts(locale: Locale): Promise<Texts> {
  return textsWith(locale, locale === 'ja' ? (await import('@shared/i18n/locales/ja')).ja : en)
}
