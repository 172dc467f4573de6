/**
 * Drift: which watched aspects of which subjects a refresh found changed, compared with what the
 * store held. Pure and cheap: an item whose stored text is the same is skipped without parsing,
 * and only the fields of the aspect are compared (a domain's registrar changing is not drift).
 */
import type { SubjectKind } from '@shared/portfolio/history'
import type { ZoneKind } from '@shared/portfolio'
import { parseJson } from './json'
import { storedJson } from './lists'

// Which lists are watched, and for which aspect and members, is each list's `watch` in LIST_SPECS (lists.ts).

export const ZONE_SUBJECT: Record<ZoneKind, SubjectKind> = { dns: 'domain', freedns: 'freedns' }

export interface AspectChange {
  subject: string
  /** The aspect's value before and after, members in a fixed order. */
  before: Record<string, unknown>
  after: Record<string, unknown>
}

/**
 * Members that are on or off whatever number says so: the service writes 10 for an auto-renewal
 * setting that is on (and 1 in `autorenew`), so 10 against 1 is no change.
 */
const ON_OFF_FIELDS: ReadonlySet<string> = new Set([
  'autorenew',
  'autorenew_all',
  'autorenew_domain',
  'autorenew_server',
])
const onOff = (v: unknown): unknown =>
  typeof v === 'number' ? (v !== 0 ? 1 : 0) : typeof v === 'string' && /^\d+$/.test(v) ? (Number(v) !== 0 ? 1 : 0) : v

/** The aspect's members of a stored item's text, in the order the watch names them. */
function aspectValue(json: string, fields: readonly string[]): Record<string, unknown> {
  const item = parseJson(json)
  const out: Record<string, unknown> = {}
  if (typeof item !== 'object' || item === null) return out
  for (const f of fields) {
    const v: unknown = Reflect.get(item, f)
    if (v !== undefined) out[f] = ON_OFF_FIELDS.has(f) ? onOff(v) : v
  }
  return out
}

/**
 * The members both readings hold: a member one reading lacks was not read (unknown), and unknown
 * against a value is no change (it read as "on → none", an auto-renewal turned off, issue 53).
 */
function knownOnBoth(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): [Record<string, unknown>, Record<string, unknown>] {
  const keep = (v: Record<string, unknown>, other: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(v).filter(([k]) => k in other))
  return [keep(before, after), keep(after, before)]
}

/**
 * The subjects whose aspect changed between two readings of a list (key -> stored text). Items
 * new to the list or gone from it are not drift: a registration or a transfer out is its own
 * event, and a first read has nothing to compare with.
 */
export function changedAspects(
  fields: readonly string[],
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): AspectChange[] {
  const changes: AspectChange[] = []
  for (const [key, json] of after) {
    const old = before.get(key)
    if (old === undefined || old === json) continue
    const [a, b] = knownOnBoth(aspectValue(old, fields), aspectValue(json, fields))
    if (storedJson(a) !== storedJson(b)) changes.push({ subject: key, before: a, after: b })
  }
  return changes
}
