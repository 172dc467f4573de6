/**
 * Every API call of the renderer goes through an AccountApi: the account is fixed when the
 * AccountApi is made, never read from the active account when a request is sent, so a call
 * started on one account cannot land on another after a switch.
 */
import type {
  EndpointResult,
  PagedEndpointName,
  PagedInput,
  PagedItem,
  ReadEndpointName,
  WriteEndpointName,
} from '@shared/endpoints/table'
import type { ApiParams, ChannelName } from '@shared/ipc/contract'
import type { JobPurpose, JobRequest, JobView, ZoneGuard } from '@shared/jobs'
import type { WhoisPrivacyItem, WhoisPrivacyList } from '@shared/ipc/whois-privacy'
import { isStoredList } from '@shared/portfolio'
import { cancelCall, invoke, newCallId, type Progress, type Result, type StoredItems } from './bridge'
export type { StoredItems } from './bridge'
import { carryInParts, readInParts, type CarriedPart, type CarryOptions } from './stored-parts'

export interface CallOptions {
  /** Aborting it cancels the call in main. */
  signal?: AbortSignal | undefined
}
export interface ListAllOptions extends CallOptions {
  onProgress?: ((p: Progress) => void) | undefined
}

/** A write job's items as the renderer asks for them. */
export type JobItems<N extends WriteEndpointName> = {
  params: ApiParams<N>
  label?: string | undefined
  guard?: ZoneGuard | undefined
  overRule?: boolean | undefined
}[]
export interface JobOptions {
  concurrency?: number | undefined
  secondSend?: boolean | undefined
  /** Why the job is made, for its history (a restore from a snapshot, a bulk DNS change). */
  purpose?: JobPurpose | undefined
}

export interface AccountApi {
  readonly accountId: string
  /** A read. Writes have no call of their own: they are jobs (prepare / start, or submit). */
  call<N extends ReadEndpointName>(
    name: N,
    params: ApiParams<N>,
    opts?: CallOptions,
  ): Promise<Result<EndpointResult<N>>>
  /** Freezes a write job in main and reads what each item will change; a `confirm` operation also gets its token. */
  prepare<N extends WriteEndpointName>(
    operation: N,
    items: JobItems<N>,
    opts?: JobOptions,
  ): Promise<Result<{ job: JobView; token?: string | undefined }>>
  /** Prepares and sends a write that needs no confirmation; resolves when it has ended. */
  submit<N extends WriteEndpointName>(operation: N, items: JobItems<N>, opts?: JobOptions): Promise<Result<JobView>>
  /** The first page of a paged list (the rest may follow with listAll). */
  firstPage<N extends PagedEndpointName>(
    name: N,
    params: PagedInput<N>,
    limit: number,
    opts?: CallOptions,
  ): Promise<Result<PagedItem<N>[]>>
  /** Every item of a paged list, page by page in main, with progress. */
  listAll<N extends PagedEndpointName>(
    name: N,
    params: PagedInput<N>,
    opts?: ListAllOptions,
  ): Promise<Result<PagedItem<N>[]>>
  /**
   * The list as last stored in the portfolio store (null when never read in full), carried in parts
   * (stored-parts.ts): the first handed to onFirst at once, the whole list resolved at the end.
   */
  stored<N extends PagedEndpointName>(
    name: N,
    params: PagedInput<N>,
    opts?: CarryOptions<PagedItem<N>>,
  ): Promise<Result<StoredItems<N> | null>>
  /**
   * Each domain's WHOIS privacy flag, as stored (null when never read in full) or read afresh in
   * full with progress: the WHOIS list without its contacts (issue 40).
   */
  whoisPrivacy(from: 'store' | 'service', opts?: ListAllOptions): Promise<Result<WhoisPrivacyList | null>>
}

/** Runs a call that the signal, when aborted, cancels in main by its job id. */
async function followed<T>(
  callId: string | undefined,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  if (!callId || !signal) return run()
  const onAbort = () => void cancelCall(callId)
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    return await run()
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/**
 * A channel of one of the account's lists or reads, named by a type parameter. TypeScript works
 * out PayloadOf and ResultOf only for a named channel (`'domains.get'`), never for a parameter
 * `N`, so the generic methods below cannot be checked against the contract's `Call` one by one:
 * this states, once, that a channel answers what the method's signature says (main's handler for
 * it is typed by the same contract). Every caller of AccountApi names its list, and is checked.
 */
// eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- stated once, as said above
const invokeNamed = invoke as <T>(
  channel: ChannelName,
  payload: object,
  onProgress?: (p: Progress) => void,
) => Promise<Result<T>>

export function accountApi(accountId: string): AccountApi {
  const request = <N extends WriteEndpointName>(operation: N, items: JobItems<N>, opts: JobOptions): JobRequest => ({
    accountId,
    operation,
    items: items.map((i) => ({
      params: Object.fromEntries(Object.entries(i.params)),
      ...(i.label ? { label: i.label } : {}),
      ...(i.guard ? { guard: i.guard } : {}),
      ...(i.overRule ? { overRule: true } : {}),
    })),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    ...(opts.purpose ? { purpose: opts.purpose } : {}),
    ...(opts.secondSend ? { secondSend: true } : {}),
  })
  return {
    accountId,
    prepare: (operation, items, opts = {}) => invoke('jobs.prepare', request(operation, items, opts)),
    submit: (operation, items, opts = {}) => invoke('jobs.submit', request(operation, items, opts)),
    call<N extends ReadEndpointName>(name: N, params: ApiParams<N>, opts: CallOptions = {}) {
      const callId = opts.signal ? newCallId() : undefined
      const payload = { ...params, accountId, ...(callId ? { callId } : {}) }
      return followed(callId, opts.signal, () => invokeNamed<EndpointResult<N>>(name, payload))
    },
    firstPage<N extends PagedEndpointName>(name: N, params: PagedInput<N>, limit: number, opts: CallOptions = {}) {
      const callId = opts.signal ? newCallId() : undefined
      const payload = { ...params, limit, accountId, ...(callId ? { callId } : {}) }
      return followed(callId, opts.signal, () => invokeNamed<PagedItem<N>[]>(name, payload))
    },
    listAll<N extends PagedEndpointName>(name: N, params: PagedInput<N>, opts: ListAllOptions = {}) {
      const whole = () => {
        const callId = newCallId()
        const payload = { ...params, accountId, callId }
        return followed(callId, opts.signal, () => invokeNamed<PagedItem<N>[]>(`all.${name}`, payload, opts.onProgress))
      }
      // A list main stores comes in parts (issue 54): read afresh by the first part's ask, and kept for the others.
      if (!isStoredList(name)) return whole()
      const callId = newCallId()
      const ask = (part: number) =>
        invokeNamed<CarriedPart<PagedItem<N>> | null>(
          'store.list',
          part === 0 ? { accountId, name, params, part, from: 'service', callId } : { accountId, name, params, part },
          opts.onProgress,
        )
      return followed(callId, opts.signal, () => readInParts(ask, whole, opts.signal))
    },
    stored<N extends PagedEndpointName>(name: N, params: PagedInput<N>, opts: CarryOptions<PagedItem<N>> = {}) {
      // Main read the rows back with the list's own item schema: they are items of this list.
      const ask = (part: number) =>
        invokeNamed<CarriedPart<PagedItem<N>> | null>('store.list', { accountId, name, params, part })
      return carryInParts(ask, opts)
    },
    whoisPrivacy(from: 'store' | 'service', opts: ListAllOptions = {}) {
      // The stored flags in parts, by a module loaded then (the first script's size).
      if (from === 'store')
        return import('./stored-whois-privacy').then((m) => m.storedWhoisPrivacy(accountId, invoke, newCallId))
      const whole = () => {
        const callId = newCallId()
        return followed(callId, opts.signal, () =>
          invoke('details.whoisPrivacy', { accountId, callId, from }, opts.onProgress),
        )
      }
      // Read afresh by the first part's ask, and carried in parts as the stored flags are (issue 54).
      const callId = newCallId()
      const ask = async (part: number): Promise<Result<CarriedPart<WhoisPrivacyItem> | null>> => {
        const r = await invoke(
          'details.whoisPrivacy',
          { accountId, callId: part === 0 ? callId : newCallId(), from: part === 0 ? from : 'store', part },
          opts.onProgress,
        )
        return r.ok ? { ok: true, value: r.value && 'parts' in r.value && r.value.readAt !== null ? r.value : null } : r
      }
      const items = () =>
        whole().then((r): Result<WhoisPrivacyItem[]> => (r.ok ? { ok: true, value: r.value?.items ?? [] } : r))
      return followed(callId, opts.signal, async (): Promise<Result<WhoisPrivacyList | null>> => {
        const r = await readInParts(ask, items, opts.signal)
        return r.ok ? { ok: true, value: { items: r.value, readAt: null, complete: true } } : r
      })
    },
  }
}
