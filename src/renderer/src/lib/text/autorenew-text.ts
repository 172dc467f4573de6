/** Auto-renewal in force (shared/service/autorenew.ts) in the user's words: short for a cell, whole for a page. */
import type { AutorenewInForce } from '@shared/service/autorenew'
import { t } from '../../i18n'

export function autorenewShort(a: AutorenewInForce): string {
  switch (a.reason) {
    case 'account':
    case 'own':
    case 'both':
      return t(`autorenew.short.${a.reason}`)
    case 'none':
      return t('common.off')
    case 'reported':
      return a.on ? t('common.on') : t('common.off')
    case 'disagrees':
      return a.on ? t('autorenew.short.disagreesOn') : t('autorenew.short.disagreesOff')
    case 'unknown':
      return '—'
  }
}

export function autorenewLong(a: AutorenewInForce): string {
  switch (a.reason) {
    case 'account':
    case 'own':
    case 'both':
    case 'none':
      return t(`autorenew.long.${a.reason}`)
    case 'reported':
      return a.on ? t('autorenew.long.reportedOn') : t('autorenew.long.reportedOff')
    case 'disagrees':
      return a.on ? t('autorenew.long.disagreesOn') : t('autorenew.long.disagreesOff')
    case 'unknown':
      return t('autorenew.long.unknown')
  }
}

/** The service's three flags as they came, for a tooltip. */
export function autorenewRaw(
  r: { autorenew?: number | undefined; autorenew_all?: number | undefined },
  ownName: string,
  own: number | undefined,
): string {
  const v = (x: number | undefined) => (x === undefined ? '—' : String(x))
  return `autorenew=${v(r.autorenew)} autorenew_all=${v(r.autorenew_all)} ${ownName}=${v(own)}`
}
