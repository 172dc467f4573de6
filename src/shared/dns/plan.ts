/**
 * The difference between the loaded records and the edited ones, like a DNSControl or
 * OctoDNS plan: records added, removed, and changed (same type and host, new value).
 * Lines the model keeps raw (comments, unknown types) are reported too, so nothing
 * changes unseen.
 */
import { recordKey, records, type RecordRow, type Row } from './records'

export interface Plan {
  added: RecordRow[]
  removed: RecordRow[]
  changed: { from: RecordRow; to: RecordRow }[]
  rawAdded: string[]
  rawRemoved: string[]
}

/** a minus b, as multisets by key; keeps a's order. */
function minus<T>(a: T[], b: T[], key: (x: T) => string): T[] {
  return minusKeyed(a, a.map(key), b.map(key))
}

/** minus() with the keys of a and of b given (in their order): a plan takes each side's keys once for both ways. */
function minusKeyed<T>(a: T[], aKeys: readonly string[], bKeys: readonly string[]): T[] {
  const counts = new Map<string, number>()
  for (const k of bKeys) counts.set(k, (counts.get(k) ?? 0) + 1)
  const out: T[] = []
  a.forEach((x, i) => {
    const k = aKeys[i] ?? ''
    const n = counts.get(k) ?? 0
    if (n > 0) counts.set(k, n - 1)
    else out.push(x)
  })
  return out
}

const slot = (r: RecordRow) => `${r.type}\u0000${r.host.toLowerCase()}`

export function plan(before: Row[], after: Row[]): Plan {
  const was = records(before)
  const is = records(after)
  const wasKeys = was.map(recordKey)
  const isKeys = is.map(recordKey)
  const removedAll = minusKeyed(was, wasKeys, isKeys)
  const addedAll = minusKeyed(is, isKeys, wasKeys)
  // A removal and an addition at the same type and host read as one change of value.
  const changed: Plan['changed'] = []
  const added: RecordRow[] = []
  const pool = new Map<string, RecordRow[]>()
  for (const r of removedAll) pool.set(slot(r), [...(pool.get(slot(r)) ?? []), r])
  for (const r of addedAll) {
    const from = pool.get(slot(r))?.shift()
    if (from) changed.push({ from, to: r })
    else added.push(r)
  }
  const removed = [...pool.values()].flat()
  const rawWas = rawLines(before)
  const rawIs = rawLines(after)
  const rawWasKeys = rawWas.map(lineKey)
  const rawIsKeys = rawIs.map(lineKey)
  return {
    added,
    removed,
    changed,
    rawAdded: minusKeyed(rawIs, rawIsKeys, rawWasKeys),
    rawRemoved: minusKeyed(rawWas, rawWasKeys, rawIsKeys),
  }
}

/** The lines kept raw, blank lines left out. */
function rawLines(rows: Row[]): string[] {
  const lines: string[] = []
  for (const r of rows) if (r.kind === 'raw' && r.reason !== 'blank') lines.push(r.text)
  return lines
}

/**
 * A raw line as compared: a CRLF line end is the line's end, not part of it (a zone held with
 * CRLF line ends read against a file with LF ones has the same lines).
 */
const lineKey = (text: string) => (text.endsWith('\r') ? text.slice(0, -1) : text)

export function isEmptyPlan(p: Plan): boolean {
  return p.added.length + p.removed.length + p.changed.length + p.rawAdded.length + p.rawRemoved.length === 0
}

/** Applies a plan to a set of records (as a multiset): what the service will hold afterwards. */
export function applyPlan(before: RecordRow[], p: Plan): RecordRow[] {
  const gone = [...p.removed, ...p.changed.map((c) => c.from)]
  return [...minus(before, gone, recordKey), ...p.changed.map((c) => c.to), ...p.added]
}
