/**
 * Served-against-saved comparisons (the window's and the command line's): each zone's last one
 * kept with its outcome and time (it survives a reload), and history told only of a real
 * difference that appeared or cleared, as found by a comparison. A comparison that could not ask
 * (no address, no answer) or found the zone delegated elsewhere leaves history alone: it says
 * nothing about what the nameservers serve of this zone, and recording it would cry wolf.
 */
import { z } from 'zod'
import { servedChangeSchema, servedFindingSchema } from '@shared/dns/health/finding-schema'
import {
  isServedDifference,
  servedOutcome,
  SERVED_OUTCOMES,
  type ServedFinding,
  type ServedResult,
} from '@shared/dns/health/served'
import { parseJson } from './json'
import type { Connection } from './database'
import { storedJson } from './lists'

const servedKey = (f: ServedFinding) =>
  `${f.code}\u0000${JSON.stringify(Object.entries(f.params).sort(([a], [b]) => a.localeCompare(b)))}`
const differenceKeys = (fs: readonly ServedFinding[]) =>
  [...new Set(fs.filter(isServedDifference).map(servedKey))].sort().join('\n')
const lastAfter = z.object({ after: z.string().nullable() })
const resultRow = z.object({
  account_id: z.string(),
  domain: z.string(),
  outcome: z.enum(SERVED_OUTCOMES),
  findings: z.string(),
  at: z.string(),
})
const storedFindings = z.array(servedFindingSchema)

/**
 * Keeps the zone's comparison and, when its differences are not the last recorded ones (a
 * nameserver fell behind, or caught up), records them in history. Returns 1 when it recorded an
 * entry, else 0.
 */
export function keepServed(
  conn: Connection,
  c: { accountId: string; domain: string; findings: readonly ServedFinding[]; at: string },
): number {
  const outcome = servedOutcome(c.findings)
  return conn.write(() => {
    conn.run(
      `INSERT INTO served_results (account_id, domain, outcome, findings, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account_id, domain) DO UPDATE SET outcome = excluded.outcome, findings = excluded.findings, at = excluded.at`,
      [c.accountId, c.domain, outcome, storedJson(c.findings), c.at],
    )
    if (outcome !== 'same' && outcome !== 'differs') return 0
    const last = conn.get(
      lastAfter,
      "SELECT after FROM history WHERE account_id = ? AND subject_kind = 'domain' AND subject = ? AND aspect = 'served' ORDER BY at DESC, id DESC LIMIT 1",
      [c.accountId, c.domain],
    )
    const read = last?.after ? servedChangeSchema.safeParse(parseJson(last.after)) : undefined
    // Only the differences are compared and kept: an entry of an older version that recorded a
    // nameserver it could not ask is read as the differences it held.
    const before = (read?.success ? read.data.findings : []).filter(isServedDifference)
    const now = c.findings.filter(isServedDifference)
    if (differenceKeys(before) === differenceKeys(now)) return 0
    conn.insert(
      `INSERT INTO history (account_id, subject_kind, subject, origin, aspect, before, after, at, seen) VALUES (?, 'domain', ?, 'outside', 'served', ?, ?, ?, 0)`,
      [c.accountId, c.domain, storedJson({ findings: before }), storedJson({ findings: now }), c.at],
    )
    return 1
  })
}

/** The last comparison of every zone compared (of one account, or all), by domain. */
export function servedResults(conn: Connection, accountId: string | undefined): ServedResult[] {
  const rows = accountId
    ? conn.all(
        resultRow,
        'SELECT account_id, domain, outcome, findings, at FROM served_results WHERE account_id = ? ORDER BY domain',
        [accountId],
      )
    : conn.all(
        resultRow,
        'SELECT account_id, domain, outcome, findings, at FROM served_results ORDER BY account_id, domain',
        [],
      )
  return rows.flatMap((r) => {
    const findings = storedFindings.safeParse(parseJson(r.findings))
    return findings.success
      ? [{ accountId: r.account_id, domain: r.domain, outcome: r.outcome, findings: findings.data, at: r.at }]
      : []
  })
}
