/**
 * The search entries: what a list item or a zone puts into the command palette's index, and
 * the writing of them. Each entry belongs to one source (a list item's row or a zone's) and is
 * replaced and removed with it, so the index never outlives what it points at.
 *
 * A list item's name is one row of `search`. A zone's records are one row of `zone_search` for
 * the whole zone: its record hosts and values, a line each, between line breaks, so that one
 * trigram index finds a value exactly ("\nvalue\n"), by its start ("\nval") or anywhere in it
 * ("alu"); the search reads the zone's records again to say which records matched (search.ts).
 * A row per record, as before, made an account's first DNS list cost four times as much to
 * store: 89,395 rows and index entries for 10,000 zones, where this is 10,000.
 */
import { parse, records, serialiseRow, type RecordRow } from '@shared/dns/records'
import { z } from 'zod'
import type { Connection } from './database'
import { SEARCH_FIELDS, SEARCH_KINDS, type SearchField, type SearchKind, type ZoneKind } from '@shared/portfolio'

/** The kinds that are list items' names, each with its own trigram index (see search.ts for why). */
export const NAME_KINDS = SEARCH_KINDS.filter((k): k is Exclude<SearchKind, 'record'> => k !== 'record')

/** The trigram index of one kind of name (by its place in SEARCH_KINDS). */
export const ftsTableOf = (kind: number): string => `search_fts_${kind}`
/** The trigram index of the zones' record hosts and values. */
export const ZONE_FTS = 'zone_search_fts'
/** Every trigram index of the store: FTS5's integrity check runs over each. */
export const TRIGRAM_INDEXES: readonly string[] = [
  ...NAME_KINDS.map((k) => ftsTableOf(SEARCH_KINDS.indexOf(k))),
  ZONE_FTS,
]

export interface SearchEntry {
  kind: SearchKind
  field: SearchField
  /** The text matched against, as shown. */
  text: string
  key: string
  label: string
  detail?: string | undefined
  /** A server's kind, a record's zone. */
  scope?: string | undefined
}

/**
 * Longer values (DKIM keys in TXT records) are indexed by their start only: nobody types
 * further into one, and the trigram index grows with every character.
 */
const MAX_INDEXED = 200

/** The row an entry came from: a list item's (list_items.id) or a zone's (zones.id). */
export type Source = { item: number } | { zone: number }

export const nameEntry = (
  kind: Exclude<SearchKind, 'record'>,
  name: string,
  key: string,
  extra: Pick<SearchEntry, 'detail' | 'scope'> = {},
): SearchEntry[] => (name.trim() === '' ? [] : [{ kind, field: 'name', text: name, key, label: name, ...extra }])

/** A record's host as a full name: `www` in example.com is www.example.com; `@` is the domain itself. */
function fullHost(host: string, domain: string): string {
  if (host === '@' || host === '') return domain
  if (host.endsWith('.')) return host.slice(0, -1)
  return `${host}.${domain}`
}

/**
 * One entry for each record's value, and one for its host unless that is the domain itself
 * (the domain is in the index under its own name; thousands of `@` entries would only repeat it).
 */
export function recordEntries(kind: ZoneKind, domain: string, text: string): SearchEntry[] {
  const out: SearchEntry[] = []
  let last: RecordRow | undefined
  let line = ''
  eachRecordText(domain, records(parse(text)), (r, field, entryText) => {
    if (r !== last) [last, line] = [r, serialiseRow(r).trim()]
    out.push({ kind: 'record', key: domain, label: domain, detail: line, scope: kind, field, text: entryText })
  })
  return out
}

/** The searched texts of a zone's records, as recordEntries gives them (without the lines it shows). */
export function recordTexts(domain: string, rows: readonly RecordRow[]): string[] {
  const out: string[] = []
  eachRecordText(domain, rows, (_r, _field, text) => out.push(searchText(text)))
  return out
}

/** Each record's host as a full name (unless it is the domain itself), then its value. */
function eachRecordText(
  domain: string,
  rows: readonly RecordRow[],
  fn: (r: RecordRow, field: 'host' | 'value', text: string) => void,
): void {
  const apex = domain.toLowerCase()
  for (const r of rows) {
    const host = fullHost(r.host, domain)
    if (host.toLowerCase() !== apex) fn(r, 'host', host)
    const value = r.value.trim()
    if (value !== '') fn(r, 'value', value)
  }
}

/** The normalised form searched: lower case, trimmed, at most MAX_INDEXED characters. */
export const searchText = (s: string): string => s.trim().toLowerCase().slice(0, MAX_INDEXED)

/** Every zone's row of the index, made again from its records (migrations.ts, once). */
export function indexEveryZone(conn: Connection): void {
  const index = new SearchWriter(conn)
  for (const z of conn.all(zoneRecordsRow, 'SELECT id, domain, records FROM zones')) {
    index.addZone(z.id, recordTexts(z.domain, records(parse(z.records))))
  }
  index.flush()
}

/**
 * Writes entries and their trigram index, in bulk. FTS5 flushes its pending changes at every
 * statement that writes another table, so an index row added or removed entry by entry costs
 * three times what one statement for all of them does. Removals are kept until the next
 * addition or flush and run as one DELETE (its triggers keep the index: migrations.ts); the
 * index rows of additions are written by one INSERT ... SELECT at the flush. Removals and
 * additions are applied in the order they were asked for.
 */
export class SearchWriter {
  private firstNew: number | undefined
  private readonly kinds = new Set<number>()
  private readonly newZones: number[] = []
  private readonly goneItems: number[] = []
  private readonly goneZones: number[] = []

  constructor(private readonly conn: Connection) {}

  /**
   * A zone's records (their recordTexts), as one row: each on a line of its own, with a line
   * break before the first and after the last (see the top of this file). The zone's old row
   * was removed first.
   */
  addZone(zoneId: number, texts: readonly string[]): void {
    if (texts.length === 0) return
    const text = `\n${texts.join('\n')}\n`
    this.flushRemovals()
    this.conn.run('INSERT INTO zone_search (zone_id, text) VALUES (?, ?)', [zoneId, text])
    this.newZones.push(zoneId)
  }

  /** A list item's entries (its name); a zone's go in through addZone. */
  add(accountId: string, source: { item: number }, entries: readonly SearchEntry[]): void {
    this.flushRemovals()
    for (const e of entries) {
      const kind = SEARCH_KINDS.indexOf(e.kind)
      const id = this.conn.insert(
        'INSERT INTO search (account_id, item_id, kind, field, text, key, label, detail, scope) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          accountId,
          source.item,
          kind,
          SEARCH_FIELDS.indexOf(e.field),
          searchText(e.text),
          e.key,
          e.label,
          e.detail ?? null,
          e.scope ?? null,
        ],
      )
      this.firstNew ??= id
      this.kinds.add(kind)
    }
  }

  remove(source: Source): void {
    // Entries added but not indexed yet are indexed first, so the delete triggers never take
    // out of the index what was never put in.
    this.flushAdditions()
    if ('item' in source) this.goneItems.push(source.item)
    else this.goneZones.push(source.zone)
  }

  flush(): void {
    this.flushRemovals()
    this.flushAdditions()
  }

  private flushRemovals(): void {
    for (const [table, ids] of [
      ['search WHERE item_id', this.goneItems],
      ['zone_search WHERE zone_id', this.goneZones],
    ] as const) {
      if (ids.length === 0) continue
      this.conn.run(`DELETE FROM ${table} IN (SELECT value FROM json_each(?))`, [JSON.stringify(ids)])
      ids.length = 0
    }
  }

  /** Every row with an id from the first one added on is new: SQLite gives a new row an id above every id in the table. */
  private flushAdditions(): void {
    if (this.newZones.length > 0) {
      this.conn.run(
        `INSERT INTO ${ZONE_FTS} (rowid, text) SELECT zone_id, text FROM zone_search WHERE zone_id IN (SELECT value FROM json_each(?))`,
        [JSON.stringify(this.newZones)],
      )
      this.newZones.length = 0
    }
    if (this.firstNew === undefined) return
    for (const kind of this.kinds) {
      const fts = ftsTableOf(kind)
      this.conn.run(`INSERT INTO ${fts} (rowid, text) SELECT id, text FROM search WHERE id >= ? AND kind = ?`, [
        this.firstNew,
        kind,
      ])
    }
    this.firstNew = undefined
    this.kinds.clear()
  }
}

const zoneRecordsRow = z.object({ id: z.number().int(), domain: z.string(), records: z.string() })
