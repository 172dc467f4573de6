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
 */
import { z } from 'zod'
import { whoisPrivacyOf, type WhoisPrivacyItem } from '@shared/ipc/whois-privacy'
import type { Connection } from './database'
import { IDS_OF_LIST, itemOf, listMeta, rowSkipped } from './inventory'
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
 * the contacts is most of the read's time (at 100,000 domains about 1.3 s with it, 0.45 s without,
 * in one thread on a loaded machine): what it costs to answer exactly what getList's items give.
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

/** A row: its two members as SQLite read them (a JSON array), or null when the schema is to read it. */
const flagRow = z.object({
  id: z.number().int(),
  item_key: z.string(),
  pos: z.number().int(),
  flags: z.string().nullable(),
})
const jsonRow = z.object({ json: z.string() })
/** The two members as read: checked without a schema's cost per row (100,000 of them). */
const isPair = (v: unknown): v is [string, string] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string'

type Row = { item_key: string; pos: number } & ({ flag: WhoisPrivacyItem } | { json: string })

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
    // One column made by the test, once per row; the few rows it does not take are read whole
    // after, each by its id.
    const read = conn.all(
      flagRow,
      `SELECT id, item_key, pos,
         CASE WHEN ${ROW_IS_ITEM} THEN json_extract(li.json, '$.domainname', '$.whoisproxy') END AS flags
       FROM list_items AS li WHERE id IN ${IDS_OF_LIST}`,
      [meta.id],
      () => leftOut(''),
    )
    const rows: Row[] = []
    for (const { id, item_key, pos, flags } of read) {
      const pair = flags === null ? undefined : parseJson(flags)
      if (isPair(pair)) {
        rows.push({ item_key, pos, flag: { domainname: pair[0], whoisproxy: pair[1] } })
        continue
      }
      const whole = conn.get(jsonRow, 'SELECT json FROM list_items WHERE id = ?', [id], () => leftOut(''))
      if (whole) rows.push({ item_key, pos, json: whole.json })
    }
    return { meta, rows }
  })
  if (!found) return undefined
  // In the list's order, as getList answers its items (a stable sort: rows of one position stay in the table's order).
  const rows = found.rows.sort((a, b) => a.pos - b.pos)
  const items: WhoisPrivacyItem[] = []
  for (const row of rows) {
    if ('flag' in row) {
      items.push(row.flag)
      continue
    }
    const item = check(parseJson(row.json))
    if (item === undefined) leftOut(row.item_key)
    else items.push(...whoisPrivacyOf([item]))
  }
  return { items, readAt: found.meta.read_at, complete: found.meta.complete === 1, skipped }
}
