/**
 * The lists: each one's items as rows keyed by identity, replaced as a whole in one
 * transaction when the list is read again, so a reader (this connection or another) sees the
 * old list or the new one, never a mix. Counting what changed compares each item's stored text.
 */
import { isAscii } from 'node:buffer'
import { z } from 'zod'
import type { PagedItem } from '@shared/endpoints/table'
import type { Connection } from './database'
import { LIST_SPECS, listIdentity, storedJson, type ListSpec } from './lists'
import { parseJson } from './json'
import { SearchWriter } from './search-index'
import { deleteZone, writeZone, zoneIds } from './zones'
import { changedAspects } from './drift'
import { recordDrift } from './history'
import { recordHealthChange } from './health-history'
import type { ListChange, ListParams, StoredList, StoredListName, DriftFinding } from '@shared/portfolio'
import { StoreProblem } from './types'

const idRow = z.object({ id: z.number().int() })
const oldRowSchema = z.object({ id: z.number().int(), item_key: z.string(), pos: z.number().int(), json: z.string() })
const keptRecords = z.object({ records: z.string() })
const metaSchema = z.object({
  id: z.number().int(),
  read_at: z.string(),
  complete: z.union([z.literal(0), z.literal(1)]),
})
const itemRowSchema = z.object({ item_key: z.string(), pos: z.number().int(), json: z.string() })

/**
 * A list's rows, found through the (list_id, item_key) index but read in the table's order:
 * read in the index's (the items' keys) each row is on another page than the last, and once a
 * list outgrows SQLite's page cache (100,000 domains) nearly every row is a read from the file,
 * which made a read ten times the size cost twenty times as much.
 */
export const IDS_OF_LIST = '(SELECT id FROM list_items WHERE list_id = ? ORDER BY id)'

interface NewRow<N extends StoredListName> {
  item: PagedItem<N>
  pos: number
  json: string
}

export function putList<N extends StoredListName>(
  conn: Connection,
  accountId: string,
  name: N,
  params: ListParams<N>,
  items: readonly PagedItem<N>[],
  readAt: string,
  complete: boolean,
): ListChange {
  const spec: ListSpec<N> = LIST_SPECS[name]
  const { identity, key: paramsKey } = listIdentity(name, params)
  // The stored text of every item is made before the transaction, so the write lock is held
  // only for the writing.
  const rows = new Map<string, NewRow<N>>()
  let duplicates = 0
  for (const item of items) {
    const key = spec.key(item)
    if (rows.has(key)) duplicates++
    else rows.set(key, { item, pos: rows.size, json: storedJson(item) })
  }
  const watched = paramsKey === '' ? (spec.watch ?? undefined) : undefined
  return conn.write(() => {
    // The reading before this one: drift is what changed since, that this app did not write.
    const previous = watched
      ? conn.get(
          metaSchema,
          'SELECT id, read_at, complete FROM lists WHERE account_id = ? AND list = ? AND params_key = ?',
          [accountId, name, paramsKey],
        )
      : undefined
    const list = conn.get(
      idRow,
      `INSERT INTO lists (account_id, list, params_key, read_at, complete) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account_id, list, params_key) DO UPDATE SET read_at = excluded.read_at, complete = excluded.complete
       RETURNING id`,
      [accountId, name, paramsKey, readAt, complete ? 1 : 0],
    )
    if (!list) throw new Error('store.listNotWritten')
    const old = new Map(
      conn
        .all(oldRowSchema, `SELECT id, item_key, pos, json FROM list_items WHERE id IN ${IDS_OF_LIST}`, [list.id])
        .map((r) => [r.item_key, r]),
    )
    const oldRows = old
    const index = new SearchWriter(conn)
    // Every removal first, then every addition: the search index is then written in one go
    // at the end (SearchWriter).
    let removed = 0
    for (const [key, row] of old) {
      if (rows.has(key)) continue
      if (spec.entries) index.remove({ item: row.id })
      // The zone lists are keyed by domain name: the key is the zone's domain.
      if (spec.zone) deleteZone(conn, index, accountId, spec.zone.kind, key)
      conn.run('DELETE FROM list_items WHERE id = ?', [row.id])
      removed++
    }
    // New to the list or not, an item's zone may be stored already (read on its own before):
    // the account's zones are looked up once, when the first item needs it.
    let zonesKept: Map<string, number> | undefined
    for (const [key, row] of rows) {
      const before = old.get(key)
      if (before?.json === row.json) continue
      if (before && spec.entries) index.remove({ item: before.id })
      if (!spec.zone) continue
      zonesKept ??= zoneIds(conn, accountId, spec.zone.kind)
      const zoneId = zonesKept.get(spec.zone.of(row.item).domain)
      if (zoneId !== undefined) index.remove({ zone: zoneId })
    }
    let added = 0
    let changed = 0
    for (const [key, row] of rows) {
      const before = old.get(key)
      if (!before) {
        const id = conn.insert('INSERT INTO list_items (list_id, item_key, pos, json) VALUES (?, ?, ?, ?)', [
          list.id,
          key,
          row.pos,
          row.json,
        ])
        if (spec.entries) index.add(accountId, { item: id }, spec.entries(row.item, identity))
        added++
      } else if (before.json !== row.json) {
        conn.run('UPDATE list_items SET json = ?, pos = ? WHERE id = ?', [row.json, row.pos, before.id])
        if (spec.entries) index.add(accountId, { item: before.id }, spec.entries(row.item, identity))
        changed++
      } else if (before.pos !== row.pos) {
        conn.run('UPDATE list_items SET pos = ? WHERE id = ?', [row.pos, before.id])
      }
      if (spec.zone) {
        const z = spec.zone.of(row.item)
        // A zone the list changed: the health findings that appeared or went away with it.
        if (before && before.json !== row.json) {
          const kept = conn.get(
            keptRecords,
            'SELECT records FROM zones WHERE account_id = ? AND kind = ? AND domain = ?',
            [accountId, spec.zone.kind, z.domain],
          )
          if (kept)
            recordHealthChange(conn, {
              accountId,
              kind: spec.zone.kind,
              domain: z.domain,
              before: kept.records,
              after: z.zone.records,
              at: readAt,
            })
        }
        writeZone(conn, index, accountId, spec.zone.kind, z.domain, z.zone, readAt, {
          unchanged: before?.json === row.json,
        })
      }
    }
    index.flush()
    let drift = 0
    const findings: DriftFinding[] = []
    if (watched && previous && changed > 0) {
      const before = new Map<string, string>()
      const after = new Map<string, string>()
      for (const [key, row] of rows) {
        const old = oldRows.get(key)
        if (old !== undefined && old.json !== row.json) {
          before.set(key, old.json)
          after.set(key, row.json)
        }
      }
      drift = recordDrift(
        conn,
        {
          accountId,
          subjectKind: watched.subjectKind,
          aspect: watched.aspect,
          changes: changedAspects(watched.fields, before, after),
          since: previous.read_at,
          at: readAt,
          zoneKind: spec.zone?.kind,
        },
        findings,
      )
    }
    return { added, changed, removed, duplicates, drift, ...(findings.length > 0 ? { findings } : {}) }
  })
}

export function getList<N extends StoredListName>(
  conn: Connection,
  accountId: string,
  name: N,
  params: ListParams<N>,
  report: (p: StoreProblem) => void,
): StoredList<N> | undefined {
  const spec: ListSpec<N> = LIST_SPECS[name]
  const { key: paramsKey } = listIdentity(name, params)
  const skip = rowSkipped(accountId, name, report)
  let skipped = 0
  const check = spec.stored ?? itemOf(spec.item)
  // One read transaction: the list's time and its rows come from the same committed state.
  const found = conn.read(() => {
    const meta = listMeta(conn, accountId, name, paramsKey, skip)
    if (!meta) return undefined
    const items =
      wholeList(conn, meta.id, check) ??
      rowByRow(conn, meta.id, check, (key) => {
        skipped++
        skip(key)
      })
    return { meta, items }
  })
  if (!found) return undefined
  return { items: found.items, readAt: found.meta.read_at, complete: found.meta.complete === 1, skipped }
}

/** Reports a row left out of a list as read: its table and its key ('' when the row could not be read at all). */
export const rowSkipped =
  (accountId: string, list: StoredListName, report: (p: StoreProblem) => void) =>
  (key: string, table = 'list_items'): void =>
    report({ code: 'store.rowSkipped', params: { table, accountId, list, key } })

/** A stored list's row in `lists` (its id, time and completeness); undefined when none, or reported when not valid. */
export function listMeta(
  conn: Connection,
  accountId: string,
  name: StoredListName,
  paramsKey: string,
  skip: (key: string, table: string) => void,
): z.infer<typeof metaSchema> | undefined {
  return conn.get(
    metaSchema,
    'SELECT id, read_at, complete FROM lists WHERE account_id = ? AND list = ? AND params_key = ?',
    [accountId, name, paramsKey],
    () => skip(paramsKey, 'lists'),
  )
}

/** A schema's check as a function: the item it gives, undefined when the value is not one. */
export const itemOf =
  <T>(schema: z.ZodType<T>) =>
  (value: unknown): T | undefined => {
    const parsed = schema.safeParse(value)
    return parsed.success ? parsed.data : undefined
  }

const listSpan = z.object({ lo: z.number().int().nullable(), hi: z.number().int().nullable(), count: z.number().int() })
/**
 * A stretch of a list's rows as one text, in its bytes (textOf); none when the stretch holds none of the list's rows
 * (group_concat of nothing).
 */
const listTextRow = z.object({
  text: z.instanceof(Buffer).nullable(),
  positions: z.string().nullable(),
  count: z.number().int(),
})

/**
 * A stretch's text from SQLite's bytes. Answered as text, each stretch (1.5 MB at 10,000 rows)
 * was decoded from UTF-8 by the driver into a new string in V8's heap, a large object on pages
 * mapped afresh for it and given back after: a 100,000-domain read faulted in ~18,000 fresh pages
 * (~70 MB), more than ten times the 10,000 read's ~1,700. Text that is ASCII (JSON.stringify's of
 * ASCII names, numbers and dates) is the same text read as Latin-1, one byte a character with
 * nothing to decode, and Node keeps a string this long (over ~1 MB) outside V8's heap, in memory
 * the allocator hands out again: ~7,500 and ~900 faults, and a fifth less CPU for either read.
 * Any other text is decoded from UTF-8 as the driver did.
 */
export const textOf = (bytes: Buffer): string => bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')
/** The positions as read: numbers, each checked without a schema's cost per number (100,000 of them). */
export const isPositions = (v: unknown): v is number[] => Array.isArray(v) && v.every((p) => typeof p === 'number')

/**
 * A list whose rows lie this close together (its row ids' span at most this many times its
 * count, as a list written at once is) is read by a scan of that span of the table.
 */
const DENSE_SPAN = 2

/**
 * How many row ids of a dense list's span are read as one text. The whole of a 100,000-item list
 * as one text (15 MB) cost more than ten times the 10,000-item list's 1.5 MB: SQLite's
 * concatenation, the driver's copy into a JS string and JSON.parse each went through memory
 * anew (freshly mapped buffers, out of the processor's caches). A stretch of this many rows is
 * the size a 10,000-item list reads at once, so a longer list costs that per stretch.
 */
const STRETCH_IDS = 10_000

/**
 * A list's rows read a stretch at a time, each stretch one aggregate row that SQLite makes (`select`: a SELECT of
 * aggregates over list_items, its WHERE left to this function, which names list_items' own id and list_id), handed
 * to `take` in the table's order. A list written at once (its rows together in the table) is read by a scan of its
 * span, stretch by stretch, without the list of its ids; a list whose rows lie apart in one go through its ids.
 * Answers how many rows the list has (read in the same read transaction as the stretches), or undefined as soon as
 * `take` refuses a stretch.
 */
export function eachStretch<R>(
  conn: Connection,
  listId: number,
  schema: z.ZodType<R>,
  select: string,
  take: (stretch: R) => boolean,
): number | undefined {
  const span = conn.get(
    listSpan,
    'SELECT min(id) AS lo, max(id) AS hi, count(*) AS count FROM list_items WHERE list_id = ?',
    [listId],
  )
  if (!span || span.count === 0 || span.lo === null || span.hi === null) return 0
  if (span.hi - span.lo + 1 > DENSE_SPAN * span.count) {
    const row = conn.get(schema, `${select} WHERE id IN ${IDS_OF_LIST}`, [listId])
    return row !== undefined && take(row) ? span.count : undefined
  }
  for (let from = span.lo; from <= span.hi; from += STRETCH_IDS) {
    // `+list_id`: the span is scanned by id, not looked up again in the (list_id, item_key) index.
    const to = Math.min(span.hi, from + STRETCH_IDS - 1)
    const row = conn.get(schema, `${select} WHERE id BETWEEN ? AND ? AND +list_id = ?`, [from, to, listId])
    if (row === undefined || !take(row)) return undefined
  }
  return span.count
}

/**
 * The list's items as JSON text made by SQLite, parsed a stretch at a time (eachStretch): a row per item (an object
 * each from the driver, a JSON.parse each) cost a 100,000-item read twice as much. The rows are read in the table's
 * order with their positions beside them and put in order here: SQLite ordering 100,000 rows of text by position (a
 * temporary B-tree of the whole list, and the list of ids the rows were found by, a second) cost more than ten times
 * what it did at 10,000. Undefined when any row is not a valid item (damaged in the file): the rows are then read one
 * by one to say which (rowByRow).
 */
function wholeList<T>(conn: Connection, listId: number, check: (value: unknown) => T | undefined): T[] | undefined {
  const columns = `SELECT CAST('[' || group_concat(json, ',') || ']' AS BLOB) AS text, '[' || group_concat(pos, ',') || ']' AS positions,
     count(*) AS count FROM list_items`
  const items: T[] = []
  const positions: number[] = []
  const count = eachStretch(conn, listId, listTextRow, columns, (row) => addStretch(row, check, items, positions))
  // Every row read, in the same read transaction as the span's count.
  if (count === undefined || items.length !== count) return undefined
  return inPositionOrder(items, positions)
}

/** A stretch's items and positions added to the list's; false when any row is not a valid item. */
function addStretch<T>(
  row: z.infer<typeof listTextRow>,
  check: (value: unknown) => T | undefined,
  items: T[],
  positions: number[],
): boolean {
  if (row.count === 0) return true
  if (row.text === null || row.positions === null) return false
  const all = parseJson(textOf(row.text))
  const at: unknown = parseJson(row.positions)
  // A row's text that is not one JSON value could still join into valid JSON ("1,2"): the count tells.
  if (!Array.isArray(all) || all.length !== row.count) return false
  if (!isPositions(at) || at.length !== all.length) return false
  for (const value of all) {
    const item = check(value)
    if (item === undefined) return false
    items.push(item)
  }
  for (const p of at) positions.push(p)
  return true
}

/**
 * The items in the order of their positions (as read, when they already are: a list written at once), items of one
 * position in the order read.
 */
export function inPositionOrder<T>(items: T[], positions: readonly number[]): T[] {
  let ordered = true
  for (let i = 1; i < positions.length && ordered; i++) ordered = (positions[i - 1] ?? 0) <= (positions[i] ?? 0)
  if (ordered) return items
  const order = positions.map((_, i) => i).sort((a, b) => (positions[a] ?? 0) - (positions[b] ?? 0))
  const sorted: T[] = []
  for (const i of order) {
    const item = items[i]
    if (item !== undefined) sorted.push(item)
  }
  return sorted
}

/** The list's items row by row, in their order, leaving out (and naming by key) each row that is not a valid item. */
function rowByRow<T>(
  conn: Connection,
  listId: number,
  check: (value: unknown) => T | undefined,
  skipped: (key: string) => void,
): T[] {
  const rows = conn.all(
    itemRowSchema,
    `SELECT item_key, pos, json FROM list_items WHERE id IN ${IDS_OF_LIST}`,
    [listId],
    () => skipped(''),
  )
  rows.sort((a, b) => a.pos - b.pos)
  const items: T[] = []
  for (const row of rows) {
    const item = check(parseJson(row.json))
    if (item !== undefined) items.push(item)
    else skipped(row.item_key)
  }
  return items
}

/**
 * One item of an account-wide list by its identity (a domain name), read on its own: what a
 * write is about to change, for its history, without reading the whole list.
 */
export function readListItem(
  conn: Connection,
  accountId: string,
  name: StoredListName,
  key: string,
): PagedItem<StoredListName> | undefined {
  const row = conn.get(
    z.object({ json: z.string() }),
    "SELECT i.json FROM lists l JOIN list_items i ON i.list_id = l.id WHERE l.account_id = ? AND l.list = ? AND l.params_key = '' AND i.item_key = ?",
    [accountId, name, key],
  )
  if (!row) return undefined
  const item = LIST_SPECS[name].item.safeParse(parseJson(row.json))
  return item.success ? item.data : undefined
}

/** The accounts that have this list (exports go through every account). */
export function accountsWithList(conn: Connection, name: StoredListName): string[] {
  return conn
    .all(
      z.object({ account_id: z.string() }),
      'SELECT DISTINCT account_id FROM lists WHERE list = ? ORDER BY account_id',
      [name],
    )
    .map((r) => r.account_id)
}

/**
 * The IPC side's way in: a list name, parameters and items as they came from a read, checked
 * here. Items are held to the list's own item schema (one that does not fit is left out);
 * parameters are checked by listIdentity with the endpoint's schema. The one assertion is the
 * parameters' type, which TypeScript cannot follow from a name into the table: listIdentity
 * validates them before anything is written.
 */
export function keepList<N extends StoredListName>(
  conn: Connection,
  accountId: string,
  name: N,
  params: Readonly<Record<string, unknown>>,
  items: readonly unknown[],
  readAt: string,
): ListChange {
  const spec: ListSpec<N> = LIST_SPECS[name]
  const valid: PagedItem<N>[] = []
  for (const item of items) {
    const parsed = spec.item.safeParse(item)
    if (parsed.success) valid.push(parsed.data)
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- listIdentity checks the parameters with the endpoint's schema before they are used
  return putList(conn, accountId, name, params as ListParams<N>, valid, readAt, true)
}

/** The IPC side's way out: a list by name with parameters as they came (checked by listIdentity). */
export function readList<N extends StoredListName>(
  conn: Connection,
  accountId: string,
  name: N,
  params: Readonly<Record<string, unknown>>,
  report: (p: StoreProblem) => void,
): StoredList<N> | undefined {
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- listIdentity checks the parameters with the endpoint's schema before they are used
  return getList(conn, accountId, name, params as ListParams<N>, report)
}
