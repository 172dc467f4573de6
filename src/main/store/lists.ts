/**
 * What the app knows of each list it keeps, in one record complete by type: the schema its
 * items are read back with (the endpoint table's own item schema), what identifies an item,
 * which parameters tell one list of that name from another, what the list gives the search
 * index and the zones, whether a refresh of the account reads it, and which aspect of its items
 * is watched for changes from outside (drift), whose members are also a write's value before.
 *
 * Written out per list rather than derived in a loop: each entry is then type-checked against
 * that list's item type, which is what lets getList return `PagedItem<N>` without a cast.
 */
import { z } from 'zod'
import { endpoints, parseEndpointParams, type PagedItem } from '@shared/endpoints/table'
import { PAGED_ENDPOINT_NAMES } from '@shared/endpoints/names'
import { AppError } from '../base/app-error'
import { nameEntry, type SearchEntry } from './search-index'
import type { ListParams, StoredListName, ZoneInput, ZoneKind } from '@shared/portfolio'
import type { HistoryAspect, SubjectKind } from '@shared/portfolio/history'

/** The parameters that name a list, once validated. */
export interface ListIdentity {
  kind?: string | undefined
  domain?: string | undefined
}

/** An aspect of a list's items that a refresh watches for changes made outside this app. */
export interface WatchedAspect {
  subjectKind: SubjectKind
  aspect: HistoryAspect
  /**
   * The item's members that make the aspect's value: compared for drift, and read as the value
   * before a write of that aspect (src/main/jobs/operations.ts names the list as `before`).
   */
  fields: readonly string[]
}

/**
 * Which lists one of that name is, and whether a refresh reads it: only an account-wide list
 * (no parameters) is read by the account's refresh, which reads every list with none.
 */
type ListReach =
  | { params: readonly []; refresh: boolean }
  | { params: readonly [keyof ListIdentity, ...(keyof ListIdentity)[]]; refresh: false }

export type ListSpec<N extends StoredListName> = ListReach & {
  item: z.ZodType<PagedItem<N>>
  /**
   * The item as this store wrote it (the item schema's output: numbers as numbers, text as
   * text), checked on reading instead of `item` where given: the same shape, without the
   * service's alternatives and their conversions, which cost a 10,000-item read a third of its
   * time. Typed as the item, so that it cannot drift from what `item` gives. A function, not a
   * schema: a schema's parse makes a few objects per item (its result, its context), and at
   * 100,000 items that garbage brought the young generation's collections in the middle of the
   * read, each copying the items parsed so far (a quarter of the read's time).
   * Undefined when the value is not such an item.
   */
  stored?: (value: unknown) => PagedItem<N> | undefined
  key: (item: PagedItem<N>) => string
  /**
   * What a change to the list from outside this app is (drift, recorded in history), when a
   * refresh watches it: only account-wide lists are.
   */
  watch: WatchedAspect | null
  /** What the command palette finds this item by. */
  entries?: (item: PagedItem<N>, identity: ListIdentity) => SearchEntry[]
  /** A list whose items are zones: they are kept as zones too (search, exportZones). */
  zone?: {
    kind: ZoneKind
    of: (item: PagedItem<N>) => { domain: string; zone: ZoneInput }
    /** The item with a zone read on its own (putZone), so the list shows it too. */
    with: (item: PagedItem<N>, zone: ZoneInput) => PagedItem<N>
  }
}

/**
 * A domain as this store wrote it, checked where it lies: an object schema's answer is a copy,
 * and 100,000 copies beside the 100,000 parsed objects made the read of that many domains spend
 * much of its time collecting them. Each member is named where it is read: read by a name from
 * a list of names (Reflect.get), each took a lookup of its own, five times the check's time.
 */
function isStoredDomain(v: unknown): v is PagedItem<'domains.list'> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  return (
    'domainid' in v &&
    typeof v.domainid === 'number' &&
    'domainname' in v &&
    typeof v.domainname === 'string' &&
    'registrar' in v &&
    typeof v.registrar === 'string' &&
    'expirationdate' in v &&
    typeof v.expirationdate === 'string' &&
    (!('autorenew' in v) || v.autorenew === undefined || typeof v.autorenew === 'number') &&
    (!('autorenew_all' in v) || v.autorenew_all === undefined || typeof v.autorenew_all === 'number') &&
    (!('autorenew_domain' in v) || v.autorenew_domain === undefined || typeof v.autorenew_domain === 'number')
  )
}

/** The domain with its own members only: a member an earlier version stored (and this one no longer knows) is left out. */
function onlyDomainMembers(d: PagedItem<'domains.list'>): PagedItem<'domains.list'> {
  let members = 0
  for (const _ in d) members++
  const known = 4 + ('autorenew' in d ? 1 : 0) + ('autorenew_all' in d ? 1 : 0) + ('autorenew_domain' in d ? 1 : 0)
  if (members === known) return d
  const { domainid, domainname, registrar, expirationdate, autorenew, autorenew_all, autorenew_domain } = d
  return {
    domainid,
    domainname,
    registrar,
    expirationdate,
    ...(autorenew !== undefined ? { autorenew } : {}),
    ...(autorenew_all !== undefined ? { autorenew_all } : {}),
    ...(autorenew_domain !== undefined ? { autorenew_domain } : {}),
  }
}

const byDomain = { key: (i: { domainname: string }) => i.domainname, params: [] } as const

export const LIST_SPECS: { [N in StoredListName]: ListSpec<N> } = {
  'servers.list': {
    item: endpoints['servers.list'].result.element,
    key: (s) => s.webid,
    params: ['kind'],
    refresh: false,
    watch: null,
    entries: (s, p) => nameEntry('server', s.webname, s.webid, { scope: p.kind }),
  },
  'servers.expiration.list': {
    item: endpoints['servers.expiration.list'].result.element,
    key: (s) => s.webid,
    params: ['kind'],
    refresh: false,
    watch: null,
  },
  'servers.autorenew.list': {
    item: endpoints['servers.autorenew.list'].result.element,
    key: (s) => s.webid,
    params: ['kind'],
    refresh: false,
    watch: null,
  },
  'svcips.list': {
    item: endpoints['svcips.list'].result.element,
    key: (v) => v.vipid,
    params: [],
    refresh: false,
    watch: null,
    entries: (v) => nameEntry('svcip', v.vipname, v.vipid, v.domainname ? { detail: v.domainname } : {}),
  },
  'domains.list': {
    item: endpoints['domains.list'].result.element,
    stored: (v) => (isStoredDomain(v) ? onlyDomainMembers(v) : undefined),
    ...byDomain,
    refresh: true,
    watch: { subjectKind: 'domain', aspect: 'expiration', fields: ['expirationdate'] },
    entries: (d) => nameEntry('domain', d.domainname, d.domainname),
  },
  // One domain may have had several transfer requests: the order id tells them apart.
  'domains.transfer.list': {
    item: endpoints['domains.transfer.list'].result.element,
    key: (t) => `${t.domainname} ${t.transferorderid}`,
    params: [],
    refresh: false,
    watch: null,
  },
  'domains.transfer.listForDomain': {
    item: endpoints['domains.transfer.listForDomain'].result.element,
    key: (t) => t.transferorderid,
    params: ['domain'],
    refresh: false,
    watch: null,
  },
  'domains.expiration.list': {
    item: endpoints['domains.expiration.list'].result.element,
    ...byDomain,
    refresh: true,
    watch: { subjectKind: 'domain', aspect: 'expiration', fields: ['expirationdate'] },
  },
  'domains.autorenew.list': {
    item: endpoints['domains.autorenew.list'].result.element,
    ...byDomain,
    refresh: true,
    watch: { subjectKind: 'domain', aspect: 'autorenew', fields: ['autorenew', 'autorenew_all', 'autorenew_domain'] },
  },
  'domains.transferlock.list': {
    item: endpoints['domains.transferlock.list'].result.element,
    ...byDomain,
    refresh: true,
    watch: { subjectKind: 'domain', aspect: 'transferlock', fields: ['transfer_lock'] },
  },
  'domains.whois.list': {
    item: endpoints['domains.whois.list'].result.element,
    ...byDomain,
    refresh: true,
    watch: { subjectKind: 'domain', aspect: 'whois', fields: ['whoisproxy', 'contact'] },
  },
  'domains.nameserver.list': {
    item: endpoints['domains.nameserver.list'].result.element,
    ...byDomain,
    refresh: true,
    watch: { subjectKind: 'domain', aspect: 'nameservers', fields: ['ns'] },
  },
  'domains.dns.list': {
    item: endpoints['domains.dns.list'].result.element,
    ...byDomain,
    refresh: true,
    watch: { subjectKind: 'domain', aspect: 'dns', fields: ['records', 'ttl', 'ns_type'] },
    zone: {
      kind: 'dns',
      of: (d) => ({ domain: d.domainname, zone: { records: d.records, ttl: d.ttl, ns_type: d.ns_type } }),
      with: (d, z) => ({ ...d, records: z.records, ttl: z.ttl, ns_type: z.ns_type ?? d.ns_type }),
    },
  },
  'domains.dynamicdns.list': {
    item: endpoints['domains.dynamicdns.list'].result.element,
    ...byDomain,
    refresh: true,
    watch: null,
  },
  'domains.dnssec.list': {
    item: endpoints['domains.dnssec.list'].result.element,
    ...byDomain,
    refresh: true,
    watch: null,
  },
  'domains.privatenameserver.list': {
    item: endpoints['domains.privatenameserver.list'].result.element,
    key: (n) => n.hostname,
    params: ['domain'],
    refresh: false,
    watch: null,
  },
  'domains.localtransfer.list': {
    item: endpoints['domains.localtransfer.list'].result.element,
    ...byDomain,
    refresh: false,
    watch: null,
  },
  'freedns.list': {
    item: endpoints['freedns.list'].result.element,
    ...byDomain,
    refresh: true,
    watch: { subjectKind: 'freedns', aspect: 'dns', fields: ['records', 'ttl'] },
    entries: (f) => nameEntry('freedns', f.domainname, f.domainname),
    zone: {
      kind: 'freedns',
      of: (f) => ({ domain: f.domainname, zone: { records: f.records, ttl: f.ttl } }),
      with: (f, z) => ({ ...f, records: z.records, ttl: z.ttl }),
    },
  },
  'freedns.localtransfer.list': {
    item: endpoints['freedns.localtransfer.list'].result.element,
    ...byDomain,
    refresh: false,
    watch: null,
  },
}

export const STORED_LIST_NAMES: readonly StoredListName[] = PAGED_ENDPOINT_NAMES.filter(
  (n): n is StoredListName => n in LIST_SPECS,
)
/**
 * The account-wide lists a refresh of the account reads, in the endpoint table's order: every
 * list the screens, drift and reminders rely on.
 */
export const REFRESHED_LISTS: readonly StoredListName[] = STORED_LIST_NAMES.filter((n) => LIST_SPECS[n].refresh)

const identitySchema = z.object({ kind: z.string().optional(), domain: z.string().optional() })

/**
 * The parameters that name the list, validated with the endpoint's own schema (a domain given
 * by id or name, a server kind), and their text form: the key of the list's rows.
 */
export function listIdentity<N extends StoredListName>(
  name: N,
  params: ListParams<N>,
): { identity: ListIdentity; key: string } {
  const parsed = parseEndpointParams(name, params)
  if (!parsed.ok) throw AppError.invalid('store.invalidParams', parsed.issues, { list: name })
  const all = identitySchema.parse(parsed.value)
  const identity: ListIdentity = {}
  for (const p of LIST_SPECS[name].params) identity[p] = all[p]
  return { identity, key: LIST_SPECS[name].params.length === 0 ? '' : JSON.stringify(identity) }
}

/**
 * Members that are the user's secrets: the transfer code of the transfer-lock list, the
 * dynamic DNS password. Never written to the file; an item read back has them empty.
 */
const SECRET_MEMBERS: ReadonlySet<string> = new Set(['authcode', 'password'])

/**
 * An item as it is written: without its secrets, its members in a fixed order, so the same
 * item always gives the same text and "changed" means the item changed.
 */
export function storedJson(value: unknown): string {
  return JSON.stringify(stored(value))
}

function stored(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stored)
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(value).sort()) {
    if (SECRET_MEMBERS.has(k)) continue
    out[k] = stored(Reflect.get(value, k))
  }
  return out
}
