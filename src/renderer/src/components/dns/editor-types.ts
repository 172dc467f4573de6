/** What the DNS editor's parts and its screens tell each other. */
import type { ComputedRef, InjectionKey } from 'vue'
import type { RecordRow } from '@shared/dns/records'
import type { IssueField, RowFix } from '@shared/dns/validate'

/** A problem or warning as the table shows it: in words, the field it is about, and its one-click mend if it has one. */
export interface ShownIssue {
  text: string
  field?: IssueField | undefined
  warning?: boolean
  fix?: RowFix | undefined
}

/** What one edit did, for the editor to follow which fields of a new row were typed in. */
export interface RowChange {
  from?: RecordRow | undefined
  to: RecordRow
  field: IssueField | 'type' | 'new'
}

/**
 * What the DNS setting (ns_type) means for a zone, in the account's words: a sentence, what
 * each setting is for (which nameservers answer), and notes (such as the nameservers the
 * domain uses now).
 */
export interface NsHelp {
  intro: string
  each?: string[]
  notes?: string[]
  /** The domain's nameservers now: shown always, the rest folds away (it took 150 px at 1024x700). */
  now?: string | undefined
}

/**
 * The records a nameserver serves differently from what is saved, as "type name" keys (name in
 * full, lower case): the zone's screen provides them, the table marks those rows (issue 53).
 */
export const SERVED_DIFFERS: InjectionKey<ComputedRef<ReadonlySet<string>>> = Symbol('served-differs')
