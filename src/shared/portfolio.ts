/**
 * The portfolio store's public shapes. Plain data, so the IPC layer can pass them on as they
 * are; problems are codes with parameters, worded by the renderer.
 */
import { PAGED_ENDPOINT_NAMES as PAGED_NAMES, type PagedEndpointName } from './endpoints/names'
import type { PagedInput, PagedItem } from './endpoints/table'
import type { ServerKind } from './constants'
import type { HistoryStore } from './history'
import type { ReminderItemKind } from './reminders'

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

export type StoreProblem =
  /** The file was not a usable store (not a database, damaged, another program's): kept aside, a new one made. */
  | { code: 'store.movedAside'; params: { movedTo: string; reason: MovedAsideReason } }
  /** The file was written by a newer version of the app: left alone, this run keeps its store in memory. */
  | { code: 'store.newerSchema'; params: { version: number; supported: number } }
  /** No store could be made in the data folder (a permission, a full disk): this run keeps it in memory. */
  | { code: 'store.unavailable'; params: { path: string; reason: string } }
  /** A row that could not be read back, left out. */
  | { code: 'store.rowSkipped'; params: { table: string; accountId: string; list: string; key: string } }

/** One reminder recorded as sent: which item of which account, for which expiry date and threshold. */
export interface SentReminder {
  accountId: string
  itemKind: ReminderItemKind
  /** The item's key (see reminderItemKey). */
  itemKey: string
  /** YYYY-MM-DD. */
  expires: string
  /** Days before expiry. */
  threshold: number
}

export type MovedAsideReason = 'notADatabase' | 'damaged' | 'foreign' | 'unreadable'

export interface OpenOptions {
  /** The clock of the moved-aside file's name (tests). */
  now?: () => Date
  /** Told about every problem: the one of opening (also in `problem`) and each row skipped. */
  onProblem?: (problem: StoreProblem) => void
  /**
   * Check the file with SQLite's quick_check before use (default true). It reads every page:
   * tens of milliseconds for a large portfolio, once per start.
   */
  integrityCheck?: boolean
}

export interface PortfolioStore {
  /** The database file (':memory:' when the data folder could not be used). */
  readonly file: string
  /** What went wrong when it was opened, if anything. */
  readonly problem: StoreProblem | undefined

  /** Replaces a list's rows in one transaction. */
  putList<N extends StoredListName>(
    accountId: string,
    name: N,
    params: ListParams<N>,
    items: readonly PagedItem<N>[],
    readAt: string,
    opts?: { complete?: boolean },
  ): ListChange
  getList<N extends StoredListName>(accountId: string, name: N, params: ListParams<N>): StoredList<N> | undefined
  /** The same, for what crosses the IPC boundary: parameters and items checked here. */
  keepList(accountId: string, name: StoredListName, params: Readonly<Record<string, unknown>>, items: readonly unknown[], readAt: string): ListChange
  readList(accountId: string, name: StoredListName, params: Readonly<Record<string, unknown>>): StoredList<StoredListName> | undefined
  /** One item of an account-wide list by its identity (a domain name), when the list is stored. */
  readListItem(accountId: string, name: StoredListName, key: string): PagedItem<StoredListName> | undefined
  /** Reads a list the screens open on into main's parsed copy ahead of the window asking (at start). */
  warm(accountId: string, name: StoredListName, params: Readonly<Record<string, unknown>>): void

  /** Writes a zone read on its own; answers how many changes this app did not make were recorded. */
  putZone(accountId: string, kind: ZoneKind, domain: string, zone: ZoneInput, readAt: string): number
  getZone(accountId: string, kind: ZoneKind, domain: string): StoredZone | undefined
  listZones(accountId?: string): ZoneSummary[]

  /** Every row of the account: lists, zones and search entries. */
  removeAccount(accountId: string): void

  /** Across accounts: exact, then prefix, then substring matches (3 characters or more); domains first, records last. */
  search(query: string, limit?: number): SearchHit[]

  /** Every stored domain of every account with its settings, as CSV (header first, CRLF lines). */
  exportCsv(opts?: { accountNames?: Readonly<Record<string, string>> }): string
  /** Every stored zone as a BIND zone file. */
  exportZones(): ZoneFile[]

  /** What happened to each subject: writes from this app, changes from outside, zone snapshots. */
  readonly history: HistoryStore
  /** The number the service writes for an auto-renewal setting that is on, in this account's stored lists (10 on the live service); undefined when none is on. */
  autorenewOnValue(accountId: string): number | undefined
  // reminders
  /** A setting main keeps without a window, as the text it was saved as; undefined when never saved. */
  getSetting(key: string): string | undefined
  putSetting(key: string, value: string): void
  /** Every reminder recorded as sent. */
  remindersSent(): SentReminder[]
  /** Records reminders as sent (at: ISO time), and forgets those of expiry dates before `today` (YYYY-MM-DD). */
  recordReminders(sent: readonly SentReminder[], at: string, today: string): void

  close(): void
}

/** The names the store keeps, for checking a name that crosses a boundary. */
export const isStoredList = (v: unknown): v is StoredListName => typeof v === 'string' && v !== 'logs.list' && (PAGED_NAMES as readonly string[]).includes(v)
