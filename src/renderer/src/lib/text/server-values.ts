/**
 * Values of servers and service IPs in the user's words: `paid` (not defined by the spec; the
 * service sends "1" or "0") and resource allocations ("default" until changed, then a number).
 */
import { t } from '../../i18n'

/** "1" reads Yes, "0" No; anything else is shown as the service sent it. */
export function paidText(raw: string): string {
  if (raw === '1') return t('common.yes')
  if (raw === '0') return t('common.no')
  return raw === '' ? '—' : raw
}

/** "default" is the plan's own allocation; a number is one the account set. */
export function allocationText(value: string | number | undefined): string {
  if (value === undefined || value === 'default') return t('servers.allocationDefault')
  return t('servers.allocationSet', { num: String(value) })
}
