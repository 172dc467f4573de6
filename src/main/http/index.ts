/** The HTTP client of the API (undici): requests, errors, retries of reads, listAll. */
export { createApiClient, DEFAULT_TIMEOUT_MS } from './client'
export type { ApiClient, ApiClientOptions, CallOptions, Envelope, RetryPolicy } from './client'
export { redact } from './errors'
export { listAllPages, DEFAULT_CONCURRENCY, DEFAULT_PAGE_SIZE } from './paging'
export type { ListAllOptions, ListAllProgress } from './paging'
