/**
 * The domain list's extra columns, joined from the account-wide lists the API provides
 * (nameservers, transfer lock, WHOIS privacy, DNSSEC): each read in full, with progress, a
 * failure of its own and a retry of its own, and looked up by domain name. Of the WHOIS list
 * main sends only each domain's privacy flag.
 */
import { computed, onScopeDispose, shallowRef, toRaw, watch, type ShallowRef } from 'vue'
import type { ErrorData } from '../data/bridge'
import { locale, t } from '../i18n'
import { useList } from './useList'
import { useAccountApi } from './useAccountApi'
import { useListsStore } from '../stores/lists'
import { slicedRunner, STEP, type Sliced } from '../lib/sliced'
import { nameserverTexts } from '../lib/text/nameserver-text'

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
 * A list's items looked up by domain name, taken over after they arrive: the answer's arrival (the
 * WHOIS list is 10 MB, parsed as it crosses from main) is one task, and the map by name is made in
 * the tasks after it, in slices (100,000 domains: 40 ms a map made at once, issue 54), the rows in
 * view drawn again once it is whole, instead of all in one task of over 50 ms while the user
 * scrolls (issue 40). `valuesOf` gives each list taken over a mapper of its own, so what a mapper shares
 * between items (nameserverTexts) goes with its list.
 */
function takenOverAfterArrival<T extends { domainname: string }, V>(
  items: () => readonly T[] | undefined,
  valuesOf: () => (item: T) => V,
): ShallowRef<ReadonlyMap<string, V>> {
  // Made from the raw items: through the reactive proxy every one of them would be wrapped on the
  // way. Each list is replaced whole when read, which the shallow ref of its items still tracks.
  function* byName(list: readonly T[] | undefined): Sliced<Map<string, V>> {
    const map = new Map<string, V>()
    const valueOf = valuesOf()
    const raw = toRaw(list) ?? []
    for (let i = 0; i < raw.length; i++) {
      map.set(raw[i]!.domainname, valueOf(raw[i]!))
      if (i % STEP === STEP - 1) yield
    }
    return map
  }
  const taken = shallowRef<ReadonlyMap<string, V>>(new Map())
  const runner = slicedRunner(() => {})
  const takeOver = (map: Map<string, V>) => (taken.value = map)
  // Items already read (the screen opened again): at once when short, else in slices from now.
  runner.run(byName(items()), takeOver)
  watch(items, (arrived) => {
    setTimeout(() => runner.run(byName(arrived), takeOver), 0)
  })
  onScopeDispose(() => runner.stop())
  return taken
}

/** The item as it came: what the transfer lock, WHOIS and DNSSEC columns look up by name. */
const itself = <T>(item: T): T => item

export function useDomainDetails() {
  const lists = {
    'domains.nameserver.list': useList('domains.nameserver.list', {}),
    'domains.transferlock.list': useList('domains.transferlock.list', {}),
    // Only each domain's flag, not the WHOIS list with its contacts (10 MB for 10,000 domains,
    // whose arrival and heap made long tasks while the list was scrolled: issue 40).
    'domains.whois.list': useListsStore().whoisPrivacy(useAccountApi()),
    'domains.dnssec.list': useList('domains.dnssec.list', {}),
  }
  // The text shown and its lower case for the filter: one pair per distinct set of nameservers, not per row and keystroke.
  const ns = takenOverAfterArrival(
    () => lists['domains.nameserver.list'].state.data,
    () => {
      const textOf = nameserverTexts()
      return (i) => textOf(i.ns)
    },
  )
  const lock = takenOverAfterArrival(
    () => lists['domains.transferlock.list'].state.data,
    () => itself,
  )
  const whois = takenOverAfterArrival(
    () => lists['domains.whois.list'].state.data,
    () => itself,
  )
  const dnssec = takenOverAfterArrival(
    () => lists['domains.dnssec.list'].state.data,
    () => itself,
  )

  const nameservers = (name: string) => ns.value.get(name)?.text ?? ''
  const transferLock = (name: string) => onOff(lock.value.get(name)?.transfer_lock)
  const whoisPrivacy = (name: string) => onOff(whois.value.get(name)?.whoisproxy)
  const dnssecText = (name: string) => {
    const d = dnssec.value.get(name)
    if (!d) return ''
    return d.ds_records.length ? t('domains.dnssecOn', { count: d.ds_records.length }) : t('common.off')
  }

  /** Changes whenever a detail list arrives or the language changes: what the table's rows are redrawn for. */
  const version = computed(() => [locale.value, ns.value, lock.value, whois.value, dnssec.value])

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
    searchText: (name: string) => ns.value.get(name)?.search ?? '',
  }
}

/** The detail lists of the domain list as the view and its parts hold them. */
export type DomainDetails = ReturnType<typeof useDomainDetails>
