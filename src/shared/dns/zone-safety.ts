/**
 * The safety rule for a zone save, OctoDNS's: a save that updates or deletes more than 30 % of a
 * zone's existing records (for zones of 10 records or more: below that, one record is already
 * 10 %) or that adds, removes or changes an NS record at the zone's apex needs its own
 * confirmation. As in OctoDNS (Plan.raise_if_unsafe: update_pcent and delete_pcent, each of the
 * existing records), additions are never counted: adding records cannot make a save unsafe. The same
 * rule for every zone save (the editor, a BIND import, a restore, a bulk change, the command
 * line): main applies it again to what it is asked to send.
 *
 * Pure: counts and flags, worded by the renderer.
 */
import { plan as makePlan, type Plan } from './plan'
import { parse, records, type RecordRow, type Row } from './records'

/** More than 3 in 10 records changed (compared in integers: exactly 30 % is not over), in zones of at least 10 records. */
export const SAFETY_RULE = { changed: 3, outOf: 10, minRecords: 10 } as const
export const SAFETY_RULE_PERCENT = (SAFETY_RULE.changed * 100) / SAFETY_RULE.outOf

export interface ZoneSafety {
  /** Existing records updated or deleted (additions are not counted, as in OctoDNS). */
  changed: number
  /** Records added (shown, never counted against the rule). */
  added: number
  /** Records in the zone before (blank lines and comments are not records). */
  total: number
  /** The save adds, removes or changes an NS record at the apex (written `@`, empty, or the zone's full name). */
  apexNs: boolean
  /** More than 30 % of the existing records of a zone of 10 records or more are updated, or more than 30 % deleted. */
  overThreshold: boolean
  /** apexNs or overThreshold: the save needs its own, explicit confirmation. */
  needsOwnConfirmation: boolean
}

/** Whether a host names the zone's apex: `@`, empty, or the zone's own name (with or without the final dot). */
function isApexOf(host: string, zone?: string): boolean {
  const h = host.trim().toLowerCase().replace(/\.$/, '')
  if (h === '' || h === '@') return true
  return zone !== undefined && h === zone.trim().toLowerCase().replace(/\.$/, '')
}

/** The verdict on a plan between two versions of a zone's rows. */
export function safetyOfPlan(p: Plan, before: readonly Row[], zone?: string): ZoneSafety {
  const total = records([...before]).length
  // OctoDNS checks updates and deletes each as a share of the existing records (update_pcent,
  // delete_pcent), with at least 10 existing records; additions are not checked at all.
  const updated = p.changed.length
  const deleted = p.removed.length
  const changed = updated + deleted
  const over = (n: number) => n * SAFETY_RULE.outOf > total * SAFETY_RULE.changed
  const apexNs = [...p.added, ...p.removed, ...p.changed.flatMap((c) => [c.from, c.to])].some(
    (r: RecordRow) => r.type === 'ns' && isApexOf(r.host, zone),
  )
  const overThreshold = total >= SAFETY_RULE.minRecords && (over(updated) || over(deleted))
  return { changed, added: p.added.length, total, apexNs, overThreshold, needsOwnConfirmation: apexNs || overThreshold }
}

/** The verdict on saving `after` over `before` (records texts in the service's format). */
export function zoneSafety(zone: string, before: string, after: string): ZoneSafety {
  const rowsBefore = parse(before)
  return safetyOfPlan(makePlan(rowsBefore, parse(after)), rowsBefore, zone)
}
