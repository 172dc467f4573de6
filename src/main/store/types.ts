/**
 * The portfolio store's own interface, as main uses it (the shapes that cross IPC stay in
 * src/shared/portfolio/index.ts and src/shared/portfolio/history.ts): the store, its history part, what it is
 * told and what can go wrong when it is opened.
 */
import type { ServedFinding, ServedResult } from '@shared/dns/health/served'
import type { PagedItem } from '@shared/endpoints/table'
import type { HistoryEntry, Snapshot, SnapshotSummary, SubjectKind, WriteOutcome } from '@shared/portfolio/history'
import type { ReminderItemKind } from '@shared/portfolio/reminders'
import type { WhoisPrivacyItem } from '@shared/ipc/whois-privacy'
import type { ListPart, WholeList } from './list-parts'
import type {
  ListChange,
  ListParams,
  SearchHit,
  StoredList,
  StoredListPart,
  StoredListName,
  StoredZone,
  ZoneFile,
  ZoneInput,
  ZoneKind,
  ZoneSummary,
} from '@shared/portfolio'

export interface HistoryQuery {
  accountId: string
  subjectKind?: SubjectKind | undefined
  subject?: string | undefined
  /** Only changes from outside. */
  outsideOnly?: boolean | undefined
  limit?: number | undefined
}

/**
 * A write made from this app, as the job runner's observer records it when the item ends: the
 * history entry it becomes, with what a write always has (the operation, what was sent, how it
 * ended, its job item). `snapshotId` is the snapshot taken just before it was sent (zone saves);
 * `member` and `workstation`, in team mode, who made it and where.
 */
export interface WriteRecord extends Pick<
  HistoryEntry,
  | 'accountId'
  | 'subjectKind'
  | 'subject'
  | 'aspect'
  | 'purpose'
  | 'requestId'
  | 'before'
  | 'after'
  | 'at'
  | 'snapshotId'
  | 'member'
  | 'workstation'
> {
  operation: string
  params: Record<string, unknown>
  outcome: WriteOutcome
  jobId: string
  itemIndex: number
  /** A colleague's write, read from the team's history: kept once however often it is read (by job and item). */
  fromTeam?: boolean | undefined
}

/** A job item's history row, as kept: how it says the item ended. */
export interface KeptWrite {
  jobId: string
  itemIndex: number
  outcome: WriteOutcome
}

/** The history part of the portfolio store. */
export interface HistoryStore {
  /** A write's row; one already kept for the same job item is left as it is (its id answered). */
  recordWrite(r: WriteRecord): number
  /** The rows these jobs' items have (what a restart compares with the journal's items). */
  keptWrites(jobIds: readonly string[]): KeptWrite[]
  /** An unknown outcome settled from the service's log. */
  settleWrite(jobId: string, itemIndex: number, outcome: 'done' | 'failed', requestId?: string): void
  /** A zone as it is just before this app saves it. */
  snapshotBeforeSave(accountId: string, kind: ZoneKind, domain: string, zone: ZoneInput, at: string): number
  list(q: HistoryQuery): HistoryEntry[]
  /** Changes from outside not looked at yet, per account id. */
  unseen(): Record<string, number>
  markSeen(
    accountId: string,
    opts: { ids?: readonly number[] | undefined; subjectKind?: SubjectKind | undefined; subject?: string | undefined },
  ): number
  snapshots(accountId: string, kind: ZoneKind, domain: string): SnapshotSummary[]
  snapshot(accountId: string, id: number): Snapshot | undefined
  retentionDays(): number
  setRetentionDays(days: number): void
  /** Drops what is older than the retention. */
  prune(): number
  /**
   * A served-against-saved comparison: kept as the zone's last one, and recorded in history when its
   * differences are not the last recorded ones (1), else 0 (served-results.ts).
   */
  recordServed(accountId: string, domain: string, findings: readonly ServedFinding[], at: string): number
  /** Every zone's last comparison, of one account or of all. */
  servedResults(accountId?: string): ServedResult[]
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

/** What putList takes, in the store and in its asynchronous twin (store-async.ts). */
export type PutListArgs<N extends StoredListName> = [
  accountId: string,
  name: N,
  params: ListParams<N>,
  items: readonly PagedItem<N>[],
  readAt: string,
  opts?: { complete?: boolean },
]

export interface PortfolioStore {
  /** The database file (':memory:' when the data folder could not be used). */
  readonly file: string
  /** What went wrong when it was opened, if anything. */
  readonly problem: StoreProblem | undefined

  /** Replaces a list's rows in one transaction. */
  putList<N extends StoredListName>(...args: PutListArgs<N>): ListChange
  getList<N extends StoredListName>(accountId: string, name: N, params: ListParams<N>): StoredList<N> | undefined
  /** The same, for what crosses the IPC boundary: parameters and items checked here. */
  keepList(
    accountId: string,
    name: StoredListName,
    params: Readonly<Record<string, unknown>>,
    items: readonly unknown[],
    readAt: string,
  ): ListChange
  readList(
    accountId: string,
    name: StoredListName,
    params: Readonly<Record<string, unknown>>,
  ): StoredList<StoredListName> | undefined
  /**
   * One part of a stored list as the window is carried it (list-parts.ts): cut here, where the list
   * is kept, so the caller takes in one part, never the whole list; undefined when it was never read.
   */
  readListPart(
    accountId: string,
    name: StoredListName,
    params: Readonly<Record<string, unknown>>,
    part: number,
  ): StoredListPart<StoredListName> | undefined
  /**
   * The stored WHOIS list's privacy flags (whois-flags.ts): whoisPrivacyOf of its items, read
   * without its contacts; undefined when it was never read.
   */
  readWhoisPrivacy(accountId: string): WholeList<WhoisPrivacyItem> | undefined
  /** One part of them, cut as a stored list's parts are (readListPart). */
  readWhoisPrivacyPart(accountId: string, part: number): ListPart<WhoisPrivacyItem> | undefined
  /** One item of an account-wide list by its identity (a domain name), when the list is stored. */
  readListItem(accountId: string, name: StoredListName, key: string): PagedItem<StoredListName> | undefined
  /** Reads a list the screens open on into main's parsed copy ahead of the window asking (at start). */
  warm(accountId: string, name: StoredListName, params: Readonly<Record<string, unknown>>): void

  /** Writes a zone read on its own; answers how many changes this app did not make were recorded. */
  putZone(accountId: string, kind: ZoneKind, domain: string, zone: ZoneInput, readAt: string): number
  getZone(accountId: string, kind: ZoneKind, domain: string): StoredZone | undefined
  /** `containing`: only zones one of whose records has this value as a whole word (an address moving away). */
  listZones(accountId?: string, containing?: string): ZoneSummary[]

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
