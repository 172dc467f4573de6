/**
 * The Health screen's rows (issue 53 point 2): one row per zone, name and rule with how many
 * findings it holds (a rule that fires once per record, such as two SPF records, read as one row
 * per record before), and one row per zone whose last comparison with its nameservers did not
 * find it served as saved. Pure: the screen words and draws them.
 */
import type { HealthFinding, HealthRule, Severity } from '@shared/dns/health/rules'
import type { ServedOutcome, ServedResult } from '@shared/dns/health/served'
import type { HealthOverview, ZoneKind } from '@shared/portfolio'

interface RowBase {
  key: string
  accountId: string
  kind: ZoneKind
  domain: string
  severity: Severity
}

export type HealthRow =
  | (RowBase & { source: 'rule'; rule: HealthRule; host: string; findings: HealthFinding[] })
  | (RowBase & { source: 'served'; outcome: Exclude<ServedOutcome, 'same'>; result: ServedResult })

const SERVED_SEVERITY: Record<Exclude<ServedOutcome, 'same'>, Severity> = {
  differs: 'error',
  delegated: 'warning',
  unknown: 'info',
}
const SEVERITY_ORDER: readonly Severity[] = ['error', 'warning', 'info']

export function healthRows(o: Pick<HealthOverview, 'zones' | 'served'>): HealthRow[] {
  const rows = new Map<string, HealthRow>()
  for (const z of o.zones)
    for (const f of z.findings) {
      const host = f.record.host.toLowerCase()
      const key = `${z.accountId}\u0000${z.kind}\u0000${z.domain}\u0000${f.rule}\u0000${host}`
      const row = rows.get(key)
      if (row?.source === 'rule') row.findings.push(f)
      else
        rows.set(key, {
          key,
          source: 'rule',
          accountId: z.accountId,
          kind: z.kind,
          domain: z.domain,
          severity: f.severity,
          rule: f.rule,
          host,
          findings: [f],
        })
    }
  for (const r of o.served) {
    if (r.outcome === 'same') continue
    const key = `${r.accountId}\u0000dns\u0000${r.domain}\u0000served`
    rows.set(key, {
      key,
      source: 'served',
      accountId: r.accountId,
      kind: 'dns',
      domain: r.domain,
      severity: SERVED_SEVERITY[r.outcome],
      outcome: r.outcome,
      result: r,
    })
  }
  return [...rows.values()].sort(
    (a, b) =>
      SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || a.domain.localeCompare(b.domain),
  )
}
