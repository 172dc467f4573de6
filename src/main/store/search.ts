/**
 * The command palette's search across accounts. Ranking: exact matches, then prefix matches,
 * then substring matches; within each, domains, servers, svcips, free DNS, then records.
 *
 * Each step is a small indexed query that stops at the limit, so a query costs about the same
 * whatever the portfolio's size: exact and prefix matches of names walk the (kind, text) index;
 * substring matches use one FTS5 trigram index per kind (a single index would have to read
 * every match of a common fragment such as "com" to put the domains before the records).
 * Records are found through their zone's row of the zones' trigram index (search-index.ts):
 * exactly as "\nvalue\n", by their start as "\nval", anywhere as "val"; the zones found are
 * read again to say which of their records matched, and how.
 * Substrings need 3 characters, a trigram; a shorter query finds exact and prefix matches (of
 * records, a prefix of 2 characters at least: with its line break, a trigram).
 */
import { z } from 'zod'
import { SERVER_KINDS } from '@shared/service/constants'
import type { Connection } from './database'
import { NAME_KINDS, ZONE_FTS, ftsTableOf, recordEntries, searchText } from './search-index'
import {
  SEARCH_FIELDS,
  SEARCH_KINDS,
  ZONE_KINDS,
  type MatchKind,
  type SearchHit,
  type SearchKind,
} from '@shared/portfolio'

export const DEFAULT_SEARCH_LIMIT = 50
const MAX_SEARCH_LIMIT = 500

const indexOf = <T extends string>(values: readonly T[]) =>
  z
    .number()
    .int()
    .transform((i, ctx): T => {
      const v = values[i]
      if (v === undefined) {
        ctx.addIssue({ code: 'custom', message: 'store.unknownIndex' })
        return z.NEVER
      }
      return v
    })

const rowSchema = z.object({
  id: z.number().int(),
  account_id: z.string(),
  kind: indexOf(SEARCH_KINDS),
  field: indexOf(SEARCH_FIELDS),
  text: z.string(),
  key: z.string(),
  label: z.string(),
  detail: z.string().nullable(),
  scope: z.string().nullable(),
})
type Row = z.output<typeof rowSchema>

const COLUMNS = 'id, account_id, kind, field, text, key, label, detail, scope'
const serverKind = z.enum(SERVER_KINDS)
const zoneKind = z.enum(ZONE_KINDS)
const zoneRow = z.object({ account_id: z.string(), kind: zoneKind, domain: z.string(), records: z.string() })

/** How a searched text holds the query, if it does. */
function matchOf(text: string, q: string): MatchKind | undefined {
  if (text === q) return 'exact'
  if (text.startsWith(q)) return 'prefix'
  return text.includes(q) ? 'substring' : undefined
}

/** A query for FTS5: the text as one phrase, whatever characters it holds. */
const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`

/** A zone read for its records, with its row of the zones' trigram index. */
const zoneHit = zoneRow.extend({ text: z.string() })
type ZoneHit = z.output<typeof zoneRow> & { text?: string }
const indexRow = z.object({ rowid: z.number().int() })

const ZONE_PATTERN = {
  exact: (q: string) => `\n${q}\n`,
  prefix: (q: string) => `\n${q}`,
  substring: (q: string) => q,
} satisfies Record<MatchKind, (q: string) => string>

/**
 * A query this long is most often a whole name (a domain, a host, an address in full), held by
 * few zones. A shorter one is often common and found exactly or by its start already: asking
 * first which zones hold it anywhere would cost it a query it may never use (0.3 ms of a 0.8 ms
 * search, measured on the portfolio-store bench's 20 typical queries).
 */
const LONG_QUERY = 12

/**
 * The zones a search reads records from, found through the zones' trigram index. For a long
 * query, which zones hold it anywhere (its substring matches) is asked first, ids only: when
 * fewer came back than were asked for, they are every one, and the zones holding it exactly or by
 * a record's start are among them, found by comparing their index rows here (the rows hold the
 * normalised texts the query is compared with). A whole domain name cost three trigram queries
 * of 3-4 ms each over 100,000 zones: the trigrams of ".co", ".jp" and the like are in most of
 * them, and a query that matches few zones reads them all (issue 40's palette search).
 */
class ZonesOfSearch {
  private anywhere: { ids: number[]; complete: boolean } | undefined
  private candidates: ZoneHit[] | undefined

  constructor(
    private readonly conn: Connection,
    private readonly q: string,
    private readonly fetch: number,
  ) {}

  /** The first zones in the index's order whose row holds the query this way (as many as the match takes). */
  zones(match: MatchKind): readonly ZoneHit[] {
    const pattern = ZONE_PATTERN[match](this.q)
    if (this.q.includes('\n') || [...pattern].length < 3) return []
    if (match === 'substring') {
      this.anywhere ??= this.idsHolding(this.q, this.fetch * 2)
      return this.candidates ?? this.read(this.anywhere.ids, false)
    }
    if ([...this.q].length >= LONG_QUERY) {
      this.anywhere ??= this.idsHolding(this.q, this.fetch * 2)
      if (this.anywhere.complete) {
        this.candidates ??= this.read(this.anywhere.ids, true)
        return this.candidates.filter((zn) => zn.text?.includes(pattern)).slice(0, this.fetch)
      }
    }
    return this.read(this.idsHolding(pattern, this.fetch).ids, false)
  }

  private idsHolding(pattern: string, limit: number): { ids: number[]; complete: boolean } {
    const ids = this.conn
      .all(indexRow, `SELECT rowid FROM ${ZONE_FTS} WHERE ${ZONE_FTS} MATCH ? LIMIT ?`, [phrase(pattern), limit])
      .map((r) => r.rowid)
    return { ids, complete: ids.length < limit }
  }

  /** The zones of these ids in the index's order, with their index rows when they are to be compared here. */
  private read(ids: readonly number[], withText: boolean): ZoneHit[] {
    if (ids.length === 0) return []
    const list = [JSON.stringify(ids)]
    return withText
      ? this.conn.all(
          zoneHit,
          'SELECT z.account_id, z.kind, z.domain, z.records, s.text FROM zones z JOIN zone_search s ON s.zone_id = z.id WHERE z.id IN (SELECT value FROM json_each(?)) ORDER BY z.id',
          list,
        )
      : this.conn.all(
          zoneRow,
          'SELECT account_id, kind, domain, records FROM zones WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id',
          list,
        )
  }
}

/** The records whose host or value matches the query this way, in the order the other kinds' rows of this match come in. */
function recordRows(zones: ZonesOfSearch, q: string, match: MatchKind): Row[] {
  const rows: Row[] = []
  for (const zn of zones.zones(match)) {
    for (const e of recordEntries(zn.kind, zn.domain, zn.records)) {
      const text = searchText(e.text)
      if (matchOf(text, q) !== match) continue
      rows.push({
        id: rows.length,
        account_id: zn.account_id,
        kind: 'record',
        field: e.field,
        text,
        key: e.key,
        label: e.label,
        detail: e.detail ?? null,
        scope: e.scope ?? null,
      })
    }
  }
  const byAccountLabel = (a: Row, b: Row) =>
    a.account_id < b.account_id
      ? -1
      : a.account_id > b.account_id
        ? 1
        : a.label < b.label
          ? -1
          : a.label > b.label
            ? 1
            : a.id - b.id
  if (match === 'exact') return rows.sort(byAccountLabel)
  if (match === 'prefix') return rows.sort((a, b) => byText(a, b) || byAccountLabel(a, b))
  return rows.sort(bySubstring(q))
}

const byText = (a: Row, b: Row) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0)

/** The earlier the fragment and the shorter the text, the better. */
const bySubstring = (q: string) => (a: Row, b: Row) =>
  a.text.indexOf(q) - b.text.indexOf(q) || a.text.length - b.text.length || byText(a, b)

function hitOf(r: Row, match: MatchKind): SearchHit {
  const hit: SearchHit = { accountId: r.account_id, kind: r.kind, key: r.key, label: r.label, field: r.field, match }
  if (r.detail !== null) hit.detail = r.detail
  if (r.kind === 'server') {
    const k = serverKind.safeParse(r.scope)
    if (k.success) hit.serverKind = k.data
  }
  if (r.kind === 'record') {
    const k = zoneKind.safeParse(r.scope)
    if (k.success) hit.zone = k.data
  }
  return hit
}

/** One result per thing found: a record found by its host and by its value is one hit. */
const identityOf = (r: Row): string => JSON.stringify([r.account_id, r.kind, r.key, r.scope, r.detail])

/** A string above every text that starts with the prefix (the largest code point). */
const AFTER_PREFIX = '\u{10FFFF}'

export function search(conn: Connection, query: string, limit = DEFAULT_SEARCH_LIMIT): SearchHit[] {
  const q = searchText(query)
  const max = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(limit)))
  if (q === '' || !Number.isFinite(max)) return []
  // Room for the duplicates that are dropped (a record matched by both host and value).
  const fetch = max * 2 + 8
  const hits: SearchHit[] = []
  const seen = new Set<string>()
  const take = (rows: readonly Row[], match: MatchKind): void => {
    for (const r of rows) {
      if (hits.length >= max) return
      const id = identityOf(r)
      if (seen.has(id)) continue
      seen.add(id)
      hits.push(hitOf(r, match))
    }
  }
  const full = () => hits.length >= max
  const zones = new ZonesOfSearch(conn, q, fetch)

  conn.read(() => {
    const kinds = NAME_KINDS.map((k: SearchKind) => SEARCH_KINDS.indexOf(k))
    for (const kind of kinds) {
      take(
        conn.all(
          rowSchema,
          `SELECT ${COLUMNS} FROM search WHERE kind = ? AND text = ? ORDER BY account_id, label, id LIMIT ?`,
          [kind, q, fetch],
        ),
        'exact',
      )
    }
    take(recordRows(zones, q, 'exact'), 'exact')
    for (const kind of kinds) {
      if (full()) return
      const rows = conn.all(
        rowSchema,
        `SELECT ${COLUMNS} FROM search WHERE kind = ? AND text > ? AND text < ? ORDER BY text, account_id, label, id LIMIT ?`,
        [kind, q, q + AFTER_PREFIX, fetch],
      )
      take(rows, 'prefix')
    }
    if (full()) return
    take(recordRows(zones, q, 'prefix'), 'prefix')
    if (q.length < 3) return
    for (const kind of kinds) {
      if (full()) return
      const fts = ftsTableOf(kind)
      // The first matches in the index's order, ranked among themselves. Prefix matches had
      // their turn above.
      const rows = conn
        .all(
          rowSchema,
          `SELECT ${COLUMNS} FROM search WHERE id IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? LIMIT ?)`,
          [phrase(q), fetch * 2],
        )
        .filter((r) => !r.text.startsWith(q))
        .sort(bySubstring(q))
      take(rows, 'substring')
    }
    if (full()) return
    take(recordRows(zones, q, 'substring'), 'substring')
  })
  return hits
}
