/**
 * The portfolio store's public shapes. Plain data, so the IPC layer can pass them on as they
 * are; problems are codes with parameters, worded by the renderer.
 */
import { PAGED_ENDPOINT_NAMES as PAGED_NAMES, type PagedEndpointName } from '../endpoints/names'
import type { PagedInput, PagedItem } from '../endpoints/table'
import type { ServerKind } from '../service/constants'
import type { HealthFinding } from '../dns/health/rules'
import type { ServedResult } from '../dns/health/served'

/**
 * The lists the store keeps: every paged list but the API log, which is not inventory (it is
 * read a page at a time, newest first) and whose request bodies carry what was sent, transfer
 * codes and dynamic DNS passwords included.
 */
export type StoredListName = Exclude<PagedEndpointName, 'logs.list'>

/**
 * Which list of that name: the server kind, or the domain of a per-domain list; the same
 * parameters the list was read with. `order` is accepted and ignored: the same items in
 * another order are the same list, kept in the order last read.
 */
export type ListParams<N extends StoredListName> = PagedInput<N>

export interface ListChange {
  added: number
  changed: number
  removed: number
  /** Items whose identity came twice in what was read (pages shifting under a read); the first is kept. */
  duplicates: number
  /** Changes this app did not make, recorded in history as changed outside (watched lists only). */
  drift: number
  /** Which they were (at most 100 named): shared with the team in team mode. */
  findings?: DriftFinding[] | undefined
}

/** A change from outside this app, as a refresh found it: whose, and which part of it. */
export interface DriftFinding {
  subjectKind: string
  subject: string
  aspect: string
  at: string
}

export interface StoredList<N extends StoredListName> {
  items: PagedItem<N>[]
  /** When the list was read (ISO 8601, UTC), as given to putList. */
  readAt: string
  /** Whether every page of it was read. */
  complete: boolean
  /** Rows that could not be read back (damaged in the file): left out and reported. */
  skipped: number
}

/**
 * Items a stored list is carried to the window in: one IPC message of 100,000 rows blocks the
 * window's main thread for its copy and its first processing (issue 54), a part of this many does not.
 */
export const STORED_PART_SIZE = 2_000
/**
 * A longer list's first part: a few screens of rows, what the first paint draws from. The window
 * paints the list as it is so far from the first part (and the rest as it comes): its arrival, sort
 * and counts were the task of the domain list's first paint, some 4 ms less of its main thread at 500
 * rows than at 2,000 (issue 54: bench/first-paint-profile.ts, 10.5-13.1 against 15.5-17.3 ms). A list
 * of STORED_PART_SIZE or fewer still comes whole in one part: it is never drawn twice.
 */
export const STORED_FIRST_PART_SIZE = 500
/** A stored list's parts are bounded, as the rows a list holds are. */
export const STORED_PARTS_MAX = 1_000

/** One part of a stored list (see STORED_FIRST_PART_SIZE and STORED_PART_SIZE), and how many parts the list has. */
export interface StoredListPart<N extends StoredListName> extends StoredList<N> {
  part: number
  parts: number
}

export const ZONE_KINDS = ['dns', 'freedns'] as const
export type ZoneKind = (typeof ZONE_KINDS)[number]

export interface ZoneInput {
  records: string
  ttl?: number | undefined
  ns_type?: string | undefined
}

export interface StoredZone {
  records: string
  ttl?: number | undefined
  ns_type?: string | undefined
  readAt: string
}

/** A zone of the store with its health findings (the offline rules: src/shared/dns/health). */
export interface ZoneHealth {
  accountId: string
  kind: ZoneKind
  domain: string
  readAt: string
  findings: HealthFinding[]
}

/**
 * The Health screen's picture of the portfolio (issue 53 point 2): the findings of every zone the
 * store holds, each zone's last comparison with its nameservers, and what was read: how many of
 * the accounts' zones, and when the oldest was.
 */
export interface HealthOverview {
  zones: ZoneHealth[]
  served: ServedResult[]
  /** Zones whose records the store holds, of the accounts asked. */
  zonesRead: number
  /** Zones the accounts are known to have: their domains (as last listed) and free DNS zones. */
  zonesKnown: number
  /** When the zone read longest ago was read. */
  oldestReadAt?: string | undefined
}

export interface ZoneSummary {
  accountId: string
  kind: ZoneKind
  domain: string
  /** How many lines of `records` are records (not blank lines or comments). */
  recordCount: number
  ttl?: number | undefined
  ns_type?: string | undefined
  readAt: string
}

/** In this order in the results: domains before servers, ..., records last. */
export const SEARCH_KINDS = ['domain', 'server', 'svcip', 'freedns', 'record'] as const
export type SearchKind = (typeof SEARCH_KINDS)[number]

/** What matched: an item's name, a record's host (as a full name) or a record's value. */
export const SEARCH_FIELDS = ['name', 'host', 'value'] as const
export type SearchField = (typeof SEARCH_FIELDS)[number]

export const MATCH_KINDS = ['exact', 'prefix', 'substring'] as const
export type MatchKind = (typeof MATCH_KINDS)[number]

export interface SearchHit {
  accountId: string
  kind: SearchKind
  /**
   * What identifies it: the domain name (domain, free DNS, record), the webid (server) or the
   * vipid (svcip). A server's page opens by its name, the label, where that can stand in a path.
   */
  key: string
  /** What to show: the domain name, the server's webname or the svcip's vipname. */
  label: string
  /** A record's line as the zone has it; a svcip's linked domain. */
  detail?: string | undefined
  /** The server kind of a server. */
  serverKind?: ServerKind | undefined
  /** The zone of a record. */
  zone?: ZoneKind | undefined
  field: SearchField
  match: MatchKind
}

/** One BIND zone file of exportZones(). */
export interface ZoneFile {
  /** `<account>/<domain>.zone`; free DNS zones as `<account>/freedns/<domain>.zone`. */
  path: string
  text: string
  accountId: string
  kind: ZoneKind
  domain: string
  /** Lines that BIND could not be given (src/shared/dns/bind.ts codes). */
  notExported: number
}

/** The names the store keeps, for checking a name that crosses a boundary. */
export const isStoredList = (v: unknown): v is StoredListName =>
  typeof v === 'string' && v !== 'logs.list' && PAGED_NAMES.some((n) => n === v)
