/**
 * What the command says, from the app's catalogue in the user's language (LC_ALL, LC_MESSAGES or
 * LANG starting with "ja" is Japanese, else English): the command's own lines (cli.*) and every
 * code main returns, worded as the window words them.
 */
import type { ErrorData } from '@shared/errors'
import type { Catalogue, Locale, MessageKey } from '@shared/i18n/catalogue'
import type { Params } from '@shared/i18n/format'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'
import { describeError, translate, translateCode } from '@shared/i18n/translate'

export function localeOf(env: NodeJS.ProcessEnv): Locale {
  const tag = env.LC_ALL || env.LC_MESSAGES || env.LANG || ''
  return /^ja/i.test(tag) ? 'ja' : 'en'
}

export interface Texts {
  t(key: MessageKey, params?: Params): string
  code(code: string, params?: Params): string
  /** An error as one line (what happened and what to do), with the request ID when there is one. */
  error(e: ErrorData): string
}

export function texts(locale: Locale): Texts {
  const catalogue: Catalogue = locale === 'ja' ? ja : en
  return {
    t: (key, params) => translate(catalogue, locale, key, params),
    code: (code, params) => translateCode(catalogue, locale, code, params),
    error(e) {
      const d = describeError(catalogue, locale, e)
      return [d.text, ...d.issues, ...(d.serviceMessage ? [`(${d.serviceMessage})`] : []), ...(e.requestId ? [`request ${e.requestId}`] : [])].join(' ')
    },
  }
}
