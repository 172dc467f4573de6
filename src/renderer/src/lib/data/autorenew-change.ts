/**
 * An auto-renewal save from one item's page (a domain's, a server's): only what changed is sent.
 * The account-wide flag covers every item of the account (every server of the kind), so a change
 * of it from one item's page is confirmed, in words that name the item.
 */
import { settingOn } from '@shared/service/autorenew'
import { t } from '../../i18n'

/** A setting as the service takes it. */
export const serviceFlag = (on: boolean): 0 | 1 => (on ? 1 : 0)

/** The account-wide part of the save: its flag when it changed (else nothing) and the confirmation it asks for. */
export function accountWideChange(reported: number | undefined, wanted: boolean, words: { on: string; off: string }) {
  if (settingOn(reported) === wanted) return { params: {}, confirmation: undefined }
  return {
    params: { autorenew_all: serviceFlag(wanted) },
    confirmation: {
      title: t('autorenew.accountWideTitle'),
      lines: [wanted ? words.on : words.off],
      confirmLabel: t('autorenew.accountWideConfirm'),
    },
  }
}
