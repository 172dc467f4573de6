/** What the records table and the editor around it tell each other. */
import type { RecordRow } from '../../../../shared/dns/records'
import type { IssueField } from '../../../../shared/dns/validate'

/** A problem or warning as the table shows it: in words, and the field it is about. */
export interface ShownIssue {
  text: string
  field?: IssueField | undefined
  warning?: boolean
}

/** What one edit did, for the editor to follow which fields of a new row were typed in. */
export interface RowChange {
  from?: RecordRow | undefined
  to: RecordRow
  field: IssueField | 'type' | 'new'
}

