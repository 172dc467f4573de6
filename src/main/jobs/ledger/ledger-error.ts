/**
 * A ledger that cannot take a step now: its store is away, refuses, or is of a newer version (a
 * team database down, a login refused). Nothing may be sent then. The runner knows only this
 * class, never which ledger threw it; its code, parameters and kind are the words' (the
 * catalogue's sentence, and the title of its kind: "Team database unreachable", not "Unexpected error").
 */
import type { ErrorData, ErrorKind } from '@shared/errors'
import { WordedError } from '../../base/app-error'

/** Wherever it is thrown to (a channel's answer, an item's log check), said in its own words. */
export class LedgerUnavailable extends WordedError {
  constructor(
    readonly code: string,
    readonly params: Record<string, string | number> = {},
    readonly kind: ErrorKind = 'internal',
  ) {
    super(`${code}${Object.keys(params).length ? ` ${JSON.stringify(params)}` : ''}`)
    this.name = 'LedgerUnavailable'
  }

  toData(): ErrorData {
    return { kind: this.kind, code: this.code, params: { ...this.params } }
  }
}

/** A ledger's failure as the error a job or a refusal shows; undefined for any other failure. */
export function ledgerErrorData(err: unknown): ErrorData | undefined {
  return err instanceof LedgerUnavailable ? err.toData() : undefined
}
