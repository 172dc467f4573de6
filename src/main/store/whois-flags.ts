/**
 * The stored WHOIS list's privacy flags, read where the list is kept: the domain list's column
 * needs each domain's flag only, and the list carries each domain's contacts too (about 1 KB a
 * domain). Read whole (getList) at 100,000 domains, ~100 MB went through the worker's messages
 * into main for main to keep the flags, and the flags' first part took seconds (14 s in one run).
 * Here SQLite reads each row's two members, so no JavaScript parses the contacts, and only the
 * flags cross to main.
 *
 * The flags are exactly whoisPrivacyOf(getList(...).items): a row is taken as SQLite reads it only
 * when its text is surely an item of the WHOIS list's schema (ROW_IS_ITEM); any other row is
 * parsed and checked by that schema as getList checks it, and left out and reported when it is
 * not an item.
 *
 * That check is made when a row is written, not when the list is read: triggers on list_items keep
 * each WHOIS row's two members, or NULL where ROW_IS_ITEM does not take the row, in whois_flags
 * (keepWhoisFlags) with each row's list and position, and the read takes them from there alone, the
 * rows' texts never read, when whois_flags holds exactly the list's rows (else it joins them to the
 * list's rows). Made on every read, the check cost about 1.3 s at 100,000 domains (70 % of the
 * read) each time the domain list was opened; made on the write, it is paid once per row written,
 * inside the refresh that writes it. The triggers fire for any SQL that writes list_items (this
 * app's, another program's, a test's), so a row changed in the file is checked again as it changes.
 * A row without its flags kept (NULL, or no row in whois_flags) is read by the schema, as any row
 * ROW_IS_ITEM does not take.
 */
import { z } from 'zod'
import { whoisPrivacyOf, type WhoisPrivacyItem } from '@shared/ipc/whois-privacy'
import type { Connection } from './database'
import {
  IDS_OF_LIST,
  eachStretch,
  inPositionOrder,
  isPositions,
  itemOf,
  listMeta,
  rowSkipped,
  textOf,
} from './inventory'
import { parseJson } from './json'
import { LIST_SPECS } from './lists'
import type { WholeList } from './list-parts'
import type { StoreProblem } from './types'

const WHOIS = 'domains.whois.list'

/**
 * True only for a row the WHOIS schema (whoisSchema) takes as it is, as every row this app writes
 * is: JSON text (RFC 8259, as JSON.parse reads) of an object with each of domainid (a safe
 * integer), domainname and whoisproxy (text) and contact once, whose contact is an object of
 * objects (the roles) whose members are text or null. What it leaves out (numbers where text is
 * written, a duplicated member, a nested value) may still be an item: the schema decides those.
 * It must never take a row the schema would not: it is stricter than the schema wherever they
 * differ, which the store's tests hold it to (whois-flags.test.ts). Of a row of list_items as `li`
 * (unqualified, `json` in json_each's or json_tree's query is their own column of that name); the
 * text is known to be JSON before any function that fails on other text reads it. Its check of
 * the contacts is most of its cost (about 9 µs a row): made on each read, it was 70 % of the read's
 * time at any size, so it is made once, as each row is written (keepWhoisFlags). Its text is thus
 * kept in the file, in the triggers that make the flags: a change of it is a change of the
 * triggers' text, which keepWhoisFlags sees on the next opening of the file.
 */
export const ROW_IS_ITEM = `CASE WHEN typeof(li.json) = 'text' AND json_valid(li.json) THEN (
    json_type(li.json) = 'object'
    AND (SELECT count(*) FROM json_each(li.json) WHERE key IN ('domainid', 'domainname', 'whoisproxy', 'contact')) = 4
    AND json_type(li.json, '$.domainid') = 'integer' AND abs(json_extract(li.json, '$.domainid')) <= 9007199254740991
    AND json_type(li.json, '$.domainname') = 'text' AND json_type(li.json, '$.whoisproxy') = 'text'
    AND json_type(li.json, '$.contact') = 'object'
    AND NOT EXISTS (SELECT 1 FROM json_tree(li.json, '$.contact') AS t
      WHERE (t.path = '$.contact' AND t.type <> 'object')
        OR (t.path <> '$' AND t.path <> '$.contact' AND t.type NOT IN ('text', 'null')))
  ) ELSE 0 END`

/** Whether the list of row id `listId` (an SQL expression) is a WHOIS list: one look-up by the lists' row id. */
const isWhoisList = (listId: string) => `(SELECT list FROM lists WHERE id = ${listId}) = '${WHOIS}'`

/**
 * What whois_flags keeps of a row of list_items (as `li`) as its flags: its two members as SQLite reads them (a JSON
 * array) when ROW_IS_ITEM takes the row and its key is text, as flagRow takes keys, else NULL (the schema's to read).
 */
const FLAGS_OF_ROW = `CASE WHEN typeof(li.item_key) = 'text' AND ${ROW_IS_ITEM}
      THEN json_extract(li.json, '$.domainname', '$.whoisproxy') END`

/** A row's position as whois_flags keeps it: NULL unless a safe integer, as flagRow takes positions. */
const safePosition = (pos: string) =>
  `CASE WHEN typeof(${pos}) = 'integer' AND abs(${pos}) <= 9007199254740991 THEN ${pos} END`

/**
 * Puts in whois_flags the rows of list_items (as `li`) that `where` takes: each one's list, position (safePosition)
 * and flags (FLAGS_OF_ROW). The triggers and the fill of the rows already stored are this one statement, so a row's
 * flags are the same however they came to be kept.
 */
const keepFlagsOf = (where: string) => `INSERT INTO whois_flags (item_id, list_id, pos, flags)
      SELECT li.id, li.list_id, ${safePosition('li.pos')}, ${FLAGS_OF_ROW}
      FROM list_items AS li WHERE ${where}`

/**
 * whois_flags and the triggers that keep it as list_items changes, by name, in the order they are made. The table
 * holds a row's id, list and position, as list_items has them, and its flags (FLAGS_OF_ROW), so that the flags of a
 * list are read from whois_flags alone (whoisFlags), never from the rows' texts of about 1 KB each. A position changes
 * alone when a list's order does (putList), for many rows at once: its trigger copies it and checks nothing again. A
 * row's old flags are deleted before its new ones are put, never replaced: a statement that fires a trigger imposes
 * its own conflict policy on the trigger's (an INSERT OR IGNORE into list_items would make a replace an ignore), and
 * rows deleted by a REPLACE fire no delete trigger, so a row's id may come back with flags left from a row that was.
 * A row moved to another list, or given another id, loses its flags and gets them anew when it is a WHOIS list's. The
 * flags are what SQLite's JSON functions said of the row: the SQLite that made them is named in the triggers' text, so
 * another SQLite opening the file makes them again (keepWhoisFlags).
 */
function flagsKept(sqliteVersion: string): Record<string, string> {
  const madeBy = `/* flags made by ROW_IS_ITEM with the JSON functions of SQLite ${sqliteVersion} */`
  return {
    whois_flags: `CREATE TABLE whois_flags (item_id INTEGER PRIMARY KEY, list_id INTEGER, pos INTEGER,
      flags TEXT)`,
    whois_flags_ai: `CREATE TRIGGER whois_flags_ai AFTER INSERT ON list_items WHEN ${isWhoisList('new.list_id')} ${madeBy}
    BEGIN
      DELETE FROM whois_flags WHERE item_id = new.id;
      ${keepFlagsOf('li.id = new.id')};
    END`,
    whois_flags_au: `CREATE TRIGGER whois_flags_au AFTER UPDATE OF id, list_id, item_key, json ON list_items ${madeBy}
    BEGIN
      DELETE FROM whois_flags WHERE item_id IN (old.id, new.id);
      ${keepFlagsOf(`li.id = new.id AND ${isWhoisList('li.list_id')}`)};
    END`,
    whois_flags_ap: `CREATE TRIGGER whois_flags_ap AFTER UPDATE OF pos ON list_items
    BEGIN
      UPDATE whois_flags SET pos = ${safePosition('new.pos')} WHERE item_id = new.id;
    END`,
    whois_flags_ad: `CREATE TRIGGER whois_flags_ad AFTER DELETE ON list_items
    BEGIN
      DELETE FROM whois_flags WHERE item_id = old.id;
    END`,
  }
}

const sqliteVersionRow = z.object({ version: z.string() })
const schemaRow = z.object({ name: z.string(), sql: z.string() })

/** Whether the file's whois_flags and its triggers are `wanted`, word for word. */
function keptAs(conn: Connection, wanted: Record<string, string>): boolean {
  const names = Object.keys(wanted)
  const kept = new Map(
    conn
      .all(schemaRow, `SELECT name, sql FROM sqlite_schema WHERE name IN (${names.map(() => '?').join(', ')})`, names)
      .map((r) => [r.name, r.sql]),
  )
  return names.every((name) => kept.get(name) === wanted[name])
}

/**
 * Makes whois_flags this version's, at each opening of the file (migration 8 first made it): unless the file's table
 * and triggers are word for word the ones this version makes, they are made anew and every WHOIS row's flags made
 * again, in one transaction. True when it made them.
 *
 * Their text is the fingerprint of the kept flags: it holds ROW_IS_ITEM, the members kept, which rows are kept, and
 * the SQLite whose JSON functions judged them, so a version of the app whose check differs in any of these (stricter,
 * laxer, or only another SQLite) makes every row's flags again by its own check before it reads one. A fingerprint
 * kept beside them (a hash in store_settings) could say one check while the triggers, dropped or replaced by another
 * program, do another; the triggers cannot disagree with themselves. Flags made by a check the file no longer has
 * are thus never read, and a file whose table or triggers were dropped gets them back.
 */
export function keepWhoisFlags(conn: Connection): boolean {
  const version = conn.get(sqliteVersionRow, 'SELECT sqlite_version() AS version')?.version ?? ''
  const wanted = flagsKept(version)
  // Looked at first without the write lock: nearly every opening finds them as they are.
  if (keptAs(conn, wanted)) return false
  return conn.write(() => {
    if (keptAs(conn, wanted)) return false
    for (const name of Object.keys(wanted)) if (name !== 'whois_flags') conn.exec(`DROP TRIGGER IF EXISTS ${name}`)
    conn.exec('DROP TABLE IF EXISTS whois_flags')
    for (const sql of Object.values(wanted)) conn.exec(sql)
    // The WHOIS lists' rows found through list_items' (list_id, item_key) index, not by a scan of every list's rows.
    conn.run(keepFlagsOf(`li.list_id IN (SELECT id FROM lists WHERE list = '${WHOIS}')`))
    return true
  })
}

/** A row: its two members as SQLite read them (a JSON array), or null when the schema is to read it. */
const flagRow = z.object({
  id: z.number().int(),
  item_key: z.string(),
  pos: z.number().int(),
  flags: z.string().nullable(),
})
const jsonRow = z.object({ json: z.string() })
const keyedJsonRow = z.object({ item_key: z.string(), json: z.string() })
/** The two members as read: checked without a schema's cost per row (100,000 of them). */
const isPair = (v: unknown): v is [string, string] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string'

/** A row read whole for the schema to read: its key, to name it when it is not an item, and its text. */
type WholeRow = { item_key: string; json: string }
/**
 * The list's rows as read, in the table's order: each one's flags as kept, or the row read whole, or nothing for a
 * row that could not be read (left out and reported as it was read); and their positions, one for each.
 */
interface ReadRows {
  rows: (WhoisPrivacyItem | WholeRow | undefined)[]
  positions: number[]
}

/**
 * A stretch of the list's rows (eachStretch) as three JSON arrays SQLite makes, in the table's order: each row's kept
 * flags (null where none are kept, or where what is kept is not JSON, so that the array is JSON whatever the file
 * holds), its position and its id; and how many of its rows flagRow would not take as they are (a key or flags not
 * text, a position not a safe integer), which only the row-by-row read reports as it does. None when the stretch holds
 * none of the list's rows.
 */
const flagsStretch = z.object({
  flags: z.instanceof(Buffer).nullable(),
  positions: z.string().nullable(),
  ids: z.string().nullable(),
  count: z.number().int(),
  odd: z.number().int().nullable(),
})
/**
 * The rows of whois_flags alone: what the triggers copied of each row of list_items, its list and position, and its
 * flags (FLAGS_OF_ROW). About 40 bytes a row, where list_items' rows hold about 1 KB of text each: at 100,000 domains,
 * joined to list_items, SQLite's part of the read took 75 ms (6 ms at 10,000), and 15 ms of whois_flags alone (1.4 ms;
 * a scratch script, median of 7). What is kept there is as the triggers make it, so only what they cannot make is
 * looked at row by row: flags not text, which only a write to whois_flags itself puts there. A position that is not
 * a safe integer is kept as NULL, which group_concat leaves out, and flags that are not JSON spoil the stretch's
 * array: either way the arrays are not as long as the stretch, and the list is read from its rows (JOINED_STRETCH).
 */
const KEPT_STRETCH = `SELECT
    CAST('[' || group_concat(ifnull(flags, 'null'), ',') || ']' AS BLOB) AS flags,
    '[' || group_concat(pos, ',') || ']' AS positions, '[' || group_concat(id, ',') || ']' AS ids, count(*) AS count,
    sum(typeof(flags) NOT IN ('text', 'null')) AS odd
  FROM (SELECT item_id AS id, list_id, pos, flags FROM whois_flags)`
/** The rows of list_items, each with its kept flags if any. */
const JOINED_STRETCH = `SELECT
    CAST('[' || group_concat(CASE WHEN json_valid(flags) THEN flags ELSE 'null' END, ',') || ']' AS BLOB) AS flags,
    '[' || group_concat(pos, ',') || ']' AS positions, '[' || group_concat(id, ',') || ']' AS ids, count(*) AS count,
    sum(typeof(item_key) <> 'text' OR typeof(pos) <> 'integer' OR abs(pos) > 9007199254740991
      OR typeof(flags) NOT IN ('text', 'null')) AS odd
  FROM (SELECT li.id, li.list_id, li.item_key, li.pos, wf.flags
    FROM list_items AS li LEFT JOIN whois_flags AS wf ON wf.item_id = li.id)`

/**
 * The list's rows with their kept flags read a stretch at a time, as getList reads the items (wholeList), from the
 * rows of `stretch` (KEPT_STRETCH or JOINED_STRETCH). Read a row at a time (flagsRowByRow: an object each from the
 * driver, checked by a schema, its flags parsed on their own), the read took twice as long: 20 against 10 ms at 10,000
 * domains, 216-227 against 111-120 ms at 100,000 (a scratch script, median of 9 reads). A row without a pair kept is
 * read whole by its id, for the schema to read. Undefined when a stretch is not as SQLite makes it (the arrays'
 * lengths), holds a row flagRow would not take, or the rows read are not the list's (`areTheList`): the list is then
 * read another way (whoisFlags).
 */
function flagsByStretch(
  conn: Connection,
  listId: number,
  stretchSql: string,
  leftOut: (key: string) => void,
  areTheList: (ids: readonly number[]) => boolean = () => true,
): ReadRows | undefined {
  const read: ReadRows = { rows: [], positions: [] }
  // Where a row without a pair kept stands, and its id: read whole once every stretch is read.
  const unkept: { at: number; id: number }[] = []
  const allIds: number[] = []
  const count = eachStretch(conn, listId, flagsStretch, stretchSql, (stretch) => {
    if (stretch.count === 0) return true
    if (stretch.odd !== 0 || stretch.flags === null || stretch.positions === null || stretch.ids === null) return false
    const flags = parseJson(textOf(stretch.flags))
    const positions = parseJson(stretch.positions)
    const ids = parseJson(stretch.ids)
    if (!Array.isArray(flags) || flags.length !== stretch.count) return false
    if (!isPositions(positions) || positions.length !== stretch.count) return false
    if (!isPositions(ids) || ids.length !== stretch.count) return false
    for (let i = 0; i < flags.length; i++) {
      const pair: unknown = flags[i]
      if (!isPair(pair)) unkept.push({ at: read.rows.length, id: ids[i] ?? 0 })
      read.rows.push(isPair(pair) ? { domainname: pair[0], whoisproxy: pair[1] } : undefined)
      read.positions.push(positions[i] ?? 0)
      allIds.push(ids[i] ?? 0)
    }
    return true
  })
  if (count === undefined || read.rows.length !== count || !areTheList(allIds)) return undefined
  for (const { at, id } of unkept)
    read.rows[at] = conn.get(keyedJsonRow, 'SELECT item_key, json FROM list_items WHERE id = ?', [id], () =>
      leftOut(''),
    )
  return read
}

const listIds = z.object({ ids: z.string().nullable() })
/** How many times longer than the list the span of its ids may be before areTheListsRows marks them in a Set. */
const SPARSE_IDS = 4
/**
 * Whether `ids`, of rows read from whois_flags, are the ids of the list's rows in list_items, as its (list_id,
 * item_key) index has them (3 ms at 100,000 domains; the rows' texts are never read). As many of them is not enough:
 * a row a REPLACE deleted without the delete trigger leaves its kept row behind, which may stand where a row the list
 * has lacks its own.
 */
function areTheListsRows(conn: Connection, listId: number, ids: readonly number[]): boolean {
  const row = conn.get(listIds, "SELECT '[' || group_concat(id, ',') || ']' AS ids FROM list_items WHERE list_id = ?", [
    listId,
  ])
  const listed = row?.ids ? parseJson(row.ids) : []
  if (!isPositions(listed) || listed.length !== ids.length) return false
  // A list stored empty: no ids on either side, and no span to mark them in.
  if (ids.length === 0) return true
  // Each side's ids are row ids, each once: as many of them, all of the list's among those read is all of them. Read
  // ids are marked in a bitmap of their span, which is at most about twice the list's when eachStretch reads the list
  // by spans of ids; a list whose ids lie farther apart is read by its ids (so none but the list's is read), and its
  // ids go in a Set, never a bitmap as long as the gaps. Sorting both sides cost ~10 ms at 100,000 domains.
  let lo = Infinity
  let hi = -Infinity
  for (const id of ids) {
    if (id < lo) lo = id
    if (id > hi) hi = id
  }
  if (hi - lo >= SPARSE_IDS * ids.length) {
    const read = new Set(ids)
    return listed.every((id) => read.has(id))
  }
  const read = new Uint8Array(hi - lo + 1)
  for (const id of ids) read[id - lo] = 1
  return listed.every((id) => read[id - lo] === 1)
}

/** The list's rows with their kept flags, one by one: a row that is not as read is left out and reported. */
function flagsRowByRow(conn: Connection, listId: number, leftOut: (key: string) => void): ReadRows {
  const read = conn.all(
    flagRow,
    `SELECT li.id, li.item_key, li.pos, wf.flags
     FROM list_items AS li LEFT JOIN whois_flags AS wf ON wf.item_id = li.id WHERE li.id IN ${IDS_OF_LIST}`,
    [listId],
    () => leftOut(''),
  )
  const rows: ReadRows = { rows: [], positions: [] }
  for (const { id, item_key, pos, flags } of read) {
    const pair = flags === null ? undefined : parseJson(flags)
    if (isPair(pair)) {
      rows.rows.push({ domainname: pair[0], whoisproxy: pair[1] })
      rows.positions.push(pos)
      continue
    }
    const whole = conn.get(jsonRow, 'SELECT json FROM list_items WHERE id = ?', [id], () => leftOut(''))
    if (!whole) continue
    rows.rows.push({ item_key, json: whole.json })
    rows.positions.push(pos)
  }
  return rows
}

/** The stored WHOIS list's flags, in the list's order, with its time; undefined when it was never stored. */
export function whoisFlags(
  conn: Connection,
  accountId: string,
  report: (p: StoreProblem) => void,
): WholeList<WhoisPrivacyItem> | undefined {
  const skip = rowSkipped(accountId, WHOIS, report)
  const spec = LIST_SPECS[WHOIS]
  const check = spec.stored ?? itemOf(spec.item)
  let skipped = 0
  const leftOut = (key: string) => {
    skipped++
    skip(key)
  }
  // One read transaction: the list's time and its rows come from the same committed state.
  const found = conn.read(() => {
    const meta = listMeta(conn, accountId, WHOIS, '', skip)
    if (!meta) return undefined
    // Each row's flags as its write kept them; the few rows ROW_IS_ITEM did not take (or without
    // flags kept) are read whole after, each by its id. From whois_flags alone when it holds a row for each of the
    // list's rows and for no other: the triggers keep it so, but a file written while they were dropped, or a row a
    // REPLACE deleted without its delete trigger, is not. The rows are then read from list_items, and one by one
    // where a stretch is not as SQLite makes it.
    const rows =
      flagsByStretch(conn, meta.id, KEPT_STRETCH, leftOut, (ids) => areTheListsRows(conn, meta.id, ids)) ??
      flagsByStretch(conn, meta.id, JOINED_STRETCH, leftOut) ??
      flagsRowByRow(conn, meta.id, leftOut)
    return { meta, rows }
  })
  if (!found) return undefined
  // In the list's order, as getList answers its items (rows of one position in the table's order).
  const items: WhoisPrivacyItem[] = []
  for (const row of inPositionOrder(found.rows.rows, found.rows.positions)) {
    if (row === undefined) continue
    if (!('json' in row)) {
      items.push(row)
      continue
    }
    const item = check(parseJson(row.json))
    if (item === undefined) leftOut(row.item_key)
    else items.push(...whoisPrivacyOf([item]))
  }
  return { items, readAt: found.meta.read_at, complete: found.meta.complete === 1, skipped }
}
