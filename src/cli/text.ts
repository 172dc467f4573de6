/**
 * What the command says, from the app's catalogue in the user's language (LC_ALL, LC_MESSAGES or
 * LANG starting with "ja" is Japanese, else English): the command's own lines (cli.*) and every
 * code main returns, worded as the window words them. Both catalogues at hand, for the build's
 * scripts and the tests; the command itself loads only the user's (load-texts.ts).
 */
import type { Locale } from '@shared/i18n/catalogue'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'
import { textsWith, type Texts } from './text-core'

export type { Texts } from './text-core'

export const texts = (locale: Locale): Texts => textsWith(locale, locale === 'ja' ? ja : en)
