/**
 * The error every part of the main process throws for something the user should hear
 * about: it carries the plain ErrorData that crosses IPC (a code and parameters, never a
 * sentence, never a key). Anything else thrown is a bug and reaches the renderer only as
 * `internal`.
 */
import { errorOf, type ErrorData, type ErrorKind, type Issue, type MessageParams } from '@shared/errors'

export class AppError extends Error {
  readonly data: ErrorData
  /** For a 429: how long the service asked to wait (its Retry-After), if it said. */
  retryAfterMs: number | undefined

  constructor(data: ErrorData) {
    // The code (not a sentence) is what a log line shows.
    super(data.code)
    this.name = 'AppError'
    this.data = data
  }

  /** An error of a kind, with its default code unless a more precise one is given. */
  static of(kind: ErrorKind, extra: Omit<ErrorData, 'kind' | 'code'> & { code?: string } = {}): AppError {
    return new AppError(errorOf(kind, extra))
  }

  /** A validation error about the user's input. */
  static invalid(code: string, issues: Issue[], params?: MessageParams): AppError {
    return new AppError({ kind: 'validation', code, params, issues })
  }

  get kind(): ErrorKind {
    return this.data.kind
  }
  get code(): string {
    return this.data.code
  }
  get status(): number | undefined {
    return this.data.status
  }
  get requestId(): string | undefined {
    return this.data.requestId
  }
  get issues(): Issue[] | undefined {
    return this.data.issues
  }

  /** The plain data for IPC: only the members that are set. */
  toData(): ErrorData {
    const out: ErrorData = { kind: this.data.kind, code: this.data.code }
    for (const key of ['params', 'status', 'serviceMessage', 'requestId', 'issues'] as const) {
      if (this.data[key] !== undefined) Object.assign(out, { [key]: this.data[key] })
    }
    return out
  }
}

/**
 * An error of a part above this floor that carries its own words (a ledger's store away: the team
 * database unreachable), so it reaches the window with its kind and code, not as "Unexpected error".
 */
export abstract class WordedError extends Error {
  abstract toData(): ErrorData
}

/** Any thrown value as plain error data. Unknown errors say only that something went wrong: their text may hold anything. */
export function toErrorData(err: unknown): ErrorData {
  if (err instanceof AppError || err instanceof WordedError) return err.toData()
  return { kind: 'internal', code: 'error.internal' }
}
