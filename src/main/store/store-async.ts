/**
 * The portfolio store as main uses it: every call answers a promise, so the SQLite work can run
 * off Electron's main thread (store-worker.ts) while main keeps routing IPC and running jobs.
 * The methods are PortfolioStore's, one for one; `inThread` wraps a store opened on this thread
 * (the bench's side-by-side figure, and code that runs without a worker).
 */
import type { ListChange, ListParams, StoredList, StoredListName } from '@shared/portfolio'
import type { HistoryStore, PortfolioStore, PutListArgs, StoreProblem } from './types'

type Promised<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never
/** Every method of T, answering a promise of what it answered. */
export type AsyncMethods<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: Promised<T[K]>
}

export type HistoryStoreAsync = AsyncMethods<HistoryStore>

/** The store's methods that the worker serves (PortfolioStore's, less the generic two written out below). */
type PlainMethods = AsyncMethods<Omit<PortfolioStore, 'history' | 'putList' | 'getList' | 'file' | 'problem'>>

export interface PortfolioStoreAsync extends PlainMethods {
  /** The database file (':memory:' when the data folder could not be used). */
  readonly file: string
  /** What went wrong when it was opened, if anything. */
  readonly problem: StoreProblem | undefined
  readonly history: HistoryStoreAsync
  putList<N extends StoredListName>(...args: PutListArgs<N>): Promise<ListChange>
  getList<N extends StoredListName>(
    accountId: string,
    name: N,
    params: ListParams<N>,
  ): Promise<StoredList<N> | undefined>
}

/** Every method name of the store and of its history, as the worker is asked for them. */
export const STORE_METHODS = [
  'putList',
  'getList',
  'keepList',
  'readList',
  'readListPart',
  'readWhoisPrivacy',
  'readWhoisPrivacyPart',
  'readListItem',
  'warm',
  'putZone',
  'getZone',
  'listZones',
  'removeAccount',
  'search',
  'exportCsv',
  'exportZones',
  'autorenewOnValue',
  'getSetting',
  'putSetting',
  'remindersSent',
  'recordReminders',
  'close',
] as const satisfies readonly (keyof PortfolioStore)[]
export const HISTORY_METHODS = [
  'recordWrite',
  'keptWrites',
  'settleWrite',
  'snapshotBeforeSave',
  'list',
  'unseen',
  'markSeen',
  'snapshots',
  'snapshot',
  'retentionDays',
  'setRetentionDays',
  'prune',
  'recordServed',
  'servedResults',
] as const satisfies readonly (keyof HistoryStore)[]
export type StoreMethod = (typeof STORE_METHODS)[number]
export type HistoryMethod = (typeof HISTORY_METHODS)[number]

// A method added to the store but not to these lists fails here, not at run time.
type Missing<T, L extends string> = Exclude<keyof AsyncMethods<T>, L>
const everyStoreMethod: [Missing<Omit<PortfolioStore, 'history'>, StoreMethod>] extends [never] ? true : never = true
const everyHistoryMethod: [Missing<HistoryStore, HistoryMethod>] extends [never] ? true : never = true
void everyStoreMethod
void everyHistoryMethod

/** A store opened on this thread, answering promises (its work still holds this thread). */
export function inThread(store: PortfolioStore): PortfolioStoreAsync {
  const history: HistoryStoreAsync = {
    recordWrite: async (...a) => store.history.recordWrite(...a),
    keptWrites: async (...a) => store.history.keptWrites(...a),
    settleWrite: async (...a) => store.history.settleWrite(...a),
    snapshotBeforeSave: async (...a) => store.history.snapshotBeforeSave(...a),
    list: async (...a) => store.history.list(...a),
    unseen: async () => store.history.unseen(),
    markSeen: async (...a) => store.history.markSeen(...a),
    snapshots: async (...a) => store.history.snapshots(...a),
    snapshot: async (...a) => store.history.snapshot(...a),
    retentionDays: async () => store.history.retentionDays(),
    setRetentionDays: async (...a) => store.history.setRetentionDays(...a),
    prune: async () => store.history.prune(),
    recordServed: async (...a) => store.history.recordServed(...a),
    servedResults: async (...a) => store.history.servedResults(...a),
  }
  return {
    file: store.file,
    problem: store.problem,
    history,
    putList: async (...a) => store.putList(...a),
    getList: async (...a) => store.getList(...a),
    keepList: async (...a) => store.keepList(...a),
    readList: async (...a) => store.readList(...a),
    readListPart: async (...a) => store.readListPart(...a),
    readWhoisPrivacy: async (...a) => store.readWhoisPrivacy(...a),
    readWhoisPrivacyPart: async (...a) => store.readWhoisPrivacyPart(...a),
    readListItem: async (...a) => store.readListItem(...a),
    warm: async (...a) => store.warm(...a),
    putZone: async (...a) => store.putZone(...a),
    getZone: async (...a) => store.getZone(...a),
    listZones: async (...a) => store.listZones(...a),
    removeAccount: async (...a) => store.removeAccount(...a),
    search: async (...a) => store.search(...a),
    exportCsv: async (...a) => store.exportCsv(...a),
    exportZones: async () => store.exportZones(),
    autorenewOnValue: async (...a) => store.autorenewOnValue(...a),
    getSetting: async (...a) => store.getSetting(...a),
    putSetting: async (...a) => store.putSetting(...a),
    remindersSent: async () => store.remindersSent(),
    recordReminders: async (...a) => store.recordReminders(...a),
    close: async () => store.close(),
  }
}
