import type { ApiErrorKind, ErrorData, ErrorKind } from '../../shared/errors'

/**
 * The error every client call throws. Its message is written for a person and
 * never contains the API key: `redact` is applied to every text that came from
 * outside (a response body, an undici error) before it is stored.
 */
export class ApiError extends Error {
  readonly kind: ErrorKind
  readonly status: number | undefined
  readonly requestId: string | undefined
  readonly issues: { path: string; message: string }[] | undefined

  constructor(
    kind: ErrorKind,
    message: string,
    opts: { status?: number; requestId?: string; issues?: { path: string; message: string }[] } = {},
  ) {
    super(message)
    this.name = 'ApiError'
    this.kind = kind
    this.status = opts.status
    this.requestId = opts.requestId
    this.issues = opts.issues
  }

  toData(): ErrorData {
    const data: ErrorData = { kind: this.kind, message: this.message }
    if (this.status !== undefined) data.status = this.status
    if (this.requestId !== undefined) data.requestId = this.requestId
    if (this.issues !== undefined) data.issues = this.issues
    return data
  }
}

/** Removes every occurrence of the secret (and its Bearer form) from a text. */
export function redact(text: string, secret: string): string {
  if (!secret) return text
  return text.split(secret).join('[redacted]')
}

/** What the user can do about it; added to the service's own message for these kinds. */
export const ACTION_HINTS: Partial<Record<ApiErrorKind, string>> = {
  unauthorized: 'Replace the key for this account in Accounts.',
  forbidden: 'Use a key with write access for this account.',
}

/** Default wording per kind, used when the service sent no message of its own. */
export const DEFAULT_MESSAGES: Record<ApiErrorKind, string> = {
  'bad-request': 'The service rejected the request as invalid.',
  unauthorized: 'The API key was not accepted. Replace the key for this account in Accounts.',
  forbidden: 'This API key is not allowed to do that. Use a key with write access for this account.',
  'not-found': 'The service has no such item. It may have been removed; refresh the list.',
  'server-error': 'The service had an internal error. Try again later; if it persists, contact the provider with the request ID.',
  unavailable: 'The service is temporarily unavailable. Try again in a moment.',
  'gateway-timeout': 'The service did not answer in time (gateway time-out). Try again in a moment.',
  timeout: 'No answer from the service within the time limit. Check the connection or raise the account’s time-out.',
  network: 'Could not reach the service. Check the network connection and the account’s base URL.',
  'malformed-response': 'The service answered with something this app cannot read.',
  cancelled: 'The request was cancelled.',
}
