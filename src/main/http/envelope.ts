/** An answer of the service as the client hands it on: its results, paging and request ID. */
import type { Paging } from '@shared/endpoints/decoders'

export interface Envelope<T> {
  results: T
  paging?: Paging
  requestId?: string
  /** The answer's size as received, in bytes (what a list's byte bound counts). */
  bytes?: number
}
