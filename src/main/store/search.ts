/**
 * The command palette's search across accounts. Ranking: exact matches, then prefix matches,
 * then substring matches; within each, domains, servers, svcips, free DNS, then records.
 *
 * Each step is a small indexed query that stops at the limit, so a query costs about the same
 * whatever the portfolio's size: exact and prefix matches walk the (kind, text) index;
 * substring matches use one FTS5 trigram index per kind (a single index would have to read
 * every match of a common fragment such as "com" to put the domains before the records).
 * Substrings need 3 characters, a trigram; a shorter query finds exact and prefix matches.
 */
import { z } from 'zod'
import { SERVER_KINDS } from '../../shared/constants'
import type { Connection } from './database'
import { ftsTableOf } from './migrations'
import { searchText } from './search-index'
import { SEARCH_FIELDS, SEARCH_KINDS, ZONE_KINDS, type MatchKind, type SearchHit } from '../../shared/portfolio'

export const DEFAULT_SEARCH_LIMIT = 50
const MAX_SEARCH_LIMIT = 500

const indexOf = <T extends string>(values: readonly T[]) =>
  z.number().int().transform((i, ctx): T => {
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

  conn.read(() => {
    const kinds = SEARCH_KINDS.map((_, kind) => kind)
    for (const kind of kinds) {
      take(conn.all(rowSchema, `SELECT ${COLUMNS} FROM search WHERE kind = ? AND text = ? ORDER BY account_id, label, id LIMIT ?`, [kind, q, fetch]), 'exact')
    }
    for (const kind of kinds) {
      if (full()) return
      const rows = conn.all(
        rowSchema,
        `SELECT ${COLUMNS} FROM search WHERE kind = ? AND text > ? AND text < ? ORDER BY text, account_id, label, id LIMIT ?`,
        [kind, q, q + AFTER_PREFIX, fetch],
      )
      take(rows, 'prefix')
    }
    if (q.length < 3) return
    const phrase = `"${q.replace(/"/g, '""')}"`
    for (const kind of kinds) {
      if (full()) return
      const fts = ftsTableOf(kind)
      // The first matches in the index's order, ranked among themselves: the earlier the
      // fragment and the shorter the text, the better. Prefix matches had their turn above.
      const rows = conn
        .all(rowSchema, `SELECT ${COLUMNS} FROM search WHERE id IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? LIMIT ?)`, [phrase, fetch * 2])
        .filter((r) => !r.text.startsWith(q))
        .sort((a, b) => a.text.indexOf(q) - b.text.indexOf(q) || a.text.length - b.text.length || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
      take(rows, 'substring')
    }
  })
  return hits
}
