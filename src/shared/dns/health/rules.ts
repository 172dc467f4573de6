/**
 * Zone health: what is valid to the service but broken for mail or certificates, found in the
 * zone as it would be after a save. Pure and offline here (rules that need DNS take an asker:
 * asked.ts). A finding never blocks a save; it names its rule, its record and its parameters,
 * and the catalogue says why it matters and how to fix it (`health.rule.<rule>.*`).
 */
import { records, txtText, splitValue, type RecordRow, type Row } from '../records'
import { hostName, inZone, targetName } from './names'
import { caaProblem, dkimProblem, dmarcProblem, isSpf, readSpf } from './syntax'

export const HEALTH_RULES = [
  'spf.multiple',
  'spf.syntax',
  'spf.lookups',
  'dmarc.syntax',
  'dkim.syntax',
  'cname.beside',
  'cname.apex',
  'mx.cname',
  'ns.cname',
  'target.dangling',
  'caa.syntax',
  'dns.unasked',
] as const
export type HealthRule = (typeof HEALTH_RULES)[number]

export type Severity = 'error' | 'warning' | 'info'

export const SEVERITY: Record<HealthRule, Severity> = {
  'spf.multiple': 'error',
  'spf.syntax': 'error',
  'spf.lookups': 'error',
  'dmarc.syntax': 'error',
  'dkim.syntax': 'error',
  'cname.beside': 'error',
  'cname.apex': 'error',
  'mx.cname': 'warning',
  'ns.cname': 'warning',
  'target.dangling': 'warning',
  'caa.syntax': 'error',
  'dns.unasked': 'info',
}

export interface HealthRecord {
  type: string
  host: string
  value: string
}

export interface HealthFinding {
  rule: HealthRule
  severity: Severity
  record: HealthRecord
  /** For the catalogue's `health.rule.<rule>.what` (part, name, count…). */
  params: Record<string, string | number>
  /** In a plan: the save brings it (it is not found in the zone as it is). */
  introduced?: boolean
}

const recordOf = (r: RecordRow): HealthRecord => ({ type: r.type, host: r.host, value: r.value })
const finding = (rule: HealthRule, r: RecordRow, params: Record<string, string | number> = {}): HealthFinding => ({
  rule,
  severity: SEVERITY[rule],
  record: recordOf(r),
  params,
})

/** A record's full owner name; an MX belongs to the apex in the service's form. */
const ownerOf = (r: RecordRow, zone: string): string => hostName(r.type === 'mx' ? '@' : r.host, zone)

/** The name a CNAME, MX, NS or SRV record points at (undefined for others, or the SRV "no service" dot). */
export function targetOf(r: RecordRow, zone: string): string | undefined {
  if (r.type === 'cname' || r.type === 'ns') return targetName(r.value.split(/\s+/)[0] ?? '', zone)
  if (r.type === 'mx') return targetName(splitValue('mx', r.value).target ?? '', zone)
  if (r.type === 'srv') {
    const t = splitValue('srv', r.value).target ?? ''
    return t === '.' || t === '' ? undefined : targetName(t, zone)
  }
  return undefined
}

/** The zone's records grouped by owner name: what each rule reads. */
export interface ZoneIndex {
  zone: string
  rows: RecordRow[]
  byName: Map<string, RecordRow[]>
}

export function indexZone(rows: readonly Row[], zone: string): ZoneIndex {
  const recs = records([...rows])
  const byName = new Map<string, RecordRow[]>()
  for (const r of recs) {
    const name = ownerOf(r, zone)
    const list = byName.get(name)
    if (list) list.push(r)
    else byName.set(name, [r])
  }
  return { zone: hostName('@', zone), rows: recs, byName }
}

/** SPF texts at a name of the zone itself (for include chains that stay inside it). */
export function spfAt(index: ZoneIndex, name: string): string[] {
  return (index.byName.get(name) ?? [])
    .filter((r) => r.type === 'txt')
    .map((r) => txtText(r.value.trim()))
    .filter(isSpf)
}

/** Every offline finding of a zone, in the zone's order. */
export function zoneFindings(index: ZoneIndex): HealthFinding[] {
  const out: HealthFinding[] = []
  const zone = index.zone
  for (const [name, here] of index.byName) {
    // Most names hold one record, which no rule of a name's set can fault but a CNAME at the
    // apex: no arrays made for them (a plan's review runs this over every name, issue 40).
    if (here.length === 1) {
      if (name === zone && here[0]!.type === 'cname') out.push(finding('cname.apex', here[0]!))
      continue
    }
    const cnames = here.filter((r) => r.type === 'cname')
    if (cnames.length > 0) {
      if (name === zone) for (const r of cnames) out.push(finding('cname.apex', r))
      // RFC 1034 §3.6.2: a CNAME is the only record at its name (DNSSEC records aside).
      if (here.length > 1) for (const r of cnames) out.push(finding('cname.beside', r, { count: here.length - 1 }))
    }
    const spfs = here.filter((r) => r.type === 'txt' && isSpf(txtText(r.value.trim())))
    if (spfs.length > 1) for (const r of spfs) out.push(finding('spf.multiple', r, { count: spfs.length }))
  }
  for (const r of index.rows) {
    if (r.type === 'txt') {
      const text = txtText(r.value.trim())
      const name = ownerOf(r, zone)
      if (isSpf(text)) {
        const read = readSpf(text)
        if ('problem' in read) out.push(finding('spf.syntax', r, { ...read.problem }))
      }
      if (name === '_dmarc' || name.startsWith('_dmarc.')) {
        const p = dmarcProblem(text)
        if (p) out.push(finding('dmarc.syntax', r, { ...p }))
      }
      if (/(^|\.)_domainkey\./.test(name) && !name.startsWith('_domainkey.')) {
        const p = dkimProblem(text)
        if (p) out.push(finding('dkim.syntax', r, { ...p }))
      }
    } else if (r.type === 'caa') {
      const p = caaProblem(r.value)
      if (p) out.push(finding('caa.syntax', r, { ...p }))
    } else if (r.type === 'mx' || r.type === 'ns') {
      const target = targetOf(r, zone)
      // Inside the zone the rows say it; outside, asked.ts asks DNS.
      if (target && inZone(target, zone) && (index.byName.get(target) ?? []).some((x) => x.type === 'cname')) {
        out.push(finding(r.type === 'mx' ? 'mx.cname' : 'ns.cname', r, { target }))
      }
    }
  }
  return out
}

/** What identifies a finding across two versions of a zone (rule, record, parameters). */
const findingKey = (f: HealthFinding): string =>
  [
    f.rule,
    f.record.type,
    f.record.host.toLowerCase(),
    f.record.value,
    ...Object.keys(f.params)
      .sort()
      .map((k) => `${k}=${f.params[k]}`),
  ].join('\u0000')

/**
 * The findings of the zone after a save, the ones the save introduces first (marked), then the
 * ones it already had. Pass the findings of both versions.
 */
export function planFindings(before: readonly HealthFinding[], after: readonly HealthFinding[]): HealthFinding[] {
  const had = new Set(before.map(findingKey))
  const introduced: HealthFinding[] = []
  const kept: HealthFinding[] = []
  for (const f of after) {
    if (had.has(findingKey(f))) kept.push({ ...f, introduced: false })
    else introduced.push({ ...f, introduced: true })
  }
  return [...introduced, ...kept]
}

/** Offline findings of a plan between two versions of a zone's rows. */
export function planHealthOffline(before: readonly Row[], after: readonly Row[], zone: string): HealthFinding[] {
  return planFindings(zoneFindings(indexZone(before, zone)), zoneFindings(indexZone(after, zone)))
}
