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

/**
 * A subject's aspect in two stored readings, members in the order the watch names them: only the
 * members both readings hold. A member one reading lacks was not read (unknown), and unknown
 * against a value is no change (it read as "on → none", an auto-renewal turned off, issue 53).
 * One pass over the watch's fields into the two records the change keeps: taking each reading's
 * members first and then filtering each by the other (entries, filter, fromEntries and two
 * closures per changed item) made the comparison of a refresh 1.3× slower (issue 51).
 */
function aspectChange(subject: string, oldJson: string, newJson: string, fields: readonly string[]): AspectChange {
  const before: Record<string, unknown> = {}
  const after: Record<string, unknown> = {}
  const x = parseJson(oldJson)
  const y = parseJson(newJson)
  if (typeof x === 'object' && x !== null && typeof y === 'object' && y !== null) {
    for (const f of fields) {
      const u: unknown = Reflect.get(x, f)
      const v: unknown = Reflect.get(y, f)
      if (u === undefined || v === undefined) continue
      before[f] = ON_OFF_FIELDS.has(f) ? onOff(u) : u
      after[f] = ON_OFF_FIELDS.has(f) ? onOff(v) : v
    }
  }
  return { subject, before, after }
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
  // forEach, not for...of: the first comparison of a refresh runs before the loop is optimised,
  // and there each of the tens of thousands of unchanged items cost an iterator step and the
  // destructuring of its [key, text] pair.
  after.forEach((json, key) => {
    const old = before.get(key)
    if (old === undefined || old === json) return
    const change = aspectChange(key, old, json, fields)
    if (storedJson(change.before) !== storedJson(change.after)) changes.push(change)
  })
  return changes
}
