/**
 * Rows added with "Add a record" in the DNS editor, and the fields of each not typed in yet: a
 * problem in such a field is not shown until the user has typed there, or asks to review the
 * changes. Rows are replaced, never changed, on an edit; the map follows each to its next version.
 */
import { shallowRef, type Ref } from 'vue'
import type { RecordRow, Row } from '@shared/dns/records'
import type { RowIssue } from '@shared/dns/validate'
import type { RowChange } from '../components/dns/editor-types'

const ALL_FIELDS: ReadonlySet<string> = new Set([
  'host',
  'value',
  'priority',
  'weight',
  'port',
  'target',
  'flags',
  'tag',
])

export function useUntouchedFields(rows: Ref<Row[]>) {
  const untouched = shallowRef<ReadonlyMap<RecordRow, ReadonlySet<string>>>(new Map())
  /** Follows one edit: a new row has every field untouched; a field typed in is touched. */
  function follow(change: RowChange) {
    const next = new Map(untouched.value)
    if (change.field === 'new') next.set(change.to, ALL_FIELDS)
    else {
      const left = change.from && next.get(change.from)
      if (left)
        next.set(change.to, change.field === 'type' ? left : new Set([...left].filter((f) => f !== change.field)))
    }
    untouched.value = next
  }
  /** Not shown yet: a problem in a field of a new row the user has not typed in. */
  function waiting(i: RowIssue): boolean {
    const row = rows.value[i.index]
    const left = row?.kind === 'record' ? untouched.value.get(row) : undefined
    if (!left) return false
    return i.field ? left.has(i.field) : left.size === ALL_FIELDS.size
  }
  /** A new row nobody typed in: it has nothing to write yet. */
  const blank = (r: Row) => r.kind === 'record' && untouched.value.get(r)?.size === ALL_FIELDS.size
  /** Every problem shown from now on (a zone shown afresh, or a review asked for). */
  function clear() {
    untouched.value = new Map()
  }
  return { untouched, follow, waiting, blank, clear }
}
