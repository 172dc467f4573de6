/**
 * The domain list's extra columns, joined from the account-wide lists the API provides
 * (nameservers, transfer lock, WHOIS privacy, DNSSEC): each read in full, with progress, a
 * failure of its own and a retry of its own, and looked up by domain name. Of the WHOIS list
 * main sends only each domain's privacy flag.
 */
import { computed, shallowRef, toRaw, watch, type ShallowRef } from 'vue'
import type { ErrorData } from '../data/bridge'
import { locale, t } from '../i18n'
import { useList } from './useList'
import { useAccountApi } from './useAccountApi'
import { useListsStore } from '../stores/lists'

const DETAIL_LISTS = [
  'domains.nameserver.list',
  'domains.transferlock.list',
  'domains.whois.list',
  'domains.dnssec.list',
] as const
type DetailList = (typeof DETAIL_LISTS)[number]

const onOff = (v: number | string | undefined) =>
  v === undefined ? '' : String(v) === '1' ? t('common.on') : String(v) === '0' ? t('common.off') : String(v)

/**
 * A list's items as the table uses them, taken over in a task of its own after they arrive: the
 * answer's arrival (the WHOIS list is 10 MB, parsed as it crosses from main) is one task, and the
 * lookup by name of its 10,000 items with the rows in view drawn again is the next, instead of
 * both in one task of over 50 ms while the user scrolls (issue 40).
 */
function takenOverAfterArrival<T>(items: () => T | undefined): ShallowRef<T | undefined> {
  const taken = shallowRef(items())
  watch(items, (arrived) => {
    setTimeout(() => (taken.value = arrived), 0)
  })
  return taken
}

export function useDomainDetails() {
  const lists = {
    'domains.nameserver.list': useList('domains.nameserver.list', {}),
    'domains.transferlock.list': useList('domains.transferlock.list', {}),
    // Only each domain's flag, not the WHOIS list with its contacts (10 MB for 10,000 domains,
    // whose arrival and heap made long tasks while the list was scrolled: issue 40).
    'domains.whois.list': useListsStore().whoisPrivacy(useAccountApi()),
    'domains.dnssec.list': useList('domains.dnssec.list', {}),
  }
  // Built from the raw items: through the reactive proxy every one of 10,000 items would be
  // wrapped on the way, in the same task as the list's arrival (a long task while scrolling).
  // Each list is replaced whole when read, which the shallow ref of its items still tracks.
  const byName = <T extends { domainname: string }>(items: readonly T[] | undefined) =>
    new Map((toRaw(items) ?? []).map((i) => [i.domainname, i]))
  const shown = {
    'domains.nameserver.list': takenOverAfterArrival(() => lists['domains.nameserver.list'].state.data),
    'domains.transferlock.list': takenOverAfterArrival(() => lists['domains.transferlock.list'].state.data),
    'domains.whois.list': takenOverAfterArrival(() => lists['domains.whois.list'].state.data),
    'domains.dnssec.list': takenOverAfterArrival(() => lists['domains.dnssec.list'].state.data),
  }
  const ns = computed(() => byName(shown['domains.nameserver.list'].value))
  const lock = computed(() => byName(shown['domains.transferlock.list'].value))
  const whois = computed(() => byName(shown['domains.whois.list'].value))
  const dnssec = computed(() => byName(shown['domains.dnssec.list'].value))

  const nameservers = (name: string) => ns.value.get(name)?.ns.join(', ') ?? ''
  const transferLock = (name: string) => onOff(lock.value.get(name)?.transfer_lock)
  const whoisPrivacy = (name: string) => onOff(whois.value.get(name)?.whoisproxy)
  const dnssecText = (name: string) => {
    const d = dnssec.value.get(name)
    if (!d) return ''
    return d.ds_records.length ? t('domains.dnssecOn', { count: d.ds_records.length }) : t('common.off')
  }

  /** Changes whenever a detail list arrives or the language changes: what the table's rows are redrawn for. */
  const version = computed(() => [locale.value, ...DETAIL_LISTS.map((n) => shown[n].value)])
  /** Each domain's nameservers in lower case, made once per nameserver list, not once per row and keystroke. */
  const search = computed(
    () =>
      new Map(
        (toRaw(shown['domains.nameserver.list'].value) ?? []).map((i) => [i.domainname, i.ns.join(', ').toLowerCase()]),
      ),
  )

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
