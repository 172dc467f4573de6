/**
 * Names of accounts and server kinds as shown to the user. The built-in demo's names come
 * from the catalogue, so they follow the language; other accounts show what the user typed.
 */
import { t } from '../i18n'
import type { AccountView } from '../../../shared/accounts'
import type { ServerKind } from '../../../shared/constants'

export function accountName(a: AccountView | undefined): string {
  if (!a) return ''
  return a.demo ? t('account.demoName') : a.name
}

export function kindLabel(a: AccountView | undefined, kind: ServerKind): string {
  if (!a) return kind
  return a.demo ? t(`demo.kind.${kind}`) : a.serverKinds[kind].label
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
