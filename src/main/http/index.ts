/** The HTTP client of the API (undici): requests, errors, retries of reads, listAll. */
export { createApiClient } from './client'
export { DEFAULT_TIMEOUT_MS } from '@shared/service/constants'
export type { ApiClient, ApiClientOptions, CallOptions, Envelope, RetryPolicy } from './client'
export { listAllPages, DEFAULT_CONCURRENCY } from './paging'
export type { ListAllOptions, ListAllProgress } from './paging'
