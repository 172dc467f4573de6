import type { Column } from '../data-table-column'
import type { TransferRequest } from '@shared/endpoints/decoders'
import { formatDate, formatDateTime, t } from '../../i18n'
import { transferStatusText } from '../../lib/text/service-value-text'

/**
 * The columns a transfer reads the same in wherever it is listed (one domain's tab, the account's
 * transfers): its id, its status in the user's words (the service's word on hover), when it began and
 * when the domain expires. Call inside a computed so the labels follow the language.
 */
export function transferColumns(): Column<TransferRequest>[] {
  return [
    { key: 'transferorderid', label: t('domain.transferId'), sortable: true },
    {
      key: 'status',
      label: t('domain.status'),
      sortable: true,
      value: (tr) => transferStatusText(tr.status).text,
      title: (tr) => t('serviceValue.rawTitle', { raw: tr.status }),
    },
    { key: 'starttime', label: t('domain.started'), sortable: true, format: (tr) => formatDateTime(tr.starttime) },
    {
      key: 'expirationdate',
      label: t('domains.expirationdate'),
      sortable: true,
      format: (tr) => formatDate(tr.expirationdate),
    },
  ]
}
