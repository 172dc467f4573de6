/**
 * The one error model that crosses every boundary: API client -> IPC -> renderer.
 * Plain data (no stack, no key): it is what a person reads, plus what support needs.
 */
import { z } from 'zod'

export const API_ERROR_KINDS = [
  'bad-request',
  'unauthorized',
  'forbidden',
  'not-found',
  'server-error',
  'unavailable',
  'gateway-timeout',
  'timeout',
  'network',
  'malformed-response',
  'cancelled',
] as const
export type ApiErrorKind = (typeof API_ERROR_KINDS)[number]

/** Kinds raised on our side of the boundary, before or around an API call. */
export const APP_ERROR_KINDS = ['validation', 'keychain-unavailable', 'no-key', 'no-account', 'internal'] as const
export type AppErrorKind = (typeof APP_ERROR_KINDS)[number]

export const ERROR_KINDS = [...API_ERROR_KINDS, ...APP_ERROR_KINDS] as const
export type ErrorKind = (typeof ERROR_KINDS)[number]

export const errorDataSchema = z.object({
  kind: z.enum(ERROR_KINDS),
  status: z.number().int().optional(),
  message: z.string(),
  requestId: z.string().optional(),
  /** For validation errors: which field, and what is wrong with it. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
})
export type ErrorData = z.infer<typeof errorDataSchema>

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
    case 503:
      return 'unavailable'
    case 504:
      return 'gateway-timeout'
    default:
      return status >= 500 ? 'server-error' : 'bad-request'
  }
}
