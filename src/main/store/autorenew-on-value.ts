/**
 * Values the service uses in an account's own data, learned from the lists as last read (like
 * the product words of the account settings): the number it writes for an auto-renewal setting
 * that is on. The live service writes 10 ("autorenew_all":10,"autorenew_domain":10 in its own
 * sample), the spec shows none; the app sends back what the service itself wrote.
 */
import { z } from 'zod'
import type { Connection } from './database'

/** The lists whose items carry the two auto-renewal settings of domains and servers. */
const AUTORENEW_LISTS = ['domains.list', 'domains.autorenew.list', 'servers.list', 'servers.autorenew.list'] as const
const SETTINGS = ['$.autorenew_all', '$.autorenew_domain', '$.autorenew_server'] as const

const valueRow = z.object({ v: z.number().int().min(1).max(255) })

/**
 * The non-zero auto-renewal value of the account's most recently read list that has one (the
 * service's latest word), the most frequent there; undefined when no setting is on anywhere.
 */
export function autorenewOnValue(conn: Connection, accountId: string): number | undefined {
  const lists = AUTORENEW_LISTS.map(() => '?').join(', ')
  const values = SETTINGS.map(
    () =>
      `SELECT json_extract(i.json, ?) AS v, l.read_at AS at FROM list_items i JOIN lists l ON l.id = i.list_id WHERE l.account_id = ? AND l.list IN (${lists})`,
  ).join(' UNION ALL ')
  const params = SETTINGS.flatMap((path) => [path, accountId, ...AUTORENEW_LISTS])
  const row = conn.get(
    valueRow,
    `SELECT v FROM (${values}) WHERE typeof(v) = 'integer' AND v BETWEEN 1 AND 255 GROUP BY v ORDER BY MAX(at) DESC, COUNT(*) DESC, v DESC LIMIT 1`,
    params,
  )
  return row?.v
}
