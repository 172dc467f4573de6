/**
 * Catalogue lookups as pure functions (no Vue), so tests can render exactly what a user
 * reads in either language. The reactive `t` in index.ts is built on these.
 */
import type { ErrorData } from '../errors'
import { isMessageKey, type Catalogue, type Locale, type MessageKey } from './catalogue'
import { formatMessage, type Params } from './format'
import { serviceMessageKey } from './service-messages'

export function translate(catalogue: Catalogue, locale: Locale, key: MessageKey, params?: Params): string {
  return formatMessage(catalogue[key], params, locale)
}

/** A code that came from outside the renderer; one the catalogue lacks is shown as it is. */
export function translateCode(catalogue: Catalogue, locale: Locale, code: string, params?: Params): string {
  return isMessageKey(code, catalogue) ? formatMessage(catalogue[code], params, locale) : code
}

export interface ErrorText {
  /** A few words: what kind of problem. */
  title: string
  /** What happened and what to do, in the user's language. */
  text: string
  /** The service's own words, as they came (not translated). */
  serviceMessage?: string | undefined
  /** What the service's words mean, in the user's language, where the app knows them. */
  serviceMeaning?: string | undefined
  /** One line per field issue: "field: what is wrong". */
  issues: string[]
}

/** Everything an error banner says, in one language. */
export function describeError(catalogue: Catalogue, locale: Locale, error: ErrorData): ErrorText {
  const titleKey = `error.kind.${error.kind}`
  return {
    title: isMessageKey(titleKey, catalogue) ? catalogue[titleKey] : catalogue['error.title'],
    text: translateCode(catalogue, locale, error.code, error.params),
    serviceMessage: error.serviceMessage,
    serviceMeaning: serviceMeaning(catalogue, error.serviceMessage),
    issues: (error.issues ?? []).map(
      (i) => `${i.path ? `${i.path}: ` : ''}${translateCode(catalogue, locale, i.code, i.params)}`,
    ),
  }
}

function serviceMeaning(catalogue: Catalogue, message: string | undefined): string | undefined {
  const key = message === undefined ? undefined : serviceMessageKey(message)
  return key ? catalogue[key] : undefined
}

/** An error in one line (a table cell, a CSV field): what happened, what the service's words mean, and its words. */
export function errorLine(e: ErrorText, serviceSaid: string): string {
  return [e.text, e.serviceMeaning, e.serviceMessage ? `${serviceSaid} ${e.serviceMessage}` : undefined]
    .filter(Boolean)
    .join(' ')
}
