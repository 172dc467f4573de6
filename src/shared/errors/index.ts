/**
 * The one error model that crosses every boundary: HTTP client -> IPC -> renderer.
 * Plain data, no stack and no key, and no sentence either: a `code` with `params`, which
 * the renderer turns into the user's language from its catalogue. What the service said
 * in its own words travels apart, as `serviceMessage`, and is shown as it came.
 */

export const API_ERROR_KINDS = [
  'bad-request',
  'unauthorized',
  'forbidden',
  'not-found',
  'server-error',
  'unavailable',
  'gateway-timeout',
  'rate-limited',
  'redirect',
  'timeout',
  'network',
  'malformed-response',
  'cancelled',
] as const
export type ApiErrorKind = (typeof API_ERROR_KINDS)[number]

/**
 * Kinds raised on our side of the boundary, before or around an API call. The team-* kinds are
 * team mode's database (issue 50): away or frozen, its TLS failing, or refusing otherwise.
 */
export const APP_ERROR_KINDS = [
  'validation',
  'keychain-unavailable',
  'no-key',
  'no-account',
  'internal',
  'outcome-unknown',
  'busy',
  'team-unreachable',
  'team-tls',
  'team-database',
] as const

export const ERROR_KINDS = [...API_ERROR_KINDS, ...APP_ERROR_KINDS] as const
export type ErrorKind = (typeof ERROR_KINDS)[number]

/**
 * What an error says, as catalogue keys. `error.<kind>` is the default for each kind; the
 * others are the more precise things main and the shared code can tell.
 */
export const ERROR_CODES = [
  ...ERROR_KINDS.map((k) => `error.${k}` as const),
  // What the HTTP client found wrong with an answer or a connection.
  'http.notJson',
  'http.noResults',
  'http.badField',
  'http.notAList',
  'http.tooLarge',
  'http.answerNotKept',
  'http.timeout',
  'http.network',
  'http.refused',
  'http.redirect',
  'error.forbiddenRead',
  'error.forbiddenWrite',
  'error.forbiddenAddress',
  // The IPC boundary.
  'ipc.foreignSender',
  'ipc.unknownChannel',
  'ipc.invalidPayload',
  'request.invalid',
  // Accounts and the keychain.
  'account.notFound',
  'account.noKey',
  'account.keyEmpty',
  'account.demoReadOnly',
  'account.readOnly',
  'account.invalidBaseUrl',
  'account.keyInBaseUrl',
  'accountsFile.unreadable',
  'accountsFile.someUnreadable',
  'keychain.noSecretService',
  'keychain.locked',
  'keychain.refused',
  // Jobs: every write runs as one (src/main/jobs).
  'job.outcomeUnknown',
  'job.targetBusy',
  'job.targetUnknown',
  // Team mode: the holder named (member, workstation, since).
  'job.targetBusyBy',
  'job.targetUnknownBy',
  // The hold ran out before the send (a frozen process, a team lease taken by a colleague): nothing sent.
  'job.holdLost',
  // Once per intent (jobs/preconditions.ts): a send of the target ended after the confirmation.
  'job.alreadyRenewedBy',
  'job.alreadyRenewedHere',
  'job.alreadyChangedBy',
  'job.alreadyChangedHere',
  'job.alreadyTransferredBy',
  'job.alreadyTransferredHere',
  'job.alreadyCreatedBy',
  'job.alreadyCreatedHere',
  'job.alreadyRemovedBy',
  'job.alreadyRemovedHere',
  'job.changedSinceConfirmed',
  'job.preconditionUnsure.noMark',
  'job.preconditionUnsure.journalChanged',
  'job.preconditionUnsure.unsettled',
  // An item the journal no longer vouches for (changed outside the app): unknown, settled from the log.
  'job.journalChangedOutside',
  'job.confirmationRequired',
  'job.accountNameRequired',
  'job.notFound',
  'job.notPrepared',
  'job.expired',
  'job.stopped',
  'job.interrupted',
  'job.journalUnwritable',
  'job.duplicateTarget',
  'startup.logNotKept',
  'startup.journalNotKept',
  'startup.journalDamaged',
  'startup.journalChanged',
  // A zone save whose plan was made from other records than the zone holds now (history, bulk DNS change).
  'dns.changedSincePlan',
  // Team mode: the member whose save made the zone as it is now.
  'dns.changedSincePlanBy',
  'dns.guardRequired',
  'dns.overSafetyRule',
  'account.lowerSafetyNeedsName',
  'dns.guardUnreadable',
  // The app itself: a start that failed (params: path, reason), no desktop to open a folder in.
  'startup.accountsFile',
  'startup.journalFile',
  'startup.dataInUse',
  'startup.failed',
  'startup.unavailable',
  'app.noDesktop',
  'app.copyFailed',
  // The portfolio store (src/main/store): params say which file, list or row.
  'store.movedAside',
  'store.newerSchema',
  'store.unavailable',
  'store.rowSkipped',
  'store.invalidInput',
  'store.invalidParams',
  'store.closed',
  'store.workerStopped',
  'store.snapshotNotKept',
  'store.down',
  'store.gaveUp',
  'store.historyNotWritten',
  'store.notSent',
  'keychain.keyNotGiven',
  'keychain.keyLocked',
  'keychain.keyAbsent',
  'store.listNotWritten',
  'store.unknownIndex',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

/** Values that fill a message's {placeholders}. */
export type MessageParams = Record<string, string | number>

/** What is wrong with one field: where (a dotted path) and what, as a code. */
export interface Issue {
  path: string
  code: string
  params?: MessageParams | undefined
}

export interface ErrorData {
  kind: ErrorKind
  code: string
  params?: MessageParams | undefined
  /** The HTTP status, when the service answered. */
  status?: number | undefined
  /** The service's own message (key redacted), shown as the service's words. */
  serviceMessage?: string | undefined
  requestId?: string | undefined
  /** For validation errors: which field, and what is wrong with it. */
  issues?: Issue[] | undefined
}

/** HTTP status -> error kind, per the named responses of API-SPEC.md section 7. */
export function kindForStatus(status: number): ApiErrorKind {
  switch (status) {
    case 400:
    case 422:
      return 'bad-request'
    case 401:
      return 'unauthorized'
    case 403:
      return 'forbidden'
    case 404:
      return 'not-found'
    case 429:
      return 'rate-limited'
    case 503:
      return 'unavailable'
    case 504:
      return 'gateway-timeout'
    default:
      if (status >= 300 && status < 400) return 'redirect'
      return status >= 500 ? 'server-error' : 'bad-request'
  }
}

/** An error of one kind with its default code. */
export function errorOf(kind: ErrorKind, extra: Omit<ErrorData, 'kind' | 'code'> & { code?: string } = {}): ErrorData {
  return { kind, code: `error.${kind}`, ...extra }
}
