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
