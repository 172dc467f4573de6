/**
 * Every API call of the renderer goes through an AccountApi: the account is fixed when the
 * AccountApi is made, never read from the active account when a request is sent, so a call
 * started on one account cannot land on another after a switch.
 */
import type { EndpointName, EndpointResult, PagedEndpointName, PagedInput, PagedItem } from '../../../shared/endpoints/table'
import type { ApiParams } from '../../../shared/ipc/contract'
import { cancelJob, invoke, newJobId, type Progress, type Result } from '../bridge'

export interface CallOptions {
  /** Aborting it cancels the call in main. */
  signal?: AbortSignal | undefined
}
export interface ListAllOptions extends CallOptions {
  onProgress?: ((p: Progress) => void) | undefined
}

export interface AccountApi {
  readonly accountId: string
  call<N extends EndpointName>(name: N, params: ApiParams<N>, opts?: CallOptions): Promise<Result<EndpointResult<N>>>
  /** The first page of a paged list (the rest may follow with listAll). */
  firstPage<N extends PagedEndpointName>(name: N, params: PagedInput<N>, limit: number, opts?: CallOptions): Promise<Result<PagedItem<N>[]>>
  /** Every item of a paged list, page by page in main, with progress. */
  listAll<N extends PagedEndpointName>(name: N, params: PagedInput<N>, opts?: ListAllOptions): Promise<Result<PagedItem<N>[]>>
}

/** Runs a call that the signal, when aborted, cancels in main by its job id. */
async function followed<T>(jobId: string | undefined, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
  if (!jobId || !signal) return run()
  const onAbort = () => void cancelJob(jobId)
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    return await run()
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

export function accountApi(accountId: string): AccountApi {
  return {
    accountId,
    call<N extends EndpointName>(name: N, params: ApiParams<N>, opts: CallOptions = {}) {
      const jobId = opts.signal ? newJobId() : undefined
      const payload = { ...params, accountId, ...(jobId ? { jobId } : {}) }
      return followed(jobId, opts.signal, () => invoke(name, payload)) as Promise<Result<EndpointResult<N>>>
    },
    firstPage<N extends PagedEndpointName>(name: N, params: PagedInput<N>, limit: number, opts: CallOptions = {}) {
      const jobId = opts.signal ? newJobId() : undefined
      const payload = { ...params, limit, accountId, ...(jobId ? { jobId } : {}) }
      return followed(jobId, opts.signal, () => invoke(name, payload)) as Promise<Result<PagedItem<N>[]>>
    },
    listAll<N extends PagedEndpointName>(name: N, params: PagedInput<N>, opts: ListAllOptions = {}) {
      const jobId = newJobId()
      const payload = { ...params, accountId, jobId }
      return followed(jobId, opts.signal, () => invoke(`all.${name}`, payload, opts.onProgress)) as Promise<Result<PagedItem<N>[]>>
    },
  }
}
