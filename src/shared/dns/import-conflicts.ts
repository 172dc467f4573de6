/**
 * A BIND file merged into a zone can disagree with it about a name: a CNAME beside the name's
 * other records, or other addresses for it (a second apex A). Adding both gives a zone the
 * service refuses, or one nobody meant; so such a name is held apart, and the user chooses per
 * name which side it keeps. Names where the file only adds (another TXT, MX or SRV) merge as before.
 */
import { mergeRecords, records, sameRecordKey, type RecordRow, type Row } from './records'

/** Types with one meaning per name: another value is a disagreement, not an addition. */
const ONE_SET_TYPES: ReadonlySet<string> = new Set(['a', 'aaaa'])

export interface ImportConflict {
  /** In lower case. */
  host: string
  /** The editor's records of the name the file disagrees with. */
  existing: RecordRow[]
  /** The file's records of the name that disagree. */
  imported: RecordRow[]
}

export type ImportSide = 'existing' | 'imported'

const keys = (rs: RecordRow[]) => new Set(rs.map(sameRecordKey))
const sameSet = (a: RecordRow[], b: RecordRow[]) => {
  const ka = keys(a)
  const kb = keys(b)
  return ka.size === kb.size && [...ka].every((k) => kb.has(k))
}

/** The names where the file disagrees with the editor's records, in the file's order. */
export function importConflicts(rows: Row[], incoming: RecordRow[]): ImportConflict[] {
  const have = records(rows)
  const out: ImportConflict[] = []
  const hostOf = (r: RecordRow) => r.host.toLowerCase()
  for (const host of new Set(incoming.map(hostOf))) {
    const mine = have.filter((r) => hostOf(r) === host)
    const theirs = incoming.filter((r) => hostOf(r) === host)
    if (mine.length === 0) continue
    if (mine.some((r) => r.type === 'cname') || theirs.some((r) => r.type === 'cname')) {
      if (!sameSet(mine, theirs)) out.push({ host, existing: mine, imported: theirs })
      continue
    }
    const types = new Set(
      theirs.map((r) => r.type).filter((type) => ONE_SET_TYPES.has(type) && mine.some((r) => r.type === type)),
    )
    const existing = mine.filter((r) => types.has(r.type))
    const imported = theirs.filter((r) => types.has(r.type))
    if (existing.length && !sameSet(existing, imported)) out.push({ host, existing, imported })
  }
  return out
}

/** The file merged into the rows, every disagreeing name kept as the editor has it. */
export function mergeKeepingExisting(rows: Row[], incoming: RecordRow[], conflicts: ImportConflict[]) {
  const held = new Set(conflicts.flatMap((c) => c.imported.map(sameRecordKey)))
  return mergeRecords(
    rows,
    incoming.filter((r) => !held.has(sameRecordKey(r))),
  )
}

/** The rows with one disagreeing name as the chosen side has it (the rest as they are). */
export function chooseSide(rows: Row[], c: ImportConflict, side: ImportSide): Row[] {
  const [drop, add] = side === 'imported' ? [c.existing, c.imported] : [c.imported, c.existing]
  const keep = keys(add)
  const gone = new Set([...keys(drop)].filter((k) => !keep.has(k)))
  return mergeRecords(
    rows.filter((r) => r.kind !== 'record' || r.host.toLowerCase() !== c.host || !gone.has(sameRecordKey(r))),
    add,
  ).rows
}
