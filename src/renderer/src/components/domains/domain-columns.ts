/**
 * The domain list's columns: the list's own fields and the ones read from the account-wide
 * detail lists (useDomainDetails). Which of them give way in a narrow window, and which the user
 * may show or hide (all but the domain's name).
 */
import type { Column } from '../data-table-column'
import type { DomainListItem } from '@shared/endpoints/decoders'
import { domainAutorenew } from '@shared/service/autorenew'
import { autorenewRaw, autorenewShort } from '../../lib/text/autorenew-text'
import { t } from '../../i18n'
import type { MessageKey } from '@shared/i18n/catalogue'

interface DetailReader {
  nameservers(domain: string): string | undefined
  transferLock(domain: string): string | undefined
  whoisPrivacy(domain: string): string | undefined
  dnssec(domain: string): string | undefined
}

/**
 * The columns whose values the detail lists bring, with their names inside the loading line's sentence
 * (and the failure's), and the list each is read from.
 */
export const DETAIL_COLUMNS: readonly { key: string; part: MessageKey; list: string }[] = [
  { key: 'ns', part: 'domains.detailsPart.ns', list: 'domains.nameserver.list' },
  { key: 'transfer_lock', part: 'domains.detailsPart.transfer_lock', list: 'domains.transferlock.list' },
  { key: 'whoisproxy', part: 'domains.detailsPart.whoisproxy', list: 'domains.whois.list' },
  { key: 'dnssec', part: 'domains.detailsPart.dnssec', list: 'domains.dnssec.list' },
]

/** The one column that never hides: a row is its domain. */
export const FIXED_COLUMN = 'domainname'

export function domainColumns(details: DetailReader): Column<DomainListItem>[] {
  return [
    {
      key: FIXED_COLUMN,
      label: t('domains.domainname'),
      sortable: true,
      link: (d) => `/domains/${encodeURIComponent(d.domainname)}`,
      width: '13rem',
    },
    // The domain a fixed 13rem: names of 24 characters whole at 1024. The registrar and WHOIS privacy give way below
    // 1200 px of table (a 1280 px window): the nameservers need the room to be read whole (issue 39), and the settings
    // screen lists them all. The Columns menu says what gave way and brings it back (issue 53).
    { key: 'registrar', label: t('domains.registrar'), sortable: true, hideBelow: 1200 },
    // A date with its flag below it ("Expires in 22 days"), each whole.
    { key: 'expirationdate', label: t('domains.expirationdate'), sortable: true, width: '10rem' },
    {
      key: 'autorenew',
      label: t('domains.autorenew'),
      // Wide enough for "On (own setting)" and 「オン(全体と個別)」.
      width: '10rem',
      format: (d) => autorenewShort(domainAutorenew(d)),
      title: (d) => autorenewRaw(d, 'autorenew_domain', d.autorenew_domain),
    },
    {
      key: 'ns',
      label: t('domains.nameservers'),
      sortable: true,
      value: (d) => details.nameservers(d.domainname),
      // One to a line, two lines to a row: whole in a row of one height. The cell's own text, not a span in it
      // (one element fewer in every row a scroll brings in and takes out, issue 54).
      format: (d) => nsLines(details.nameservers(d.domainname)),
      cellClass: 'ns-lines',
      hideBelow: 700,
      width: '13.5rem',
    },
    {
      key: 'transfer_lock',
      label: t('domains.transferLock'),
      sortable: true,
      value: (d) => details.transferLock(d.domainname),
      hideBelow: 940,
    },
    {
      key: 'whoisproxy',
      label: t('domains.whoisPrivacy'),
      sortable: true,
      value: (d) => details.whoisPrivacy(d.domainname),
      hideBelow: 1200,
    },
    {
      key: 'dnssec',
      label: t('domains.dnssec'),
      sortable: true,
      value: (d) => details.dnssec(d.domainname),
      hideBelow: 940,
      width: '9.5rem',
    },
  ]
}

/** The nameservers as two lines, and how many more there are: "ns1…\nns2… +2". */
function nsLines(joined: string | undefined): string {
  const names = (joined ?? '').split(', ').filter(Boolean)
  if (names.length === 0) return joined ?? ''
  const more = names.length - 2
  return `${names.slice(0, 2).join('\n')}${more > 0 ? ` ${t('domains.nsMore', { count: more })}` : ''}`
}
