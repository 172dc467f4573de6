/**
 * Two edits of one zone made from the same version (a colleague's save, and the edit still open
 * here), kept both when they touch different records (issue 53 point 6): mine applied over theirs.
 * "Different" is read as the plan reads a change: no type and host (nor raw line) is touched by
 * both, and the zone's TTL and DNS service are changed by one side at most. Anything closer is for
 * the user to choose, and no merge is offered.
 */
import { plan, type Plan } from './plan'
import { parse, recordKey, type Row } from './records'

export interface ZoneVersion {
  records: string
  ttl: number | undefined
  ns_type?: string | undefined
}

export interface MergedZone {
  rows: Row[]
  ttl: number | undefined
  ns_type: string | undefined
}

const slot = (r: { type: string; host: string }) => `${r.type}\u0000${r.host.toLowerCase()}`
const line = (text: string) => text.replace(/\r$/, '')

/** The types and hosts a plan touches, and the raw lines it adds or removes. */
function touched(p: Plan): Set<string> {
  return new Set([
    ...[...p.added, ...p.removed, ...p.changed.flatMap((c) => [c.from, c.to])].map(slot),
    ...[...p.rawAdded, ...p.rawRemoved].map((t) => `raw\u0000${line(t)}`),
  ])
}

/** The setting as the side that changed it has it; `conflict` when both changed it, differently. */
function settingOf<T>(base: T, theirs: T, mine: T): { value: T } | 'conflict' {
  if (mine === base || mine === theirs) return { value: theirs }
  if (theirs === base) return { value: mine }
  return 'conflict'
}

/**
 * My edit (`mine`, made from `base`) applied over `theirs` (made from `base` too), when the two
 * touch different records; undefined when they touch one in common, or both changed a setting.
 */
function mergeZones(base: Row[], theirs: Row[], mine: Row[]): Row[] | undefined {
  const mineP = plan(base, mine)
  const theirsP = plan(base, theirs)
  const theirsTouched = touched(theirsP)
  for (const t of touched(mineP)) if (theirsTouched.has(t)) return undefined
  // What mine takes away, counted (a record may be held twice); theirs kept every one of them.
  const gone = new Map<string, number>()
  const take = (key: string) => gone.set(key, (gone.get(key) ?? 0) + 1)
  for (const r of [...mineP.removed, ...mineP.changed.map((c) => c.from)]) take(`r\u0000${recordKey(r)}`)
  for (const t of mineP.rawRemoved) take(`l\u0000${line(t)}`)
  const keyOf = (r: Row) => (r.kind === 'record' ? `r\u0000${recordKey(r)}` : `l\u0000${line(r.text)}`)
  const kept = theirs.filter((r) => {
    const n = gone.get(keyOf(r)) ?? 0
    if (n === 0) return true
    gone.set(keyOf(r), n - 1)
    return false
  })
  if ([...gone.values()].some((n) => n > 0)) return undefined
  // What mine adds, as mine has it (its rows, in its order).
  const added = new Set<Row>([...mineP.added, ...mineP.changed.map((c) => c.to)])
  const rawAdded = new Map<string, number>()
  for (const t of mineP.rawAdded) rawAdded.set(line(t), (rawAdded.get(line(t)) ?? 0) + 1)
  const fromMine = mine.filter((r) => {
    if (r.kind === 'record') return added.has(r)
    const n = rawAdded.get(line(r.text)) ?? 0
    if (n === 0) return false
    rawAdded.set(line(r.text), n - 1)
    return true
  })
  return [...kept, ...fromMine]
}

/** The whole zone: the records merged, and the TTL and DNS service as the one side that changed them has them. */
export function mergeZoneVersions(base: ZoneVersion, theirs: ZoneVersion, mine: ZoneVersion): MergedZone | undefined {
  const ttl = settingOf(base.ttl, theirs.ttl, mine.ttl)
  const nsType = settingOf(base.ns_type ?? '', theirs.ns_type ?? '', mine.ns_type ?? '')
  if (ttl === 'conflict' || nsType === 'conflict') return undefined
  const rows = mergeZones(parse(base.records), parse(theirs.records), parse(mine.records))
  return rows ? { rows, ttl: ttl.value, ns_type: nsType.value || undefined } : undefined
}
