/**
 * The API client for the whole service. The endpoint table lives in
 * src/shared/endpoints/table.ts (the IPC contract derives from it too) and is
 * re-exported here as the client's source of truth.
 */
export { createApiClient, DEFAULT_TIMEOUT_MS } from './client'
export type { ApiClient, ApiClientOptions, CallOptions, Envelope, RetryPolicy } from './client'
export { ApiError, redact, DEFAULT_MESSAGES } from './errors'
export { listAllPages, DEFAULT_CONCURRENCY, DEFAULT_PAGE_SIZE } from './paging'
export type { ListAllOptions, ListAllProgress } from './paging'
export {
  endpoints,
  ENDPOINT_NAMES,
  PAGED_ENDPOINT_NAMES,
  SERVER_KINDS,
  paramLocation,
  pathParamNames,
} from '../../shared/endpoints/table'
export type {
  EndpointDef,
  EndpointInput,
  EndpointName,
  EndpointResult,
  PagedEndpointName,
  PagedInput,
  PagedItem,
  ServerKind,
} from '../../shared/endpoints/table'
