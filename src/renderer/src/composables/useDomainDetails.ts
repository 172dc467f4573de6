/**
 * The domain list's extra columns, joined from the account-wide lists the API provides
 * (nameservers, transfer lock, WHOIS privacy, DNSSEC): each read in full, with progress, a
 * failure of its own and a retry of its own, and looked up by domain name.
 */
import { computed, toRaw } from 'vue'
import type { ErrorData } from '../bridge'
import { locale, t } from '../i18n'
import { useList } from './useList'

const DETAIL_LISTS = ['domains.nameserver.list', 'domains.transferlock.list', 'domains.whois.list', 'domains.dnssec.list'] as const
type DetailList = (typeof DETAIL_LISTS)[number]

const onOff = (v: number | string | undefined) => (v === undefined ? '' : String(v) === '1' ? t('common.on') : String(v) === '0' ? t('common.off') : String(v))

export function useDomainDetails() {
  const lists = {
    'domains.nameserver.list': useList('domains.nameserver.list', {}),
    'domains.transferlock.list': useList('domains.transferlock.list', {}),
    'domains.whois.list': useList('domains.whois.list', {}),
    'domains.dnssec.list': useList('domains.dnssec.list', {}),
  }
  // Built from the raw items: through the reactive proxy every one of 10,000 items would be
  // wrapped on the way, in the same task as the list's arrival (a long task while scrolling).
  // Each list is replaced whole when read, which reading `state.data` still tracks.
  const byName = <T extends { domainname: string }>(items: readonly T[] | undefined) => new Map((toRaw(items) ?? []).map((i) => [i.domainname, i]))
  const ns = computed(() => byName(lists['domains.nameserver.list'].state.data))
  const lock = computed(() => byName(lists['domains.transferlock.list'].state.data))
  const whois = computed(() => byName(lists['domains.whois.list'].state.data))
  const dnssec = computed(() => byName(lists['domains.dnssec.list'].state.data))

  const nameservers = (name: string) => ns.value.get(name)?.ns.join(', ') ?? ''
  const transferLock = (name: string) => onOff(lock.value.get(name)?.transfer_lock)
  const whoisPrivacy = (name: string) => onOff(whois.value.get(name)?.whoisproxy)
  const dnssecText = (name: string) => {
    const d = dnssec.value.get(name)
    if (!d) return ''
    return d.ds_records.length ? t('domains.dnssecOn', { count: d.ds_records.length }) : t('common.off')
  }

  /** Changes whenever a detail list arrives or the language changes: what the table's rows are redrawn for. */
  const version = computed(() => [locale.value, ...DETAIL_LISTS.map((n) => lists[n].state.data)])
  /** Each domain's nameservers in lower case, made once per nameserver list, not once per row and keystroke. */
  const search = computed(() => new Map((toRaw(lists['domains.nameserver.list'].state.data) ?? []).map((i) => [i.domainname, i.ns.join(', ').toLowerCase()])))

  return {
    total: DETAIL_LISTS.length,
    version,
    /** Reads every list in full unless it is read or being read. */
    ensure() {
      for (const name of DETAIL_LISTS) lists[name].ensureAll()
    },
    loading: computed(() => DETAIL_LISTS.some((n) => lists[n].state.status === 'loading')),
    done: computed(() => DETAIL_LISTS.filter((n) => lists[n].state.status === 'done').length),
    failures: computed(() =>
      DETAIL_LISTS.flatMap((name): { name: DetailList; error: ErrorData }[] => {
        const s = lists[name].state
        return s.status === 'error' && s.error ? [{ name, error: s.error }] : []
      }),
    ),
    cancel() {
      for (const name of DETAIL_LISTS) lists[name].cancel()
    },
    retry(name: DetailList) {
      void lists[name].loadAll()
    },
    nameservers,
    transferLock,
    whoisPrivacy,
    dnssec: dnssecText,
    /** What the filter searches in a domain's details: its nameservers. */
    searchText: (name: string) => search.value.get(name) ?? '',
  }
}
