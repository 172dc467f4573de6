/**
 * Names of accounts and server kinds as shown to the user. The built-in demo's names come
 * from the catalogue, so they follow the language; other accounts show what the user typed.
 */
import { t } from '../../i18n'
import type { AccountColour, AccountEnvironment, AccountView } from '@shared/accounts'
import { confirmsByName } from '@shared/accounts/write-safety'
import { SERVER_KIND_PLACEHOLDERS, type ServerKind } from '@shared/service/constants'

export function accountName(a: AccountView | undefined): string {
  if (!a) return ''
  return a.demo ? t('account.demoName') : a.name
}

/**
 * A server kind's name: the one the user gave the account, else (the demo, a label left empty,
 * or the English default the form fills in) the default in the user's language.
 */
export function kindLabel(a: AccountView | undefined, kind: ServerKind): string {
  if (!a) return kind
  const label = a.serverKinds[kind].label.trim()
  return a.demo || !label || label === SERVER_KIND_PLACEHOLDERS[kind].label ? t(`demo.kind.${kind}`) : label
}

/** One DNS service of the account as the editor offers it: the service's word and its name. */
export interface NsTypeChoice {
  word: string
  label: string
}

/** The account's two DNS product words with their labels (free DNS takes only the first). */
export function nsTypeChoices(a: AccountView | undefined): NsTypeChoice[] {
  if (!a) return []
  return [a.nsTypes.svc1, a.nsTypes.svc11]
}

/**
 * How an ns_type word the service sent is shown: the account's label for it (with the word
 * when they differ), or the word itself when the account does not know it.
 */
export function nsTypeText(a: AccountView | undefined, word: string): string {
  const known = nsTypeChoices(a).find((c) => c.word === word)
  if (!known || known.label === word) return word
  return `${known.label} (${word})`
}

/**
 * The palette's colours. Each keeps white text at a contrast of 4.5:1 or more, so the band
 * can carry the account's name and tag in white.
 */
export const ACCOUNT_COLOUR_VALUES: Record<AccountColour, string> = {
  slate: '#475569',
  blue: '#1d4ed8',
  teal: '#0f766e',
  green: '#15803d',
  purple: '#7e22ce',
  pink: '#be185d',
  orange: '#c2410c',
  red: '#b91c1c',
}

/** An account as it is marked wherever it is named: its name, colour and environment tag. */
export interface AccountMarks {
  name: string
  colour: AccountColour
  environment: AccountEnvironment
  readOnly: boolean
}

/** The marks of an account, or plain ones (under the name frozen in a job) for an account since removed. */
export function accountMarks(a: AccountView | undefined, fallbackName = ''): AccountMarks {
  if (!a) return { name: fallbackName, colour: 'slate', environment: 'none', readOnly: false }
  return { name: accountName(a), colour: a.colour, environment: a.environment, readOnly: a.readOnly }
}

/** The tag as text ('' when the account has none): the colour never says it alone. */
export function environmentText(env: AccountEnvironment): string {
  return env === 'none' ? '' : t(`accounts.env.${env}`)
}

/** The name to type before a paid or ownership operation of this account, when it asks for one. */
export function nameToType(a: AccountView | undefined): string | undefined {
  if (!a || a.demo || !confirmsByName(a)) return undefined
  return a.name
}
