/** The bulk DNS screen's words for a zone's kind. */
import type { ZoneRef } from '../data/bulk-dns'
import { t } from '../../i18n'

export const zoneKindText = (z: Pick<ZoneRef, 'kind'>) =>
  t(z.kind === 'dns' ? 'bulkDns.kindDns' : 'bulkDns.kindFreeDns')
