/**
 * The command's words from one catalogue: the language rule and the Texts over a catalogue, with
 * no catalogue imported here. The command loads only the user's language (load-texts.ts): the
 * Japanese catalogue is not read for English, nor at `--help` in English (issue 52 point 7).
 */
import type { ErrorData } from '@shared/errors'
import type { Catalogue, Locale, MessageKey } from '@shared/i18n/catalogue'
import type { Params } from '@shared/i18n/format'
import { describeError, translate, translateCode } from '@shared/i18n/translate'

/** LC_ALL, LC_MESSAGES or LANG starting with "ja" is Japanese, else English. */
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

export function textsWith(locale: Locale, catalogue: Catalogue): Texts {
  return {
    t: (key, params) => translate(catalogue, locale, key, params),
    code: (code, params) => translateCode(catalogue, locale, code, params),
    error(e) {
      const d = describeError(catalogue, locale, e)
      return [
        d.text,
        ...d.issues,
        ...(d.serviceMessage ? [`(${d.serviceMessage})`] : []),
        ...(e.requestId ? [`request ${e.requestId}`] : []),
      ].join(' ')
    },
  }
}
