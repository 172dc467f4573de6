/**
 * A history entry in words: what happened (an operation from this app, or a change found from
 * outside), and the difference: for a zone, a plan (added / changed / removed records); for the
 * other aspects, each member before and after.
 */
import type { HistoryEntry } from '../../../../shared/portfolio/history'
import { plan, type Plan } from '../../../../shared/dns/plan'
import { parse } from '../../../../shared/dns/records'
import { t, tCode } from '../../i18n'
import { healthChangeSchema, servedChangeSchema } from '../../../../shared/dns/health/finding-schema'
import type { ServedFinding } from '../../../../shared/dns/health/served'
import type { HealthFinding } from '../../../../shared/dns/health/rules'
import { healthText } from '../../../../shared/i18n/health-text'

export function entryTitle(e: HistoryEntry): string {
  // Findings that appeared or went away with a zone's change, whoever made it.
  if (e.aspect === 'health' || e.aspect === 'served') return tCode(`history.aspect.${e.aspect}`)
  if (e.origin === 'outside') return t('history.changedOutside', { aspect: tCode(`history.aspect.${e.aspect}`) })
  const op = e.operation ? tCode(`operation.${e.operation}`) : tCode(`history.aspect.${e.aspect}`)
  return e.purpose && e.purpose !== 'edit' ? `${op} (${tCode(`history.purpose.${e.purpose}`)})` : op
}

const recordsOf = (v: unknown): string | undefined =>
  typeof v === 'object' && v !== null && 'records' in v && typeof v.records === 'string' ? v.records : undefined

/** For a zone: the plan from before to after, when both are known. */
export function entryPlan(e: HistoryEntry): Plan | undefined {
  if (e.aspect !== 'dns') return undefined
  const before = recordsOf(e.before)
  const after = recordsOf(e.after)
  if (before === undefined || after === undefined) return undefined
  return plan(parse(before), parse(after))
}

/** Members that are switches: 0 reads as off, any other whole number as on (the service writes 10 for an auto-renewal setting that is on). */
const SWITCHES: ReadonlySet<string> = new Set(['transfer_lock', 'autorenew', 'autorenew_all', 'autorenew_domain', 'autorenew_server', 'whoisproxy'])

function memberValue(member: string, v: unknown): string {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined
  if (SWITCHES.has(member) && n !== undefined) return t(n !== 0 ? 'history.on' : 'history.off')
  return valueText(v)
}

function valueText(v: unknown): string {
  if (v === undefined || v === null || v === '') return '—'
  if (Array.isArray(v)) return v.map(valueText).join(', ')
  if (typeof v === 'object') return Object.entries(v).map(([k, x]) => `${k}: ${valueText(x)}`).join('; ')
  return String(v)
}

/** A health entry: each finding that appeared (after), then each that went away (before). */
function healthChanges(e: HistoryEntry): string[] {
  const findings = (v: unknown) => {
    const read = healthChangeSchema.safeParse(v)
    return read.success ? read.data.findings : []
  }
  const line = (key: 'history.healthAppeared' | 'history.healthCleared') => (f: HealthFinding) => {
    const text = healthText({ tCode }, f)
    return t(key, { finding: text.title, record: text.record })
  }
  return [...findings(e.after).map(line('history.healthAppeared')), ...findings(e.before).map(line('history.healthCleared'))]
}

/** A served entry: each finding of this comparison not in the one before, then each that went away. */
function servedChanges(e: HistoryEntry): string[] {
  const findings = (v: unknown) => {
    const read = servedChangeSchema.safeParse(v)
    return read.success ? read.data.findings : []
  }
  const text = (f: ServedFinding) => tCode(f.code, f.params)
  const before = findings(e.before).map(text)
  const after = findings(e.after).map(text)
  return [...after.filter((f) => !before.includes(f)).map((finding) => t('history.servedAppeared', { finding })), ...before.filter((f) => !after.includes(f)).map((finding) => t('history.servedCleared', { finding }))]
}

/** For the other aspects: "member: before → after", for each member that differs. */
export function entryChanges(e: HistoryEntry): string[] {
  if (e.aspect === 'dns') return []
  if (e.aspect === 'health') return healthChanges(e)
  if (e.aspect === 'served') return servedChanges(e)
  const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v)) : {})
  const before = obj(e.before)
  const after = obj(e.after)
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])]
  return keys
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map((k) => t('history.memberChange', { member: tCode(`history.member.${k}`), before: memberValue(k, before[k]), after: memberValue(k, after[k]) }))
}
