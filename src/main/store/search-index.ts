/**
 * The search entries: what a list item or a zone puts into the command palette's index, and
 * the writing of them. Each entry belongs to one source (a list item's row or a zone's) and is
 * replaced and removed with it, so the index never outlives what it points at.
 */
import { parse, records, serialiseRow } from '../../shared/dns/records'
import type { Connection } from './database'
import { ftsTableOf } from './migrations'
import { SEARCH_FIELDS, SEARCH_KINDS, type SearchField, type SearchKind, type ZoneKind } from '../../shared/portfolio'

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

export const nameEntry = (kind: Exclude<SearchKind, 'record'>, name: string, key: string, extra: Pick<SearchEntry, 'detail' | 'scope'> = {}): SearchEntry[] =>
  name.trim() === '' ? [] : [{ kind, field: 'name', text: name, key, label: name, ...extra }]

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
  for (const r of records(parse(text))) {
    const line = serialiseRow(r).trim()
    const base = { kind: 'record' as const, key: domain, label: domain, detail: line, scope: kind }
    const host = fullHost(r.host, domain)
    if (host.toLowerCase() !== domain.toLowerCase()) out.push({ ...base, field: 'host', text: host })
    if (r.value.trim() !== '') out.push({ ...base, field: 'value', text: r.value.trim() })
  }
  return out
}

/** The normalised form searched: lower case, trimmed, at most MAX_INDEXED characters. */
export const searchText = (s: string): string => s.trim().toLowerCase().slice(0, MAX_INDEXED)

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
  private readonly goneItems: number[] = []
  private readonly goneZones: number[] = []

  constructor(private readonly conn: Connection) {}

  add(accountId: string, source: Source, entries: readonly SearchEntry[]): void {
    this.flushRemovals()
    const item = 'item' in source ? source.item : null
    const zone = 'zone' in source ? source.zone : null
    for (const e of entries) {
      const kind = SEARCH_KINDS.indexOf(e.kind)
      const id = this.conn.insert(
        'INSERT INTO search (account_id, item_id, zone_id, kind, field, text, key, label, detail, scope) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [accountId, item, zone, kind, SEARCH_FIELDS.indexOf(e.field), searchText(e.text), e.key, e.label, e.detail ?? null, e.scope ?? null],
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
    for (const [column, ids] of [['item_id', this.goneItems], ['zone_id', this.goneZones]] as const) {
      if (ids.length === 0) continue
      this.conn.run(`DELETE FROM search WHERE ${column} IN (SELECT value FROM json_each(?))`, [JSON.stringify(ids)])
      ids.length = 0
    }
  }

  /** Every row with an id from the first one added on is new: SQLite gives a new row an id above every id in the table. */
  private flushAdditions(): void {
    if (this.firstNew === undefined) return
    for (const kind of this.kinds) {
      const fts = ftsTableOf(kind)
      this.conn.run(`INSERT INTO ${fts} (rowid, text) SELECT id, text FROM search WHERE id >= ? AND kind = ?`, [this.firstNew, kind])
    }
    this.firstNew = undefined
    this.kinds.clear()
  }
}
