/**
 * The portfolio store: one SQLite file in the app's data folder with, per account, the lists
 * and zones as last read, so every screen can paint at start from it and refresh in the
 * background, and a search index across accounts for the command palette.
 *
 * Synchronous, one connection, WAL. Everything it is given is checked here (account ids,
 * times, parameters); everything it reads back is checked by the item schemas of the endpoint
 * table. It never holds an API key, a transfer code or a dynamic DNS password.
 */
import { servedFindingSchema } from '@shared/dns/health/finding-schema'
import { keepServed, servedResults } from './served-results'
import { join } from 'node:path'
import { z } from 'zod'
import { accountProfileSchema } from '@shared/accounts'
import { isSafePathSegment } from '@shared/endpoints/table'
import { parseWith } from '@shared/errors/field-issues'
import { AppError } from '../base/app-error'
import { exportCsv, exportZones } from './export'
import { getList, keepList, putList, readList, readListItem } from './inventory'
import { openStoreFile } from './open-file'
import type { Connection } from './database'
import { ListCache } from './list-cache'
import { createListParts } from './list-parts'
import { whoisFlags } from './whois-flags'
import type { WhoisPrivacyItem } from '@shared/ipc/whois-privacy'
import { removeAccount } from './remove-account'
import { search, DEFAULT_SEARCH_LIMIT } from './search'
import { getZone, listZones, putZone } from './zones'
import {
  keptWrites,
  listHistory,
  markSeen,
  prune,
  recordWrite,
  retentionDays,
  setRetentionDays,
  settleWrite,
  unseenCounts,
} from './history'
import { addSnapshot, getSnapshot, listSnapshots } from './snapshots'
import { MAX_HISTORY_RETENTION_DAYS } from '@shared/portfolio/history'
import { getSetting, putSetting } from './settings'
import { autorenewOnValue } from './autorenew-on-value'
import { recordReminders, remindersSent } from './reminders-sent'
import { REMINDER_ITEM_KINDS } from '@shared/portfolio/reminders'
import { isStoredList, STORED_PARTS_MAX, ZONE_KINDS, type StoredListName } from '@shared/portfolio'
import type { PagedItem } from '@shared/endpoints/table'
import { type OpenOptions, type PortfolioStore, type StoreProblem } from './types'

export * from '@shared/portfolio'
export type * from './types'
export { CSV_COLUMNS } from './export'

/** The store's file in the app's data folder (Electron's userData). */
const PORTFOLIO_FILE_NAME = 'portfolio.db'
export const portfolioFileOf = (userDataDir: string): string => join(userDataDir, PORTFOLIO_FILE_NAME)

const accountId = accountProfileSchema.shape.id
/** When a list or zone was read: ISO 8601 in UTC, so that times compare as text. */
const readAt = z.iso.datetime()
const domain = z.string().min(1).max(253).refine(isSafePathSegment, 'field.hostName')
const servedFindings = z.array(servedFindingSchema).max(10_000)
const zoneKind = z.enum(ZONE_KINDS)
const searchQuery = z.string().max(500)
/** A part of a stored list: at most STORED_PARTS_MAX of them. */
const partIndex = z.number().int().min(0).max(STORED_PARTS_MAX)
const retention = z.number().int().min(1).max(MAX_HISTORY_RETENTION_DAYS)
const settingKey = z.string().regex(/^[a-z][a-zA-Z0-9.]{0,63}$/)
const settingValue = z.string().max(100_000)
/** The jobs the runner keeps (its journal keeps 300): their ids as it makes them. */
const jobIds = z.array(z.string().min(1).max(200)).max(10_000)
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)
const sentReminders = z.array(
  z.object({
    accountId,
    itemKind: z.enum(REMINDER_ITEM_KINDS),
    itemKey: z.string().min(1).max(300),
    expires: isoDate,
    threshold: z.number().int().min(0).max(10_000),
  }),
)
const zoneInput = z.object({
  records: z.string().max(1_000_000),
  ttl: z.number().int().min(0).optional(),
  ns_type: z.string().max(64).optional(),
})

/** The list's name: the type says so, but a name that came over IPC is checked again here. */
function listName<N extends StoredListName>(name: N): N {
  if (!isStoredList(name)) throw AppError.invalid('store.invalidInput', [{ path: 'name', code: 'field.notAllowed' }])
  return name
}

function check<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const parsed = parseWith(schema, value)
  if (!parsed.ok)
    throw AppError.invalid(
      'store.invalidInput',
      parsed.issues.map((i) => ({ ...i, path: i.path ? `${field}.${i.path}` : field })),
    )
  return parsed.value
}

export function openPortfolioStore(file: string, opts: OpenOptions = {}): PortfolioStore {
  const now = opts.now ?? (() => new Date())
  const opened = openStoreFile(file, { now, integrityCheck: opts.integrityCheck ?? true })
  const { conn } = opened
  const report = (p: StoreProblem): void => opts.onProblem?.(p)
  if (opened.problem) report(opened.problem)
  // History older than the retention goes at each start (a newer schema's file is left alone).
  if (opened.problem?.code !== 'store.newerSchema') prune(conn, now())
  const cache = new ListCache()
  /** A write to a list: its parsed copy goes, and comes back from the file once the write is done (off the caller's path). */
  const changed = <T>(
    account: string,
    name: StoredListName,
    params: Readonly<Record<string, unknown>>,
    write: () => T,
  ): T => {
    cache.drop(account, name, params)
    const result = write()
    if (ListCache.keeps(name)) setImmediate(() => warm(account, name, params))
    return result
  }
  const warm = (account: string, name: StoredListName, params: Readonly<Record<string, unknown>>): void => {
    if (!open || !ListCache.keeps(name) || cache.get(account, name, params)) return
    cache.set(account, name, params, readList(conn, account, name, params, report))
  }
  let open = true
  const live = () => {
    if (!open) throw AppError.of('internal', { code: 'store.closed' })
    return conn
  }
  /** A list as the screens read it: its parsed copy if there is one, else from the file (and copied, if kept so). */
  const readKept = (id: string, name: StoredListName, params: Readonly<Record<string, unknown>>) => {
    const cached = cache.get(id, name, params)
    if (cached) return cached
    const list = readList(live(), id, name, params, report)
    cache.set(id, name, params, list)
    return list
  }
  /** The lists being carried to the window in parts, each kept from its first part to its last. */
  const carried = createListParts<PagedItem<StoredListName>>()
  /** The same of the WHOIS list's privacy flags (whois-flags.ts), by account. */
  const carriedFlags = createListParts<WhoisPrivacyItem>()
  /** A write of a list's rows: account and time checked, then `write` on the open file (see `changed`). */
  const writeList = <N extends StoredListName, T>(
    account: string,
    name: N,
    params: Readonly<Record<string, unknown>>,
    at: string,
    write: (conn: Connection, accountId: string, name: N, readAt: string) => T,
  ): T =>
    changed(account, name, params, () =>
      write(live(), check(accountId, account, 'accountId'), listName(name), check(readAt, at, 'readAt')),
    )

  return {
    file: opened.file,
    problem: opened.problem,
    putList: (account, name, params, items, at, o) =>
      writeList(account, name, params, at, (c, id, n, t) => putList(c, id, n, params, items, t, o?.complete ?? true)),
    getList: (account, name, params) =>
      getList(live(), check(accountId, account, 'accountId'), listName(name), params, report),
    keepList: (account, name, params, items, at) =>
      writeList(account, name, params, at, (c, id, n, t) => keepList(c, id, n, params, items, t)),
    readList: (account, name, params) => readKept(check(accountId, account, 'accountId'), listName(name), params),
    readListPart: (account, name, params, part) => {
      const id = check(accountId, account, 'accountId')
      const key = JSON.stringify([id, listName(name), params])
      const answer = carried.part(key, check(partIndex, part, 'part'), () => readKept(id, name, params))
      return answer ?? undefined
    },
    readWhoisPrivacy: (account) => whoisFlags(live(), check(accountId, account, 'accountId'), report),
    readWhoisPrivacyPart: (account, part) => {
      const id = check(accountId, account, 'accountId')
      const answer = carriedFlags.part(id, check(partIndex, part, 'part'), () => whoisFlags(live(), id, report))
      return answer ?? undefined
    },
    readListItem: (account, name, key) =>
      readListItem(live(), check(accountId, account, 'accountId'), listName(name), key),
    warm: (account, name, params) => warm(check(accountId, account, 'accountId'), listName(name), params),
    putZone: (account, kind, name, zone, at) =>
      putZone(
        live(),
        check(accountId, account, 'accountId'),
        check(zoneKind, kind, 'kind'),
        check(domain, name, 'domain'),
        check(zoneInput, zone, 'zone'),
        check(readAt, at, 'readAt'),
      ),
    getZone: (account, kind, name) => getZone(live(), account, kind, name, report),
    listZones: (account, containing) => listZones(live(), report, account, containing),
    removeAccount: (account) => {
      const id = check(accountId, account, 'accountId')
      cache.dropAccount(id)
      carried.dropAll()
      carriedFlags.dropAll()
      removeAccount(live(), id)
    },
    search: (query, limit = DEFAULT_SEARCH_LIMIT) => search(live(), check(searchQuery, query, 'query'), limit),
    exportCsv: (o) => exportCsv(live(), report, o?.accountNames),
    exportZones: () => exportZones(live(), report),
    history: {
      recordWrite: (r) =>
        recordWrite(live(), {
          ...r,
          accountId: check(accountId, r.accountId, 'accountId'),
          at: check(readAt, r.at, 'at'),
        }),
      keptWrites: (ids) => keptWrites(live(), check(jobIds, ids, 'jobIds')),
      settleWrite: (jobId, index, outcome, requestId) => settleWrite(live(), jobId, index, outcome, requestId),
      snapshotBeforeSave: (account, kind, name, zone, at) =>
        addSnapshot(live(), {
          accountId: check(accountId, account, 'accountId'),
          kind: check(zoneKind, kind, 'kind'),
          domain: check(domain, name, 'domain'),
          zone: check(zoneInput, zone, 'zone'),
          reason: 'before-save',
          at: check(readAt, at, 'at'),
        }),
      list: (q) => listHistory(live(), { ...q, accountId: check(accountId, q.accountId, 'accountId') }, report),
      unseen: () => unseenCounts(live()),
      markSeen: (account, o) => markSeen(live(), check(accountId, account, 'accountId'), o),
      snapshots: (account, kind, name) =>
        listSnapshots(live(), check(accountId, account, 'accountId'), check(zoneKind, kind, 'kind'), name, report),
      snapshot: (account, id) => getSnapshot(live(), check(accountId, account, 'accountId'), id),
      retentionDays: () => retentionDays(live()),
      setRetentionDays: (days) => setRetentionDays(live(), check(retention, days, 'days'), now()),
      prune: () => prune(live(), now()),
      recordServed: (account, name, findings, at) =>
        keepServed(live(), {
          accountId: check(accountId, account, 'accountId'),
          domain: check(domain, name, 'domain'),
          findings: check(servedFindings, findings, 'findings'),
          at: check(readAt, at, 'at'),
        }),
      servedResults: (account) =>
        servedResults(live(), account === undefined ? undefined : check(accountId, account, 'accountId')),
    },
    autorenewOnValue: (account) => autorenewOnValue(live(), check(accountId, account, 'accountId')),
    // reminders
    getSetting: (key) => getSetting(live(), check(settingKey, key, 'key')),
    putSetting: (key, value) => putSetting(live(), check(settingKey, key, 'key'), check(settingValue, value, 'value')),
    remindersSent: () => remindersSent(live()),
    recordReminders: (sent, at, today) =>
      recordReminders(
        live(),
        check(sentReminders, sent, 'sent'),
        check(readAt, at, 'at'),
        check(isoDate, today, 'today'),
      ),
    close: () => {
      if (!open) return
      open = false
      conn.close()
    },
  }
}
